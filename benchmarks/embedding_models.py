"""Embedding models side by side: retrieval on the development books, and what each costs in time.

For every book, each model in turn (so that the timings share the host's load): a fresh index
of the book (ingest timed), the median time to embed one question (each question once, no
cache), then the book's question set asked through the product's pipeline as `textbook-chat eval`
asks it. Retrieval is scored on the in-book items' candidates, gathered before any gate
(threshold 0), so no threshold or gate calibrated for one model enters those figures: page
hit@1, hit@5, MRR, section hit@5, and hit@5 per tag. Beside them, what the gates (calibrated
on MiniLM's cosines) make of the model: the lowest in-book top score, the highest out-of-scope
ones, and the refusal, leak and highlight rates at the default settings. The load average is
printed with each timing.

A model is NAME=MODELS_DIR, the folder holding `<org>--<model>/` as the product provisions it
(fastembed's ONNX layout). A model fastembed does not list is registered first with
NAME=MODELS_DIR:POOLING:DIM (POOLING `mean` or `cls`, normalised), e.g.

    python benchmarks/embedding_models.py \\
        --model sentence-transformers/all-MiniLM-L6-v2=data/models \\
        --model sentence-transformers/all-mpnet-base-v2=CANDIDATES:mean:768 \\
        [--book aibook ...] [--out benchmarks/out/embedding_models.json]

(CANDIDATES: a folder outside the repository holding a candidate exported with
`benchmarks/export_candidate_model.py`.)

Results: BENCHMARKS.md, "A stronger embedding model? (measured, not adopted)".
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import CORPORA, EVAL, OUT, REPO, machine, median  # noqa: E402


def book_paths() -> dict[str, Path]:
    """The four books as `make eval` reads them, and aibook's built site as `aibook-built` (asked
    only when named: the same questions, the pages as a reader's browser gets them)."""
    built = subprocess.run([sys.executable, str(REPO / "tests" / "built_sites.py"), "physical-ai-i18n", "aibook"],
                           check=True, capture_output=True, text=True).stdout.strip().splitlines()
    return {"physical-ai-book": CORPORA / "physical-ai-book" / "docs", "rust-book": CORPORA / "rust-book",
            "aibook": CORPORA / "aibook" / "docs", "physical-ai-i18n": Path(built[0]), "aibook-built": Path(built[1])}


def register(spec: str) -> tuple[str, Path]:
    """NAME=DIR[:POOLING:DIM] -> (NAME, DIR), registering NAME with fastembed when POOLING is given."""
    name, _, rest = spec.partition("=")
    folder, *custom = rest.split(":")
    if custom:
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        pooling, dim = custom
        TextEmbedding.add_custom_model(name, pooling=PoolingType[pooling.upper()], normalization=True,
                                       sources=ModelSource(hf=name), dim=int(dim), model_file="model.onnx")
    return name, Path(folder).resolve()


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def measure(model: str, models_dir: Path, book: Path, items: list[dict]) -> dict:
    from server.composition import components
    from server.evaluation import evaluate
    from server.ingest.indexer import default_book_id, ingest
    from server.ingest.site import detect_site
    from server.settings import Settings

    site = detect_site(str(book))
    book_id = default_book_id(site)
    with tempfile.TemporaryDirectory(prefix="embedding-models-") as data:
        settings = Settings(data_dir=Path(data), models_dir=models_dir, embedding_model=model, gemini_api_key=None)
        with components(settings, store_check=False) as chat:
            load_before, started = load(), time.perf_counter()
            ingest(site, chat.store, chat.embedder, book_id=book_id, progress=False)
            ingest_s = time.perf_counter() - started
            chunks = chat.store.all_chunks(book_id)
            chat.embedder.embed_query("a warm-up question that is asked once")
            times = []
            for question in dict.fromkeys(item["question"] for item in items):  # each once: no cache hit
                started = time.perf_counter()
                chat.embedder.embed_query(question)
                times.append((time.perf_counter() - started) * 1000)
            result = evaluate(items, chat.pipeline, chunks, threshold=settings.similarity_threshold,
                              locale=site.default_locale)
    s, top, gated = result["summary"], result["top_scores"], result["gated"]
    ungated = [score for score, caught in zip(top["out_of_scope"], gated["out_of_scope"]) if not caught]
    in_book = [row for row in result["rows"] if row["kind"] == "in_book"]
    return {"chunks": len(chunks), "ingest_s": round(ingest_s, 1), "ingest_load": load_before,
            "query_ms_p50": round(median(times), 1), "queries": len(times), "query_load": load(),
            "hit_at_1": s["hit_at_1"], "hit_at_5": s["hit_at_5"], "mrr": s["mrr"],
            "section_hit_at_5": s["section"]["hit_at_5"], "n": s["counts"]["in_book"],
            "tags": {tag: m["hit_at_5"] for tag, m in s["tags"].items()},
            # what the gates, calibrated on MiniLM's cosines, would make of this model's
            "in_book_top_min": round(min(top["in_book"]), 3),
            "oos_top_max": round(max(top["out_of_scope"], default=0), 3),
            "oos_top_max_not_term_gated": round(max(ungated, default=0), 3),
            "at_default_gates": {k: s[k] for k in ("in_book_refusal_rate", "oos_refusal_rate", "leak_rate",
                                                   "selection_answered_rate", "off_topic_declined_rate")},
            "misses": [r["id"] for r in in_book if r["doc_rank"] is None or r["doc_rank"] > 5],
            "ranks": {r["id"]: [r["doc_rank"], r["section_rank"]] for r in in_book}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", action="append", required=True, help="NAME=MODELS_DIR[:POOLING:DIM]")
    parser.add_argument("--book", action="append", help="a development book (default: all four)")
    parser.add_argument("--out", type=Path, default=OUT / "embedding_models.json")
    args = parser.parse_args()
    models = [register(spec) for spec in args.model]
    books = book_paths()
    results: dict = {"machine": machine(), "books": {}}
    for name in args.book or [book for book in books if book != "aibook-built"]:
        questions = EVAL / f"{name.removesuffix('-built')}.jsonl"
        items = [json.loads(line) for line in questions.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        for model, models_dir in models:
            row = measure(model, models_dir, books[name], items)
            results["books"].setdefault(name, {})[model] = row
            print(f"{name} | {model} | hit@1 {row['hit_at_1']:.3f} hit@5 {row['hit_at_5']:.3f} MRR {row['mrr']:.3f} "
                  f"section hit@5 {row['section_hit_at_5']:.3f} | ingest {row['ingest_s']} s ({row['chunks']} chunks, "
                  f"load {row['ingest_load']}) | query p50 {row['query_ms_p50']} ms (load {row['query_load']}) | "
                  f"tags {row['tags']} | misses {row['misses']} | in-book top min {row['in_book_top_min']}, "
                  f"out-of-scope top max {row['oos_top_max']} ({row['oos_top_max_not_term_gated']} not term-gated) | "
                  f"at the default gates {row['at_default_gates']}", flush=True)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()

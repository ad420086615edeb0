"""Full ingest of the Rust book vs the model alone, one-file re-ingest, and query latency.

    .venv/bin/python benchmarks/ingest_and_query.py
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.common import StealMeter, CORPORA, EVAL, MODELS_DIR, machine, median, percentile, save_result  # noqa: E402
from server.embedding.embedder import load_embedder  # noqa: E402
from server.ingest.indexer import ingest  # noqa: E402
from server.ingest.site import detect_site  # noqa: E402
from server.question.gather.retrieval import Retriever  # noqa: E402
from server.settings import Settings  # noqa: E402
from server.store import open_store  # noqa: E402


class TimedEmbedder:
    """The embedder, with the time spent in embed_documents added up (the model's share of a run)."""

    def __init__(self, embedder):
        self.inner = embedder
        self.seconds = 0.0

    def embed_documents(self, texts):
        started = time.perf_counter()
        try:
            return self.inner.embed_documents(texts)
        finally:
            self.seconds += time.perf_counter() - started

    def __getattr__(self, name):
        return getattr(self.inner, name)


def main() -> dict:
    work = Path(tempfile.mkdtemp(prefix="tc-bench-"))
    book = work / "rust-book"
    shutil.copytree(CORPORA / "rust-book", book)
    settings = Settings(data_dir=work / "data", models_dir=MODELS_DIR)
    embedder = load_embedder(settings, log=lambda _m: None)
    store = open_store(settings, embedder.model_name, embedder.dim)
    site = detect_site(book)

    steal = StealMeter()
    timed = TimedEmbedder(embedder)
    started = time.perf_counter()
    report = ingest(site, store, timed, progress=False)
    full_s = time.perf_counter() - started
    texts = [c.embed_text for c in store.all_chunks(report.book_id)]
    started = time.perf_counter()
    embedder.embed_documents(texts)
    model_s = time.perf_counter() - started

    target = book / "src" / "ch04-01-what-is-ownership.md"
    reingest = []
    for round_ in range(3):
        target.write_text(target.read_text() + f"\n\nAn added closing sentence, round {round_}.\n")
        started = time.perf_counter()
        again = ingest(site, store, embedder, progress=False)
        reingest.append(time.perf_counter() - started)
        assert again.updated == 1, again.summary()

    store.close()
    # queries in a fresh process, as a freshly started server answers them (after a long
    # ingest the same process answers more slowly: the model's memory is laid out for batches)
    queries = json.loads(subprocess.run(
        [sys.executable, __file__, "--queries", str(settings.data_dir)], check=True, capture_output=True,
        text=True).stdout)
    shutil.rmtree(work, ignore_errors=True)
    result = {
        "machine": machine(), "cpu_steal_share": steal.share(), "pages": again.unchanged + 1, "chunks": len(texts),
        "full_ingest_s": round(full_s, 1),
        # the model's own time inside the same run: immune to the machine speeding up or slowing
        # down between two separate runs, which on a shared machine moves the ratio by ±15 %
        "model_in_run_s": round(timed.seconds, 1), "ratio": round(full_s / timed.seconds, 3),
        "model_only_separate_run_s": round(model_s, 1), "ratio_vs_separate_run": round(full_s / model_s, 3),
        "reingest_one_file_s_median": round(median(reingest), 2), "reingest_runs_s": [round(r, 2) for r in reingest],
        **queries,
    }
    save_result("ingest_and_query", result)
    return result


def measure_queries(data_dir: Path) -> dict:
    """Embed + search latency over a built index, the embedding cache cleared for each query."""
    settings = Settings(data_dir=data_dir, models_dir=MODELS_DIR)
    embedder = load_embedder(settings, log=lambda _m: None)
    store = open_store(settings, embedder.model_name, embedder.dim)
    retriever = Retriever(store, embedder)
    questions = [json.loads(line)["question"] for line in open(EVAL / "rust-book.jsonl")]
    retriever.retrieve("warm-up", max_chunks=5)
    latencies, embed_ms, search_ms, cached = [], [], [], []
    for _ in range(5):
        for question in questions:
            embedder._cached_query.cache_clear()  # measure embed + search, not the cache
            started = time.perf_counter()
            retriever.retrieve(question, max_chunks=5)
            latencies.append((time.perf_counter() - started) * 1000)
    embedder._cached_query.cache_clear()
    for question in questions:  # the two stages apart, to show where the time goes
        started = time.perf_counter()
        vector = embedder.embed_query(question)
        embed_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        store.search(vector, limit=10)
        search_ms.append((time.perf_counter() - started) * 1000)
    for question in questions:  # the cache is full now: answering from it
        started = time.perf_counter()
        retriever.retrieve(question, max_chunks=5)
        cached.append((time.perf_counter() - started) * 1000)
    store.close()
    return {
        "query_ms_p50": round(median(latencies), 2), "query_ms_p95": round(percentile(latencies, 0.95), 2),
        "embed_ms_p50": round(median(embed_ms), 2), "search_ms_p50": round(median(search_ms), 2),
        "query_cached_ms_p50": round(median(cached), 2), "queries": len(latencies),
    }


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--queries":
        print(json.dumps(measure_queries(Path(sys.argv[2]))))
    else:
        main()

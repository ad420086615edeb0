"""Where the answer keywords of in-book questions are, and how much of them an answer composer
quotes: the retrieved passages of each question are recorded once (the same pipeline as `eval`),
then the composer re-runs over them in milliseconds.

    python benchmarks/answer_sources.py capture SET.jsonl --book BOOK --out FILE.pkl [--max-chunks 5]
    python benchmarks/answer_sources.py diagnose FILE.pkl [FILE.pkl ...]
    python benchmarks/answer_sources.py ceiling FILE.pkl [FILE.pkl ...] [--words 90]

`diagnose` reads each in-book item's missing keywords and says where they are: (a) in a passage
the answer quotes (as read on), (b) in another retrieved passage (as read on), (c) in a chunk just
before or after a retrieved passage on its page, (d) nowhere retrieved; and the coverage and
length the composer reaches.

`ceiling` is what a composer that knew the keywords would reach in the same pieces and the same
reading length: it takes, again and again, the piece holding the most missing keywords per
reading word, while the answer fits. No real composer reaches it; it says what is left to gain
by choosing pieces, and what only retrieval can still give.
"""
from __future__ import annotations

import pickle
import re
import sys
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.evaluation.measures import answer_words, keyword_coverage  # noqa: E402
from server.question.compose.extractive.answers import block_answer  # noqa: E402
from server.question.compose.extractive.continuation import passage_texts  # noqa: E402
from server.question.context import Source  # noqa: E402
from server.question.compose.extractive.continuation import READ_ON, PageOrder  # noqa: E402
from server.text.vocabulary import BookVocabulary  # noqa: E402


def capture(questions: str, book_path: str, out: str, max_chunks: int = 5) -> None:
    from server.cli.shared import settings as _settings
    from server.composition import components
    from server.evaluation import load_questions
    from server.ingest.indexer import default_book_id, ingest
    from server.ingest.site import detect_site
    from server.question.compose.extractive import ExtractiveGenerator
    from server.question import Page, Question

    site = detect_site(book_path)
    book_id = default_book_id(site)
    settings = _settings()
    settings = settings.with_overrides(data_dir=settings.data_dir / "eval" / book_id,
                                       models_dir=settings.model_dir_root, gemini_api_key=None)
    seen: list = []
    original = ExtractiveGenerator.quote

    def recording(self, request):
        seen.append(request)
        return original(self, request)

    ExtractiveGenerator.quote = recording
    records = []
    with components(settings, store_check=False) as chat:
        ingest(site, chat.store, chat.embedder, book_id=book_id, progress=False)
        chunks = chat.store.all_chunks(book_id)
        for item in load_questions(questions):
            if item["kind"] != "in_book":
                continue
            seen.clear()
            answer = chat.pipeline.answer(Question(item["question"], max_chunks=max_chunks,
                                                  similarity_threshold=settings.similarity_threshold,
                                                  page=Page(locale=site.default_locale)))
            request = seen[-1] if seen else None
            records.append({"item": item, "answer": answer.text, "refused": answer.refused,
                            "question": request.question if request else item["question"],
                            "sources": [(s.chunk, s.source_type) for s in request.sources] if request else []})
    with open(out, "wb") as handle:
        pickle.dump({"book": book_path, "chunks": chunks, "records": records}, handle)
    print(f"{len(records)} in-book items recorded in {out}")


def _has(text: str, keyword: str) -> bool:
    return keyword.lower() in text.lower()


def _neighbours(chunk, by_page: dict) -> list:
    page = by_page.get(chunk.page_key or chunk.source_file, [])
    return [c for c in page if abs(c.position - chunk.position) == 1]


def page_order(chunks, count: int = READ_ON):
    """PageOrder.after over recorded chunks (one book's)."""
    recorded = tuple(chunks)
    return PageOrder(lambda _book_id: recorded, count).after


def diagnose(paths: list[str], compose=block_answer, verbose: bool = True) -> dict:
    totals = {}
    for path in paths:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
        book = BookVocabulary.from_texts(c.embed_text for c in data["chunks"])
        by_page: dict = {}
        for chunk in data["chunks"]:
            by_page.setdefault(chunk.page_key or chunk.source_file, []).append(chunk)
        following = page_order(data["chunks"])
        classes = {"quoted": 0, "a": 0, "b": 0, "c": 0, "d": 0}
        coverage, lengths = [], []
        for record in data["records"]:
            item = record["item"]
            sources = [Source(c, t) for c, t in record["sources"]]
            text = compose(record["question"], sources, "normal", book, following) if sources else ""
            coverage.append(keyword_coverage(text, item["answer_keywords"]))
            lengths.append(answer_words(text))
            cited = {int(n) for n in re.findall(r"\[(\d+)\]", text)}
            read = passage_texts(sources, following)  # each passage as the composer read it
            lines = []
            for keyword in item["answer_keywords"]:
                if _has(text, keyword):
                    classes["quoted"] += 1
                    continue
                where = "d"
                if any(_has(read[n - 1], keyword) for n in cited if n <= len(sources)):
                    where = "a"
                elif any(_has(passage, keyword) for passage in read):
                    where = "b"
                elif any(_has(c.content, keyword) for s in sources for c in _neighbours(s.chunk, by_page)):
                    where = "c"
                classes[where] += 1
                lines.append(f"    {where}: {keyword!r}")
            if lines and verbose:
                print(f"  {item['id']} {item['question']!r} cov {coverage[-1]:.2f} words {lengths[-1]} "
                      f"cites {sorted(cited)} gold {item['gold_docs'][0]} › {item['gold_heading']}")
                for n, s in enumerate(sources, 1):
                    print(f"    [{n}] {s.chunk.source_file} › {s.chunk.heading} ({s.score:.2f})")
                print("\n".join(lines))
        name = Path(path).stem
        totals[name] = (round(sum(coverage) / len(coverage), 3), median(lengths), classes)
        print(f"{name}: coverage {totals[name][0]}, words p50 {totals[name][1]}, keywords {classes}")
    return totals


def ceiling(paths: list[str], budget: int = 90) -> dict:
    from server.question.compose.extractive.answer_units import units_of
    from server.question.compose.extractive.continuation import read_passages
    from server.question.compose.extractive.piece_scores import reading_words
    found = {}
    for path in paths:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
        following = page_order(data["chunks"])
        coverage = []
        for record in data["records"]:
            sources = [Source(c, t) for c, t in record["sources"]]
            read = read_passages(sources, following) if sources else []
            units = [u for n, (text, _) in enumerate(read, 1) for u in units_of(text, n)]
            keywords = [k.lower() for k in record["item"]["answer_keywords"]]
            have, length, text = set(), 0, ""
            while True:
                best = None
                for unit in units:
                    new = {k for k in keywords if k not in have and k in unit.text.lower()}
                    words = reading_words(unit)
                    if new and length + words <= budget and (best is None or len(new) / max(words, 1) > best[0]):
                        best = (len(new) / max(words, 1), unit, new)
                if best is None:
                    break
                have |= best[2]
                length += reading_words(best[1])
                text += "\n" + best[1].text
            coverage.append(keyword_coverage(text, record["item"]["answer_keywords"]))
        found[Path(path).stem] = round(sum(coverage) / len(coverage), 3)
        print(f"{Path(path).stem}: ceiling {found[Path(path).stem]} at {budget} reading words")
    return found


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "capture":
        capture(rest[0], rest[rest.index("--book") + 1], rest[rest.index("--out") + 1],
                int(rest[rest.index("--max-chunks") + 1]) if "--max-chunks" in rest else 5)
    elif command == "ceiling":
        ceiling([p for p in rest if p.endswith(".pkl")], int(rest[rest.index("--words") + 1]) if "--words" in rest else 90)
    else:
        diagnose([p for p in rest if not p.startswith("-")], verbose="-q" not in rest)

"""Lexical re-ranking: among passages the model finds equally close, the one with the
question's own words comes first; the scores stay the model's."""
from __future__ import annotations

import uuid
from dataclasses import replace

from server.book.chunk import Chunk
from server.question.gather.lexical import bm25_scores, rerank
from server.text.vocabulary import BookVocabulary


def _chunk(chunk_id: str, text: str, score: float) -> Chunk:
    return Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                 url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                 source_location="", citation="", file_hash="", embed_text=text, score=score)


TEXTS = {"general": "Robots sense the world and act in it. Bodies matter for intelligence.",
         "exact": "The embodiment hypothesis says intelligence needs a body that acts in the world.",
         "other": "Batteries store energy; lithium cells are light."}
BOOK = BookVocabulary.from_texts(TEXTS.values())


def test_the_question_s_words_lift_a_passage_the_model_ranks_second():
    chunks = [_chunk("general", TEXTS["general"], 0.52), _chunk("exact", TEXTS["exact"], 0.50),
              _chunk("other", TEXTS["other"], 0.20)]
    ranked = rerank("what is the embodiment hypothesis?", chunks, BOOK)
    assert [c.chunk_id for c in ranked] == ["exact", "general", "other"]
    assert [c.score for c in ranked] == [0.50, 0.52, 0.20]  # the model's scores, unchanged


def test_lexical_weight_is_a_nudge_not_a_takeover():
    chunks = [_chunk("general", TEXTS["general"], 0.70), _chunk("exact", TEXTS["exact"], 0.40)]
    assert [c.chunk_id for c in rerank("embodiment hypothesis", chunks, BOOK)] == ["general", "exact"]


def test_the_nudge_is_the_same_on_a_model_whose_cosines_are_compressed():
    """e5's cosines span about a fifth of MiniLM's: put on MiniLM's scale, the passage it finds
    clearly nearer stays first, as it would with MiniLM; unscaled, a word in common overturns it."""
    from server.embedding.choice import MULTILINGUAL, on_gate_scale

    chunks = [_chunk("general", TEXTS["general"], 0.87), _chunk("exact", TEXTS["exact"], 0.83)]
    scaled = rerank("embodiment hypothesis", chunks, BOOK, scale=on_gate_scale(MULTILINGUAL))
    assert [c.chunk_id for c in scaled] == ["general", "exact"] and [c.score for c in scaled] == [0.87, 0.83]
    assert [c.chunk_id for c in rerank("embodiment hypothesis", chunks, BOOK)] == ["exact", "general"]


def test_bm25_is_zero_for_words_the_book_lacks():
    chunks = [_chunk("exact", TEXTS["exact"], 0.5)]
    assert bm25_scores("pancakes and syrup", chunks, BOOK) == [0.0]
    assert bm25_scores("embodiment", chunks, BOOK)[0] > 0


def test_bm25_is_okapi_bm25_over_whole_words():
    """Worked by hand: two passages of 3 and 1 words; "rust" in one of them, twice."""
    import math

    book = BookVocabulary.from_texts(["Rust, rust-cargo", "borrow"])
    passage = _chunk("p", "Rust, rust-cargo", 0.5)
    idf = math.log((2 - 1 + 0.5) / (1 + 0.5) + 1)
    norm = 1.5 * (1 - 0.75 + 0.75 * 3 / 2)
    expected = idf * 2 * 2.5 / (2 + norm)
    for _ in range(2):  # counted once, then remembered: the same either way
        assert abs(bm25_scores("is rust rusty?", [passage], book)[0] - expected) < 1e-9
    inside = _chunk("q", "Trusty rusted crust", 0.5)
    assert bm25_scores("rust", [inside], book) == [0.0]  # a word inside another is not that word


def test_bm25_adds_up_every_query_term():
    """Worked by hand: a passage holding both words of a two-word question scores the sum of
    both words' parts; one holding only the second word still scores, and ranks above none."""
    import math

    book = BookVocabulary.from_texts(["rust borrow", "borrow checker", "cargo build"])
    both, second, neither = (_chunk(i, t, 0.5) for i, t in (("both", "rust borrow"), ("second", "borrow checker"),
                                                               ("neither", "cargo build")))
    idf = {t: math.log((3 - n + 0.5) / (n + 0.5) + 1) for t, n in (("rust", 1), ("borrow", 2))}
    norm = 1.5 * (1 - 0.75 + 0.75 * 2 / 2)
    part = {t: idf[t] * 1 * 2.5 / (1 + norm) for t in idf}
    scores = bm25_scores("rust borrow", [both, second, neither], book)
    assert abs(scores[0] - (part["rust"] + part["borrow"])) < 1e-9
    assert abs(scores[1] - part["borrow"]) < 1e-9 and scores[2] == 0.0
    assert [c.chunk_id for c in rerank("rust borrow", [neither, second, both], book)] == ["both", "second", "neither"]


def test_a_book_read_with_the_multilingual_model_is_re_ranked_on_minilms_scale(tmp_path):
    """Through the retriever, on a real index embedded with e5: a passage sharing only the word
    "robot" with the question does not overtake the passages e5 finds nearer."""
    import numpy as np

    from server.embedding.e5 import E5Embedder
    from server.question.gather.retrieval import Retriever
    from server.store.edge import EdgeStore

    texts = {"balance": "Balance control keeps a humanoid on its feet: it moves the centre of mass over the support polygon.",
             "posture": "Upright posture is rare among robots; most of them roll on wheels.",
             "battery": "Lithium batteries store energy and are light.",
             "sight": "Cameras give a robot its sight."}
    e5 = E5Embedder(threads=1)
    store = EdgeStore(tmp_path / "index", "chunks", e5.model_name, e5.dim)
    store.create()
    chunks = [replace(_chunk(key, text, 0.0), chunk_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)))
              for key, text in texts.items()]
    store.upsert(chunks, e5.embed_documents(list(texts.values())))
    store.publish()
    book = BookVocabulary.from_texts(texts.values())
    question = "what keeps a robot walking upright?"
    found = Retriever(store, e5, lexicon=lambda _book_id: book).retrieve(question, max_chunks=4)
    names = {c.chunk_id: key for key, c in zip(texts, chunks)}
    assert names[found[0].chunk_id] in ("balance", "posture"), [names[c.chunk_id] for c in found]
    assert all(np.isclose(c.score, float(e5.embed_query(question) @ e5.embed_documents([c.content])[0]), atol=1e-3)
               for c in found)  # the model's cosines, as the gates read them
    store.close()


def test_a_passage_writing_the_operators_a_question_names_is_lifted():
    """A genomics course's "whats the difference between > and >> in the terminal": the passage saying
    "you can use `>>` instead of `>`" was fourth among the model's candidates and fell further, since
    BM25 reads "difference" and "terminal" only."""
    texts = {"prompt": "Your terminal shows a prompt when it is ready: <prompt> %. Type a command at it.",
             "append": "If you want to append to the file, you can use `>>` instead of `>`.",
             "other": "The terminal's difference engine is a figure of speech."}
    book = BookVocabulary.from_texts(texts.values())
    chunks = [_chunk("prompt", texts["prompt"], 0.42), _chunk("other", texts["other"], 0.41),
              _chunk("append", texts["append"], 0.40)]
    ranked = rerank("whats the difference between > and >> in the terminal", chunks, book)
    assert ranked[0].chunk_id == "append", [c.chunk_id for c in ranked]
    assert rerank("whats the difference between these in the terminal", chunks, book)[0].chunk_id != "append"

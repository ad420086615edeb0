"""The reader's page weighs in retrieval (question/gather/reader_page.py). A genomics student on
the sequencing page asked "what is the sample index for?" and was answered with a sqlite table's
indexes from a programming page. On a real index (MiniLM, the embedded store): asked on the page
that names the sample index, that page comes first; asked on another page, a question about the
sequencing page still finds it first; a URL no page has changes nothing."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings, strategies as st

from server.book.chunk import Chunk
from server.book.outline import OutlinePage
from server.question.gather.reader_page import ReaderPages
from server.question.gather.retrieval import Retriever
from server.store.edge import EdgeStore
from server.text.vocabulary import BookVocabulary

SITE = "https://example.org/course"
PASSAGES = [  # (page, text)
    ("db.md", "To make the most of sqlite it is best to add an index on the table: the index lets it look up "
              "each gene quickly by its ID or its Parent field."),
    ("db.md", "Sqlite stores the whole table in one file, and queries it with SQL."),
    ("seq.md", "The adapters are themselves structured: a primer sequence, an index that identifies the sample, "
               "and a sequence that anneals to the flowcell."),
    ("seq.md", "Reads from different samples run on the same lane are told apart by it, read in separate "
               "cycles."),
    ("qc.md", "Fastqc reports the quality of each base along the reads."),
    ("qc.md", "Send the jobs to the cluster with qsub: what does the cluster do with them? It runs them in parallel."),
    ("seq.md", "To generate enough intensity for imaging, the ligated fragments above undergo amplification on "
               "the flowcell that generates multiple copies of each fragment - called a **cluster**. This process "
               "keeps the fragments local (they stay within the imaging 'tile') so that they are imaged together, "
               "generating the output sequence data."),
]


def _chunk(n: int, page: str, text: str) -> Chunk:
    return Chunk(chunk_id=str(uuid.uuid5(uuid.NAMESPACE_URL, f"{page}-{n}")), book_id="b", book_title="B",
                 content=text, content_hash="", source_file=page, url=f"{SITE}/{page[:-3]}/", module="", chapter="",
                 section="", heading=page[:-3], section_hierarchy=[page[:-3]], page=0, source_location="",
                 citation="", file_hash="", embed_text=text, page_key=page, position=n,
                 path_prefixes=[page])


def _page(source: str) -> OutlinePage:
    return OutlinePage(key=source, source_file=source, url=f"{SITE}/{source[:-3]}/", title=source, labels=(source,),
                       name=source, part=None, order=0, position=0, prev=None, next=None, description="")


@dataclass
class _Outline:
    pages: list[OutlinePage]


@dataclass
class _Published:
    outline: _Outline
    chunks: tuple = ()
    views: dict = field(default_factory=dict)

    def view(self, build):
        return self.views.setdefault(build, build(self))


@pytest.fixture(scope="module")
def retriever(tmp_path_factory, embedder):
    store = EdgeStore(tmp_path_factory.mktemp("reader-page") / "index", "chunks", embedder.model_name, embedder.dim)
    store.create()
    chunks = [_chunk(n, page, text) for n, (page, text) in enumerate(PASSAGES)]
    store.upsert(chunks, embedder.embed_documents([c.embed_text for c in chunks]))
    store.publish()
    book = BookVocabulary.from_texts(text for _, text in PASSAGES)
    published = _Published(_Outline([_page("db.md"), _page("seq.md"), _page("qc.md")]), tuple(chunks))
    yield Retriever(store, embedder, lexicon=lambda _id: book, pages=ReaderPages(lambda _id: published))
    store.close()


def _pages(found: list[Chunk]) -> list[str]:
    return [c.source_file for c in found]


def test_the_page_the_question_is_asked_on_comes_first_where_it_answers(retriever):
    question = "what does an index do?"
    assert _pages(retriever.retrieve(question, max_chunks=3))[0] == "db.md"  # the word "index", said twice
    on_page = retriever.retrieve(question, max_chunks=3, page_url="http://localhost:3000/course/seq/")
    assert _pages(on_page)[0] == "seq.md", _pages(on_page)
    # the score stays the cosine: the gates read it, not the order's weights
    assert all(0.0 <= c.score <= 1.0 for c in on_page)
    plain = {c.chunk_id: c.score for c in retriever.retrieve(question, max_chunks=5)}
    assert all(abs(plain[c.chunk_id] - c.score) < 1e-6 for c in on_page if c.chunk_id in plain)


def test_a_question_about_another_page_still_finds_that_page(retriever):
    found = retriever.retrieve("how do I look up a gene by its ID in sqlite?", max_chunks=3, page_url=f"{SITE}/seq/")
    assert _pages(found)[0] == "db.md", _pages(found)


def test_a_term_the_readers_page_defines_is_answered_there_first(retriever):
    """A highlighted "cluster" asked "what does this mean" on the sequencing page: the page's
    cluster, though the compute cluster of another page lies nearer the question's wording."""
    question = "what does cluster mean?"
    assert _pages(retriever.retrieve(question, max_chunks=3))[0] == "qc.md"
    found = retriever.retrieve(question, max_chunks=3, page_url=f"{SITE}/seq/")
    assert "called a **cluster**" in found[0].content, _pages(found)
    assert found[0].score == found[1].score  # in the first place, with the score of the passage it went before
    # a page that does not define the term leads with nothing of its own
    assert "called a **cluster**" not in retriever.retrieve(question, max_chunks=1, page_url=f"{SITE}/db/")[0].content


def test_a_highlighted_term_is_looked_up_first_where_the_reader_highlighted_it(retriever):
    """"举个例子" (give me an example) of a highlighted "\"x\": 排他模式", with the book beside it, was
    refused: the question's words found other pages, never the one the reader was on. The page's
    passage holding the highlighted term leads; on a page that does not hold it, nothing changes."""
    question = "举个例子 identifies the sample"
    found = retriever.retrieve(question, max_chunks=3, page_url=f"{SITE}/seq/", holding="identifies the sample")
    assert "an index that identifies the sample" in found[0].content
    elsewhere = retriever.retrieve(question, max_chunks=3, page_url=f"{SITE}/qc/", holding="identifies the sample")
    assert [c.chunk_id for c in elsewhere] == [c.chunk_id for c in retriever.retrieve(question, max_chunks=3,
                                                                                        page_url=f"{SITE}/qc/")]
    nowhere = retriever.retrieve("give me an example of it", max_chunks=3, page_url=f"{SITE}/qc/",
                                 holding="Fastqc reports the quality")
    assert nowhere[0].content.startswith("Fastqc reports the quality")


def test_a_url_no_page_has_changes_nothing(retriever):
    question = "what does an index do?"
    plain = [c.chunk_id for c in retriever.retrieve(question, max_chunks=5)]
    for url in ("", f"{SITE}/", "http://localhost:3000/nowhere/at/all/", "not a url"):
        assert [c.chunk_id for c in retriever.retrieve(question, max_chunks=5, page_url=url)] == plain, url


def test_the_eval_asks_a_question_on_its_gold_page_or_on_the_page_after_it():
    """`textbook-chat eval --asked-on gold|next` (evaluation/asked_on.py): what the reader's page
    weighs is measured both ways, on the page that answers and on one that does not."""
    from dataclasses import replace

    from server.evaluation.asked_on import page_of_item

    pages = [replace(_page("db.md"), next="seq.md"), replace(_page("seq.md"), prev="db.md", next="qc.md"),
             replace(_page("qc.md"), prev="seq.md"),
             replace(_page("seq.md"), key="ja/seq.md", locale="ja", url=f"{SITE}/ja/seq/",
                     source_file="i18n/ja/docusaurus-plugin-content-docs/current/seq.md")]

    @dataclass
    class Outline:
        pages: list
        default_locale: str = "en"

    outline = Outline(pages)
    item = {"gold_docs": ["seq.md"]}
    assert page_of_item(outline, "gold")(item) == f"{SITE}/seq/"
    assert page_of_item(outline, "next")(item) == f"{SITE}/qc/"
    assert page_of_item(outline, "next")({"gold_docs": ["qc.md"]}) == f"{SITE}/seq/"  # the last page: the one before
    assert page_of_item(outline, "next")({"gold_docs": ["qc.md", "seq.md"]}) == ""  # never a page that answers
    assert page_of_item(outline, None)(item) == "" and page_of_item(None, "gold")(item) == ""
    assert page_of_item(outline, "gold")({"gold_docs": ["gone.md"]}) == ""
    assert page_of_item(outline, "gold", "ja")(item) == f"{SITE}/ja/seq/"  # a translated set on its own pages


@settings(max_examples=200, deadline=None)
@given(url=st.text(max_size=200) | st.builds(lambda tail: f"http://localhost:3000/{tail}", st.text(max_size=80)))
def test_whatever_url_a_reader_sends_names_a_page_or_none(url):
    published = _Published(_Outline([_page("db.md"), _page("seq.md")]))
    found = ReaderPages(lambda _id: published).page(None, url)
    assert found is None or found.source_file in ("db.md", "seq.md")


def test_a_question_pointing_back_first_points_at_the_page_it_is_asked_on(retriever, embedder):
    """"結局どっちを使えばいいですか" (so which one should I use?), asked first on the page about
    undefined and null, was answered about require and import: it names nothing, the page does."""
    from datetime import datetime, timezone

    from server.question import Page, Question
    from server.question.understand import KnownBooks, Understand
    from server.sessions import Message

    book = BookVocabulary.from_texts(text for _, text in PASSAGES)
    understand = Understand(embedder, lambda _id: book, KnownBooks(lambda _id: 1), pages=retriever.pages)

    def searched(text: str, url: str = "", history=()) -> str:
        question = Question(text, max_chunks=3, similarity_threshold=0.3, page=Page(url=url))
        return understand(question, tuple(history)).search_text

    pointing = "so which one identifies the sample?"
    assert searched(pointing, f"{SITE}/seq/") == f"seq.md {pointing}"  # the page's title, then the question
    assert searched(pointing) == pointing  # asked on no page
    assert searched(pointing, f"{SITE}/qc/") == pointing  # a page that says none of its words points at nothing
    assert searched("which one should i use?", f"{SITE}/seq/") == "which one should i use?"  # names nothing
    assert searched("what identifies the sample in a read?", f"{SITE}/seq/") == "what identifies the sample in a read?"
    earlier = [Message(id="m1", role="user", content="what is an adapter?", timestamp=datetime.now(timezone.utc))]
    assert searched(pointing, f"{SITE}/seq/", earlier) == f"what is an adapter? {pointing}"  # the conversation first


def test_the_readers_page_weighs_in_what_the_answer_quotes():
    """Two passages saying the asked word alike, as near the question: the page's opens the answer."""
    from server.question.compose.extractive.answers import quoted_answer
    from server.question.context import Source

    first = _chunk(0, "db.md", "An index in sqlite is kept in a table of its own.").with_score(0.5)
    second = _chunk(2, "seq.md", "An index in an adapter is kept in a cycle of its own.").with_score(0.5)
    sources = [Source(first, "database"), Source(second, "database")]

    def before(text: str, a: str, b: str) -> bool:
        return a in text and (b not in text or text.index(a) < text.index(b))

    assert before(quoted_answer("what is the index kept in?", sources).text, "sqlite", "adapter")
    assert before(quoted_answer("what is the index kept in?", sources, page="seq.md").text, "adapter", "sqlite")


def test_a_short_question_naming_a_term_points_at_nothing_before_it(retriever, embedder):
    """"生成器是什么？" (what is a generator?) asked first on the generators page: it names its term,
    so the page's own definition answers it, not the page's title searched with it."""
    from server.question import Page, Question
    from server.question.understand import KnownBooks, Understand

    book = BookVocabulary.from_texts(text for _, text in PASSAGES + [("seq.md", "生成器是一种高效的创建迭代器的方式。")])
    understand = Understand(embedder, lambda _id: book, KnownBooks(lambda _id: 1), pages=retriever.pages)
    for text in ("生成器是什么？", "what is a cluster?"):
        question = Question(text, max_chunks=3, similarity_threshold=0.3, page=Page(url=f"{SITE}/seq/"))
        assert understand(question, ()).search_text == text

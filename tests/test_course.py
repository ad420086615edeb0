"""Questions about the book as a course, through /chat as the widget asks them: about the book,
a part, and the page the reader is on (sent as metadata.page_url, on any origin)."""
from __future__ import annotations

import re
import time

import pytest

from apps import make_app, make_settings

PAGE = "/book/docs/foundations/sampling-and-aliasing"


@pytest.fixture(scope="module")
def client(sample_book, tmp_path_factory):
    return make_app(sample_book, tmp_path_factory.mktemp("course") / "data").test_client()


def ask(client, question: str, page: str | None = PAGE, origin: str = "http://127.0.0.1:8000", **body) -> dict:
    metadata = {"page_url": origin + page} if page else {}
    response = client.post("/chat", json={"question": question, "metadata": metadata, **body})
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def cited(data: dict) -> list[str]:
    return [s["source_file"] for s in data["sources"]]


def test_what_the_book_is_about_comes_from_its_intro_cited(client):
    data = ask(client, "What is this book about?", page=None)
    assert data["status"] == "completed" and data["course"]["task"] == "overview"
    assert cited(data)[0] == "intro.md"
    assert "short, practical introduction" in data["answer"] and "[1]" in data["answer"]
    assert "Module 2: Practice" in data["answer"]


def test_summarize_this_page_on_any_origin(client):
    for origin in ("http://127.0.0.1:8000", "https://preview-42.example.net"):
        data = ask(client, "summarize this page", origin=origin)
        assert data["course"] == {"task": "summarize", "scope": "page",
                                  "page": "http://127.0.0.1:8000" + PAGE, "part": None}
        assert set(cited(data)) == {"01-foundations/01-sampling-and-aliasing.md"}
        assert "Nyquist" in data["answer"]  # a section's key point, not only its title


def test_contents_of_the_book_are_nested_links_in_reading_order(client):
    data = ask(client, "What chapters are in this book?", page=None)
    answer = data["answer"]
    assert data["course"]["task"] == "contents"
    foundations, practice = answer.index("Module 1: Foundations"), answer.index("Module 2: Practice")
    assert foundations < answer.index("](http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth)") < practice
    assert re.search(r"^  - \[Quantization and Bit Depth\]\(http", answer, re.MULTILINE)  # a page nested in its module


def test_whats_next_follows_the_reading_order(client):
    data = ask(client, "what should I read after this page?")
    assert data["course"]["task"] == "order"
    assert "Next: [Quantization and Bit Depth](http://127.0.0.1:8000/book/docs/foundations/quantization-and-bit-depth)" in data["answer"]
    assert "01-foundations/02-quantization.md" in cited(data)


def test_what_comes_before_is_the_previous_page_not_the_next(client):
    site = "http://127.0.0.1:8000/book/docs"
    data = ask(client, "what comes before this page?", page="/book/docs/foundations/quantization-and-bit-depth")
    assert data["course"]["task"] == "order" and data["course"]["scope"] == "page"
    lines = data["answer"].splitlines()
    assert f"- Before it: [Sampling]({site}/foundations/sampling-and-aliasing)" in [line.strip() for line in lines]
    assert any(line.startswith(f"- Next: [The DFT and FFT]({site}/practice/frequency-analysis)") for line in lines)
    before = next(line for line in lines if line.startswith("- Before it:"))
    assert "frequency-analysis" not in before and "DFT" not in before, data["answer"]
    # a part: the one before it in the book's order, never the one after it
    part = ask(client, "what comes before module 2?", page=None)
    assert part["course"]["part"] == "Module 2: Practice"
    assert f"- Before it comes [Module 1: Foundations]({site}/foundations/)" in part["answer"], part["answer"]


def test_a_named_part_is_found_by_its_number(client):
    data = ask(client, "what's in module 2?", page=None)
    assert data["course"]["part"] == "Module 2: Practice"
    assert "Digital Filters" in data["answer"] and "Sampling" not in data["answer"]
    assert all(f.startswith("02-practice/") for f in cited(data))


def test_locate_names_the_page_as_the_reader_sees_it(client):
    data = ask(client, "which chapter explains how to design a filter?", page=None)
    assert data["course"]["task"] == "locate"
    first = data["answer"].splitlines()[1]
    assert first.startswith("- [Module 2: Practice › Digital Filters")
    assert cited(data)[0] == "02-practice/02-digital-filters.mdx"


def test_locate_lists_its_places_best_match_first(client, monkeypatch):
    """The places are the pages of the book's search, in its order (best first), each named by
    its best passage: never the search's worst passages first."""
    from server.question.gather.retrieval import Retriever

    searched, retrieve = [], Retriever.retrieve

    def recorded(self, question, **options):
        found = retrieve(self, question, **options)
        searched.append((question, options, found))
        return found

    monkeypatch.setattr(Retriever, "retrieve", recorded)
    for question in ("which chapter explains how to design a filter?", "where does the book talk about bit depth?"):
        searched.clear()
        data = ask(client, question, page=None)
        assert data["course"]["task"] == "locate", question
        (found,) = [found for asked, options, found in searched if asked == question and options["max_chunks"] == 8]
        expected, pages = [], set()
        for chunk in found:
            if chunk.source_file not in pages and len(expected) < 3:
                pages.add(chunk.source_file)
                expected.append(chunk.url)
        listed = re.findall(r"^- \[.+?\]\((http[^)]+)\)", data["answer"], re.MULTILINE)
        assert len(found) > len(expected) >= 2 and listed == expected, (question, listed, expected)
        assert cited(data)[0] == found[0].source_file  # the best match cited first
    first = data["answer"].splitlines()[1]
    assert first.startswith("- [Module 1: Foundations › Quantization and Bit Depth › What quantization does]("), first


def test_quiz_then_the_answers_in_the_same_conversation(client):
    quiz = ask(client, "Quiz me on this page")
    assert quiz["course"]["task"] == "quiz"
    questions = re.findall(r"^\d+\. (.+)$", quiz["answer"], re.MULTILINE)
    assert len(questions) >= 2 and "show the answers" in quiz["answer"]
    answers = ask(client, "show the answers", session_id=quiz["session_id"])
    assert answers["course"]["task"] == "answers"
    for n, question in enumerate(questions, 1):
        assert f"{n}. {question}" in answers["answer"]
    assert answers["answer"].count("**") > len(questions) * 2 - 1  # each answer given, in bold
    # the answers were not in the quiz itself: per question, nothing of its answer is shown with it
    given = dict(re.findall(r"^(\d+)\. .+\n   \*\*(.+?)\*\*", answers["answer"], re.MULTILINE))
    assert sorted(given, key=int) == [str(n) for n in range(1, len(questions) + 1)], answers["answer"]
    blocks = re.split(r"^(?=\d+\. )", quiz["answer"].split("show the answers")[0], flags=re.MULTILINE)[1:]
    assert len(blocks) == len(questions), quiz["answer"]
    for n, block in enumerate(blocks, 1):
        shown = [line for line in block.splitlines()[1:] if line.strip() and not line.startswith("Ask ")]
        assert all(line.startswith("   - ") for line in shown), (n, block)  # only the question's own options
        answer = given[str(n)]
        for piece in (answer, answer[:40], answer[-40:]):
            assert piece not in block and piece not in quiz["answer"], (n, piece, quiz["answer"])


def test_a_page_the_index_does_not_hold_is_said_so(client):
    data = ask(client, "summarize this page", page="/book/docs/no-such-page")
    assert data["status"] == "refused" and "not in this book's index" in data["answer"]


def test_passage_and_off_topic_questions_keep_the_passage_path(client):
    passage = ask(client, "What is aliasing?")
    assert passage["course"] is None and passage["status"] == "completed"
    off_topic = ask(client, "is it going to rain this weekend?")
    assert off_topic["course"] is None and off_topic["status"] == "refused"


def test_a_page_moved_since_indexing_is_found_by_the_title_its_tab_shows(client):
    response = client.post("/chat", json={"question": "summarize this page", "metadata": {
        "page_url": "https://new-site.example.org/sampling/", "page_title": "Sampling | Signals and Systems Primer"}})
    data = response.get_json()
    assert data["status"] == "completed" and cited(data)[0] == "01-foundations/01-sampling-and-aliasing.md"


def _gemini_client(sample_book, tmp_path):
    from server.question.compose.extractive import ExtractiveGenerator
    from server.question.compose.fallback import WithFallback
    from server.question.compose.gemini import GeminiClient, GeminiGenerator

    gemini = {"gemini_api_key": "test-key", "gemini_timeout_s": 2.0, "gemini_model": "gemini-test-model"}
    settings = make_settings(tmp_path / "data", **gemini)
    generator = WithFallback(GeminiGenerator(settings, GeminiClient(settings, backoff_s=0.05)),
                             ExtractiveGenerator(sample_book.embedder), label="Gemini")
    return make_app(sample_book, tmp_path / "data", generator, **gemini).test_client()


def test_with_a_model_one_prompt_per_task_with_the_outline_and_the_same_citations(sample_book, tmp_path, fake):
    client = _gemini_client(sample_book, tmp_path)
    fake.script({"text": "Sampling [1] turns a signal into numbers; aliasing [1] is what goes wrong."})
    data = ask(client, "summarize this page")
    (sent,) = fake.requests
    assert "Summarize the page or part" in sent.system_text  # the task's own instruction
    assert "<outline>" in sent.user_text and "**Sampling**" in sent.user_text  # the outline, fenced as data
    assert '<passage n="1"' in sent.user_text and sent.user_text.rstrip().endswith("Question: summarize this page")
    assert data["generator"] == "gemini-test-model" and data["answer"].startswith("Sampling [1] turns")
    assert cited(data) and set(cited(data)) == {"01-foundations/01-sampling-and-aliasing.md"}

    fake.script({"text": "The primer [1] covers sampling and practice [2]."})
    ask(client, "What is this book about?", page=None)
    assert "Say what the book, part or page is about" in fake.requests[-1].system_text
    # a quiz is the book's own questions, word for word: no model rewords it (or gives its answers away)
    asked = len(fake.requests)
    quiz = ask(client, "quiz me on this page")
    assert len(fake.requests) == asked and quiz["generator"] == "extractive" and quiz["quiz"]["items"]


def test_when_the_model_fails_the_answer_from_the_structure_is_given(sample_book, tmp_path, fake):
    client = _gemini_client(sample_book, tmp_path)
    fake.script(*[{"status": 500}] * 6)
    data = ask(client, "what are the main sections on this page?")
    assert data["status"] == "completed" and data["fallback_reason"]
    assert data["generator"] == "extractive" and "covers:" in data["answer"]
    assert "](http://127.0.0.1:8000/book/docs/foundations/sampling-and-aliasing#" in data["answer"]


def test_objectives_the_part_states_are_listed_cited(tmp_path, embedder):
    import json as _json

    from server.library.published import PublishedOutlines
    from server.course.service import Course
    from server.ingest.indexer import ingest
    from server.ingest.site import detect_site
    from server.question import Question
    from server.question.gather.retrieval import Retriever
    from server.store import open_store

    docs = tmp_path / "docs"
    for n, topic in ((1, "Sensing"), (2, "Acting")):
        folder = docs / f"0{n}-{topic.lower()}"
        folder.mkdir(parents=True)
        (folder / "_category_.json").write_text(_json.dumps({"label": f"Module {n}: {topic}", "position": n}))
        (folder / "01-overview.md").write_text(
            f"# Module Overview\n\nThis module is about {topic.lower()} in robots, from first ideas to a working "
            f"example.\n\n## Learning Objectives\n\n- Explain {topic.lower()} to a friend\n- Build a small "
            f"{topic.lower()} example\n\n## Details\n\nMore about {topic.lower()} here, with care.\n")
    store = open_store(make_settings(tmp_path / "data"), embedder.model_name, embedder.dim)
    try:
        ingest(detect_site(docs), store, embedder, progress=False)
        # read again on every call here (it is kept 30 s in the product), in the background
        course = Course(PublishedOutlines(store, refresh_s=0.0), embedder, Retriever(store, embedder))
        question = "what will I be able to do after module 2?"
        request = course.read(Question(question, 5, 0.3), embedder.embed_query(question), ())
        assert (request.task, request.scope, request.part.number) == ("objectives", "part", 2)
        answer = course.answer(request, 0.3)
        assert "- Explain acting to a friend" in answer.text and "- Build a small acting example" in answer.text
        assert "sensing" not in answer.text.lower()
        assert [c.source_file for c in answer.sources] == ["02-acting/01-overview.md"]
        published = course.outlines.book(None)
        assert course.outlines.book(None) is published  # read again and unchanged: kept, with the pages it cites
        folder = docs / "03-seeing"
        folder.mkdir()
        (folder / "_category_.json").write_text(_json.dumps({"label": "Module 3: Seeing", "position": 3}))
        (folder / "01-overview.md").write_text("# Seeing\n\nThis module is about cameras in robots, from lenses "
                                               "to images a robot can read.\n")
        ingest(detect_site(docs), store, embedder, progress=False)
        deadline = time.monotonic() + 30
        while course.outlines.book(None) is published and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [part.number for part in course.outline(None).parts] == [1, 2, 3]
    finally:
        store.close()


def test_a_stale_book_is_answered_from_what_is_kept_while_it_is_read_again(sample_book):
    from server.library.published import PublishedOutlines

    class SlowStore:
        """The sample book's store, whose chunks take a while to read once it is let go."""
        def __init__(self, store):
            self.store, self.reads, self.go = store, 0, __import__("threading").Event()

        def __getattr__(self, name):
            return getattr(self.store, name)

        def all_chunks(self, book_id=None):
            self.reads += 1
            if self.reads > 1:
                self.go.wait(10)
            return self.store.all_chunks(book_id)

    slow = SlowStore(sample_book.store)
    outlines = PublishedOutlines(slow, refresh_s=0.0)
    first = outlines.book(None)
    started = time.monotonic()
    assert outlines.book(None) is first and time.monotonic() - started < 1  # not waiting for the read
    slow.go.set()
    deadline = time.monotonic() + 10
    while slow.reads < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert slow.reads == 2 and outlines.book(None) is first  # read again, unchanged: kept with its views

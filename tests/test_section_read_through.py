"""The section that answers, read under its own heading and no further: found asking the AIbook's
balance and actuator pages as a student (its sections are a heading, a line and a list or a code
block; a chunk holds several)."""
from __future__ import annotations

from places import CORPORA

from server.book.chunk import Chunk
from server.ingest.chunker import chunk_page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.question.compose.extractive.answers import quoted_answer
from server.question.compose.extractive.page_order import PageOrder
from server.question.context import Source
from server.question.judge.gate import admitted
from server.text.asked import asked_words


class _Published:
    def __init__(self, chunks):
        self.chunks = chunks

    def view(self, build):
        return build(self)


def _page(embedder, name: str) -> tuple[list[Chunk], PageOrder]:
    site = detect_site(CORPORA / "aibook" / "docs")
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith(name))
    chunks = chunk_page(page, book_id="aibook", book_title=site.title, count_tokens=embedder.count_tokens)
    return chunks, PageOrder(lambda book_id: _Published(chunks))


def test_a_section_read_on_into_is_scored_under_its_own_heading(embedder):
    """"what is MPC" on the balance page: the passage holding "### Model Predictive Control (MPC)" was
    read on into the next chunk, "Reactive Balance", whose list then stood under the MPC heading and
    answered; the MPC section's own line and code were never quoted (code nobody asked for). Now the
    list stands under its own heading, and the code a section named by what is asked opens with,
    after its lead-in, is that section's answer."""
    chunks, order = _page(embedder, "balance-control.md")
    opening = next(c for c in chunks if "Model Predictive Control" in c.content)
    assert any("Quick reflexes" in c.content for c in order.after(opening))  # read on into it
    answer = quoted_answer("what is MPC", [Source(opening.with_score(0.47), "database")], following=order.after)
    assert answer.text.startswith("**Model Predictive Control (MPC)**\n\nPlan footsteps and balance ahead of time:"), \
        answer.text
    assert "def mpc_balance_control" in answer.text
    # the section's heading, not the sibling after it: "Reactive Balance" is no part of the answer
    assert "Quick reflexes" not in answer.text and "Reactive Balance" not in answer.text, answer.text


def test_an_opening_is_read_under_its_heading_not_on_into_its_siblings(embedder):
    """"explain this" of "Need electronic commutation" (a line of the "Brushless DC (BLDC)" list) was
    answered with that list, then the Servo and Stepper lists after it: three sections of
    "Electric Motors" read as one. The opening's heading is read through, with its subsections only."""
    chunks, order = _page(embedder, "actuators-motors.md")
    holding = next(c for c in chunks if "Need electronic commutation" in c.content)
    answer = quoted_answer("explain Need electronic commutation", [Source(holding.with_score(0.3), "database")],
                           following=order.after)
    assert answer.text.startswith("**Brushless DC (BLDC)**"), answer.text
    assert "Need electronic commutation" in answer.text
    assert "Servo" not in answer.text and "Stepper" not in answer.text, answer.text


def test_a_request_word_is_not_what_is_asked_about():
    """A highlighted term asked about with the book becomes "explain Need electronic commutation";
    the gate held the book's passages to "explain" too, found it in none and refused, though the
    passage holding the phrase was right there (0.298, just under the threshold)."""
    assert asked_words("explain Need electronic commutation") == {"electronic", "commutation"}
    assert asked_words("can you elaborate on and clarify backpropagation") == {"backpropagation"}
    passage = Chunk(chunk_id="m", book_id="b", book_title="B", score=0.298, heading="Actuators & Motors",
                    content="### Brushless DC (BLDC)\n\nThe modern standard:\n\n- More efficient\n- Longer life\n"
                            "- Need electronic commutation", content_hash="", source_file="f.md", url="", module="",
                    chapter="", section="", section_hierarchy=["Actuators & Motors"], page=0, source_location="",
                    citation="", file_hash="", position=0)
    assert admitted("explain Need electronic commutation", [passage], 0.3, unknown_terms=[], model_judges=False,
                    about_a_passage=True) == [passage]


def test_a_short_list_is_read_from_its_first_item_to_the_one_asked(embedder):
    """"why is balancing harder for a humanoid than a wheeled robot" opened on "- Walking on uneven
    terrain? Even harder", the last item of its list, without the two it is harder than."""
    chunks, order = _page(embedder, "chapter-01-introduction/index.md")
    holding = next(c for c in chunks if "Even harder" in c.content)
    answer = quoted_answer("why is balancing harder for a humanoid than a wheeled robot",
                           [Source(holding.with_score(0.57), "database")], following=order.after)
    assert "- Bipedal walking is inherently unstable\n- Must constantly adjust to stay upright\n" \
           "- Walking on uneven terrain? Even harder" in answer.text, answer.text


def test_what_the_opening_heading_says_is_not_fetched_from_another_section(embedder):
    """"what is a servo motor": the "Servo Motors" section answers ("Motor + Gearbox + Controller: …");
    the selection table was added for "servo" ("Small servos"), which the opening's heading says."""
    chunks, order = _page(embedder, "actuators-motors.md")
    servo = next(c for c in chunks if c.heading == "Servo Motors")
    sources = [Source(servo.with_score(0.55), "database"), Source(chunks[0].with_score(0.45), "database")]
    answer = quoted_answer("what is a servo motor", sources, following=order.after)
    assert answer.text.startswith("**Servo Motors**\n\nMotor + Gearbox + Controller:"), answer.text
    assert "Best Choice" not in answer.text, answer.text

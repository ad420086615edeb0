"""A student on the robotics book's "Nav2 Path Planning" page. What they met: "what are the challenges of
using isaac ros with nav2?" quoted the list of challenges from its second item ("2. Integration
Complexity", "3. Calibration"), without "1. Hardware Requirements: Isaac ROS components require NVIDIA GPUs"
(the second said "Isaac ROS with Nav2" as the question does, and opened the answer). A list quoted as a
list, two items or more, is read from its first item; one entry asked by name is quoted alone."""
from __future__ import annotations

from places import PHYSICAL_AI
from server.question.compose.extractive.answer_units import units_of
from server.question.compose.extractive.thought import in_a_row

PAGE = (PHYSICAL_AI / "03-module-nvidia-isaac" / "03-nav2-path-planning.md").read_text(encoding="utf-8")


def _items(title: str) -> dict[tuple, object]:
    start = PAGE.index(title)
    units = units_of(PAGE[start:PAGE.find("\n## ", start + len(title))], 1, "prose")
    return {u.key: u for u in units if u.kind == "item"}


def _quoted(chosen: dict) -> list[str]:
    return [u.text.split("**")[1] for u in sorted(chosen.values(), key=lambda u: u.key)]


def test_a_list_quoted_as_a_list_is_read_from_its_first_item():
    items = _items("## Challenges and Considerations")
    chosen = {k: u for k, u in items.items() if "Integration Complexity" in u.text or "Calibration" in u.text}
    assert _quoted(in_a_row(chosen, items)) == ["Hardware Requirements", "Integration Complexity", "Calibration"]


def test_one_entry_is_quoted_alone_and_the_entries_between_two_quoted_ones_with_them():
    items = _items("## Challenges and Considerations")
    calibration = {k: u for k, u in items.items() if "Calibration" in u.text}
    assert _quoted(in_a_row(calibration, items)) == ["Calibration"]
    ends = {k: u for k, u in items.items() if "Hardware" in u.text or "Calibration" in u.text}
    assert _quoted(in_a_row(ends, items)) == ["Hardware Requirements", "Integration Complexity", "Calibration"]


def _source(title: str, score: float):
    from server.book.chunk import Chunk
    from server.question.context import Source
    start = PAGE.index(title)
    text = PAGE[start:PAGE.find("\n## ", start + len(title))]
    heading = text.splitlines()[0].lstrip("# ")
    chunk = Chunk(chunk_id=f"c-{heading}", book_id="robox", book_title="RoboX", content=text, content_hash="",
                  source_file="nav2.md", url="https://x/nav2", module="", chapter="", section="", heading=heading,
                  section_hierarchy=[heading], page=0, source_location="", citation="", file_hash="", embed_text=text,
                  page_key="nav2.md", position=0, locale="en", score=score)
    return Source(chunk, "database")


def test_a_list_longer_than_an_answer_opens_it_cut_to_the_items_asked():
    """"what does AMCL do?": Nav2's list of components (longer than an answer) says what AMCL does and
    spells it out; it opens the answer, cut to that item, over a short list naming AMCL in passing."""
    from server.question.compose.extractive.answers import quoted_answer
    answer = quoted_answer("what does AMCL do?", [_source("## Integrating Isaac ROS", 0.37),
                                                  _source("## Understanding the ROS 2", 0.46)]).text
    assert answer.startswith("**Understanding the ROS 2") and "Determines the robot's pose" in answer, answer
    assert "Controller" not in answer.split("**Integrating")[0], answer

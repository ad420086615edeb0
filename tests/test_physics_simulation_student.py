"""A student on the robotics book's physics-simulation page (physical-ai-book, "Physics Simulation in
Gazebo"). What they met: "what is restitution" was refused as a term the book mentions without saying
what it is, though an item of its parameters list says it ("**Restitution**: … Defines how "bouncy" a
collision is", test_gate.py); "whats the difference between ODE and DART" quoted all four engines of
the list."""
from __future__ import annotations

from book_pages import passage, section
from places import CORPORA
from server.question.compose.extractive.answers import quoted_answer
from server.question.context import Source

PAGE = (CORPORA / "physical-ai-book" / "docs" / "02-module-digital-twin" / "02-physics-simulation.md").read_text(
    encoding="utf-8")


def _section(title: str) -> str:
    return section(PAGE, title)


def _source(text: str, heading: str, score: float) -> Source:
    return passage(text, heading, score, file="physics.md", hierarchy=["Physics Simulation in Gazebo", heading])


def test_two_compared_entries_of_a_list_are_quoted_without_the_others():
    engines = _source(_section("## Gazebo's Physics Engines"), "Gazebo's Physics Engines", 0.6)
    answer = quoted_answer("whats the difference between ODE and DART", [engines]).text
    assert "**ODE (Open Dynamics Engine)**" in answer and "**DART (Dynamic Animation" in answer, answer
    assert "Bullet" not in answer and "Simbody" not in answer, answer
    # asked of one of them, the list answers as before
    assert "Bullet" in quoted_answer("which physics engines can gazebo use", [engines]).text


def test_a_term_defined_by_its_item_is_answered_with_the_item_alone():
    parameters = _section("## Physics Configuration Parameters")
    # the index cut the section inside the gravity item: its chunk opens on the item's last sentence
    chunk = parameters[parameters.index("By default, it's typically set"):]
    answer = quoted_answer("what is restitution", [_source(chunk, "Physics Configuration Parameters", 0.075)]).text
    assert '**Restitution**: (`<surface><bounce>`) Defines how "bouncy" a collision is' in answer, answer
    assert "Friction" not in answer and "Contact Parameters" not in answer, answer

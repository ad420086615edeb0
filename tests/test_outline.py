"""The book's outline, built at ingest and published with the index: parts in the reader's
order, pages with their place, neighbours, description and blocks."""
from __future__ import annotations

import json

from click.testing import CliRunner

from places import RUST_BOOK
from server.cli import main
from server.ingest.outline import build_outline
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site
from server.book.outline import Outline
from server.store import open_store


def _outline(book) -> Outline:
    return Outline.from_dict(book.store.outline(book.report.book_id))


def test_parts_follow_the_sidebar_and_pages_chain_in_reading_order(physical_ai):
    outline = _outline(physical_ai)
    assert [p.name for p in outline.parts][:4] == [
        "Module 1: The Robotic Nervous System (ROS 2)", "Module 2: The Digital Twin (Gazebo & Unity)",
        "Module 3: The AI-Robot Brain (NVIDIA Isaac)", "Module 4: Vision-Language-Action (VLA)"]
    assert [(p.noun, p.number) for p in outline.parts[:2]] == [("module", 1), ("module", 2)]
    assert outline.intro().source_file == "intro.md" and outline.intro().part is None
    # prev/next walk the whole book in order, both ways
    page, seen = outline.intro(), []
    while page is not None:
        seen.append(page.key)
        page = outline.page(page.next)
    assert seen == [p.key for p in outline.pages]
    assert all(outline.page(p.next).prev == p.key for p in outline.pages if p.next)
    physics = outline.page("02-module-digital-twin/02-physics-simulation.md")
    assert (outline.part_of(physics).number, physics.position) == (2, 2)
    assert physics.description and physics.sections[0].key_point


def test_a_quiz_page_keeps_its_questions_and_the_books_answers(physical_ai):
    quiz = _outline(physical_ai).page("03-module-nvidia-isaac/quizzes/04-quiz-reinforcement-learning.md")
    (block,) = quiz.blocks_of("quiz")
    assert len(block.items) >= 4 and "maximize" in block.items[0]
    assert block.answers[0].startswith("b) The cumulative reward signal")


def test_the_outline_is_published_with_the_index_and_read_by_other_processes(physical_ai):
    reader = open_store(physical_ai.settings, physical_ai.embedder.model_name, physical_ai.embedder.dim)
    try:
        assert reader.outline(physical_ai.report.book_id) == physical_ai.store.outline(physical_ai.report.book_id)
        assert reader.outline("no-such-book") is None
    finally:
        reader.close()


def test_pages_json_shows_part_position_neighbours_and_description(physical_ai, monkeypatch):
    monkeypatch.setenv("TEXTBOOK_CHAT_DATA_DIR", str(physical_ai.settings.data_dir))
    result = CliRunner().invoke(main, ["pages", "--json"])
    assert result.exit_code == 0, result.output
    pages = {p["source_file"]: p for p in json.loads(result.stdout)}
    nodes = pages["01-module-ros/02-nodes-topics-services.md"]
    assert nodes["part"] == "Module 1: The Robotic Nervous System (ROS 2)" and nodes["position"] == 2
    assert nodes["prev"] == pages["01-module-ros/01-intro-to-ros2.md"]["url"]
    assert nodes["next"] == pages["01-module-ros/03-rclpy-integration.md"]["url"]
    assert nodes["description"].startswith("In the world of the Robotic Operating System 2")


def test_an_mdbook_outline_numbers_its_chapters_as_the_reader_sees_them():
    site = detect_site(RUST_BOOK)
    outline = build_outline(site, discover_pages(site).pages, "rust")
    lifetimes = outline.page("ch10-03-lifetime-syntax.md")
    assert lifetimes.name == "10.3. Validating References with Lifetimes"
    chapter = outline.part_of(lifetimes)
    assert chapter.name == "Chapter 10: Generic Types, Traits, and Lifetimes"
    assert outline.page(chapter.index_page).source_file == "ch10-00-generics.md"
    assert outline.page("ch00-00-introduction.md").part is None  # before the numbered chapters


def test_a_label_repeated_across_parts_is_qualified_by_its_part(tmp_path):
    docs = tmp_path / "docs"
    for n, topic in ((1, "Sensing"), (2, "Acting")):
        folder = docs / f"0{n}-{topic.lower()}"
        folder.mkdir(parents=True)
        (folder / "_category_.json").write_text(json.dumps({"label": f"Module {n}: {topic}", "position": n}))
        (folder / "01-overview.md").write_text(
            f"# Module Overview\n\nThis module is about {topic.lower()} in robots.\n\n"
            "## Learning Objectives\n\n- Explain the idea\n- Build a small example\n\n## Details\n\nMore text here.\n")
        (folder / "02-more.md").write_text(f"# {topic} in depth\n\nA closer look at {topic.lower()}, step by step.\n")
    site = detect_site(docs)
    outline = build_outline(site, discover_pages(site).pages, "t")
    overview = outline.page("02-acting/01-overview.md")
    assert overview.name == "Module 2: Acting › Module Overview"
    assert outline.part_of(overview).index_page == overview.key  # the page every part opens with
    assert overview.blocks_of("objectives")[0].items == ("Explain the idea", "Build a small example")
    assert outline.page("02-acting/02-more.md").name == "Acting in depth"


def test_a_list_of_facts_is_no_exercise_and_only_prompts_are_practice(tmp_path):
    """'… in Practice' applies a topic; its 'label: value' lines are never offered as questions."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "arm.md").write_text(
        "# Arm Dynamics\n\nThe arm is modelled link by link.\n\n"
        "## Dynamics in Practice\n\n- Robot mass: 60 kg\n- Upper arm length: 0.4 m\n"
        "- services_default_qos: Reliable communication for services\n\n"
        "## Exercises\n\n- Robot mass: 60 kg\n- Task 1: Compute the torque at the elbow for a 2 kg load\n"
        "- Why does the shoulder need the largest motor?\n")
    site = detect_site(docs)
    page = build_outline(site, discover_pages(site).pages, "t").page("arm.md")
    assert page.blocks_of("exercises")[0].items == (
        "Task 1: Compute the torque at the elbow for a 2 kg load", "Why does the shoulder need the largest motor?")
    assert len(page.blocks_of("exercises")) == 1 and not page.blocks_of("quiz")


def test_a_sidebar_generated_from_a_folder_with_its_own_index_page(tmp_path):
    """Each sidebar autogenerated from one folder (`dirName: 'bioinformatics'`), the folder's
    index page included: its breadcrumbs are its own label (it was an IndexError)."""
    (tmp_path / "docusaurus.config.js").write_text(
        "module.exports = { title: 'T', projectName: 't', baseUrl: '/', url: 'https://t.example' };\n")
    (tmp_path / "sidebars.js").write_text(
        "module.exports = { a: [{ type: 'autogenerated', dirName: 'bioinformatics' }],\n"
        "  b: [{ type: 'autogenerated', dirName: 'programming' }] };\n")
    for folder in ("bioinformatics", "programming"):
        docs = tmp_path / "docs" / folder
        docs.mkdir(parents=True)
        (docs / "index.md").write_text(f"# {folder.title()}\n\nWhat {folder} is about, in a sentence or two.\n")
        (docs / "first.md").write_text(f"# First steps in {folder}\n\nThe first steps, one by one.\n")
    site = detect_site(tmp_path)
    pages = {p.source_file: p for p in discover_pages(site).pages}
    assert pages["bioinformatics/index.md"].labels == ["Bioinformatics"]
    assert pages["programming/first.md"].labels[-1] == "First steps in programming"


def test_an_mdbook_linking_its_chapters_with_dot_slash_names_them_plainly(tmp_path):
    """SUMMARY.md's "./03-html/a.md" is the file "03-html/a.md": the name question sets and
    readers use, and the one its chapter numbers are found by."""
    src = tmp_path / "src"
    (src / "03-html").mkdir(parents=True)
    (tmp_path / "book.toml").write_text('[book]\ntitle = "T"\n')
    (src / "SUMMARY.md").write_text("# Summary\n\n- [Intro](./intro.md)\n- [HTML](./03-html.md)\n"
                                    "  - [Escaping](./03-html/a.md)\n")
    (src / "intro.md").write_text("# Intro\n\nWhy this book exists, in two sentences. It is short.\n")
    (src / "03-html.md").write_text("# HTML\n\nWhat HTML is, briefly and plainly.\n")
    (src / "03-html" / "a.md").write_text("# Escaping\n\nCharacters like < are escaped as &lt; in HTML.\n")
    site = detect_site(tmp_path)
    pages = discover_pages(site).pages
    assert [p.source_file for p in pages] == ["intro.md", "03-html.md", "03-html/a.md"]
    assert build_outline(site, pages, "t").page("03-html/a.md").name.startswith("2.1. ")


def test_a_heading_keeps_what_is_no_tag():
    """lhbg's "explain this page" named the section "fmap and <$>" "fmap and"."""
    from places import CORPORA
    from server.ingest.anchors import rendered_text

    site = detect_site(CORPORA / "lhbg" / "src")
    pages = [p for p in discover_pages(site).pages if p.source_file == "05-glue/02-io.md"]
    (page,) = build_outline(site, pages, "lhbg").pages
    sections = {s.heading: s for s in page.sections}
    assert "fmap and <$>" in sections
    assert rendered_text("A <span class=\"x\">b</span> `<link>`") == "A b <link>"  # tags still go

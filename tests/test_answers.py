"""Extractive answers keep the book's structure: whole blocks as written (lists, tables, code),
cited; code when the question asks for it; quizzes and reading lists only when asked."""
from __future__ import annotations

import re

import pytest
from dataclasses import replace

from places import CORPORA, PHYSICAL_AI, RUST_BOOK
from server.evaluation.measures import answer_words
from server.book.chunk import Chunk
from server.question.compose.extractive.answers import block_answer
from hypothesis import given, settings
from hypothesis import strategies as st

from server.text.blocks import Block, split_blocks
from server.text.asked import asked_words
from server.text.vocabulary import words
from server.question.compose.extractive.answer_units import units_of
from server.question.compose.extractive.pointing import points_above
from server.question.context import HighlightedPassage, Source
from server.question.compose.extractive.continuation import read_on
from server.question.compose.extractive.page_order import PageOrder
from server.ingest.clean import clean_markdown
from server.ingest.chunker import chunk_page
from server.ingest.pages import discover_pages
from server.ingest.site import detect_site

PAGE = """## Installing

To install the toolchain, run the installer script and restart the shell afterwards.

```bash
curl --proto '=https' -sSf https://sh.rustup.rs | sh
```

The installer sets up three tools:

- `rustc`, the compiler
- `cargo`, the build tool and package manager
- `rustup`, which updates both

| tool | role |
|---|---|
| rustc | compiles |
| cargo | builds |

## Quiz

1. Which tool builds a project?
   A) rustc
   B) cargo

## Further reading

- [The Cargo Book](https://doc.rust-lang.org/cargo/)
- [Rustup docs](https://rust-lang.github.io/rustup/)
"""


def _source(text: str, score: float = 0.6, chunk_id: str = "c") -> Source:
    chunk = Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                  url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                  source_location="", citation="", file_hash="", score=score)
    return Source(chunk, "database")


def test_a_page_splits_into_the_blocks_it_was_written_in():
    kinds = [(b.kind, b.material) for b in split_blocks(PAGE)]
    assert kinds == [("heading", "prose"), ("paragraph", "prose"), ("code", "code"), ("paragraph", "prose"),
                     ("list", "prose"), ("table", "prose"), ("heading", "quiz"), ("list", "quiz"),
                     ("heading", "references"), ("list", "references")]
    code = split_blocks(PAGE)[2].text
    assert code.startswith("```bash") and code.endswith("```")


def test_a_quoted_note_is_read_as_its_headings_paragraphs_and_code():
    """The Haskell book's note on `$` quotes a heading and code: read as one quoted paragraph, its
    answer had been "> > The dollar sign …" and "So that: hs Html.ul_ $ map Html.p_ list is …"."""
    page = ("## Operators\n\n> #### What are these `$`?\n>\n> The dollar sign groups expressions.\n"
            "> So that:\n>\n> ```hs\n> Html.ul_ $ map Html.p_ list\n> ```\n>\n"
            "> It is a function application operator.\n\n```org\n> main = putStrLn \"x\"\n```\n\n> > A nested quote.")
    assert [(b.kind, b.text) for b in split_blocks(page)] == [
        ("heading", "## Operators"), ("heading", "#### What are these `$`?"),
        ("paragraph", "The dollar sign groups expressions.\nSo that:"),
        ("code", "```hs\nHtml.ul_ $ map Html.p_ list\n```"), ("paragraph", "It is a function application operator."),
        ("code", "```org\n> main = putStrLn \"x\"\n```"), ("paragraph", "A nested quote.")]


@given(st.lists(st.sampled_from(["> ", ">", "```", "```hs", "> ```", "> a note", "text", "- item", "# Head", ""]),
                max_size=30))
def test_reading_quoted_code_loses_no_word_of_the_page(lines):
    page = "\n".join(lines)
    assert sorted(words(" ".join(b.text for b in split_blocks(page)))) == sorted(words(page))


def test_code_a_passage_leaves_open_is_closed_and_its_citation_stands_after_it():
    """A genomics course's page leaves a fence open, so the rest of the page is its code: quoted, the
    code swallowed the answer's "[4]", and the source went unlisted."""
    page = "## Pipes\n\nPipe the output of one command into another with `|`:\n\n```\n% cat myfiles.txt | wc -l\n"
    assert split_blocks(page)[-1].text == "```\n% cat myfiles.txt | wc -l\n```"
    answer = block_answer("how do i pipe the output of one command into another command?", [_source(page)])
    assert answer.count("```") == 2 and answer.rstrip().endswith("```\n\n[1]"), answer


def test_code_is_quoted_whole_when_the_question_asks_for_a_command():
    answer = block_answer("what command installs the toolchain?", [_source(PAGE)])
    assert "```bash\ncurl --proto '=https' -sSf https://sh.rustup.rs | sh\n```" in answer
    assert "[1]" in answer


def test_a_list_keeps_its_items_and_quizzes_and_reading_lists_stay_out():
    answer = block_answer("which tools does the installer set up: compiler, build tool, updates?", [_source(PAGE)],
                          "detailed")
    assert "- `cargo`, the build tool and package manager" in answer
    assert "A) rustc" not in answer and "Cargo Book" not in answer and "```" not in answer


def test_a_reading_list_is_quoted_when_asked_for():
    answer = block_answer("any further reading links about cargo and rustup?", [_source(PAGE)])
    assert "[The Cargo Book](https://doc.rust-lang.org/cargo/)" in answer


def test_passages_of_only_exercises_and_code_are_still_quoted():
    page = "## Practice exercises\n\n1. Compute the pose of a two-link arm.\n2. Solve for its joint angles.\n"
    answer = block_answer("how do i find the joint angles for a point?", [_source(page)])
    assert "Solve for its joint angles" in answer and "[1]" in answer


# --- real book pages: a piece keeps what it depends on -------------------------------------------

def _section(path, heading: str) -> str:
    """The section of a book page under `heading`, as its chunk would hold it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip("#").strip() == heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")
                and len(lines[i]) - len(lines[i].lstrip("#")) <= len(lines[start]) - len(lines[start].lstrip("#"))),
               len(lines))
    return "\n".join(lines[start:end])


def test_a_lead_in_keeps_the_nested_list_it_introduces_and_the_nesting():
    page = PHYSICAL_AI / "03-module-nvidia-isaac" / "01-isaac-sim-intro.md"
    text = _section(page, "Advantages for AI-Driven Robotics Development (especially Humanoids)")
    answer = block_answer("what advantages does isaac sim give for training humanoids?", [_source(text)])
    lead = "Isaac Sim provides several key advantages for Physical AI and humanoid robotics:"
    assert lead in answer
    after = answer.split(lead, 1)[1]
    # the list follows its lead-in, its sub-items indented under their item as the book wrote them
    assert after.lstrip("\n").startswith("*   **Accelerated AI Training**:")
    assert "\n    *   **Synthetic Data**:" in after and "\n    *   **Reinforcement Learning (RL)**:" in after


def test_a_lead_in_keeps_its_code_block():
    page = PHYSICAL_AI / "01-module-ros" / "03-rclpy-integration.md"
    text = _section(page, "3. Creating a Subscriber")
    answer = block_answer("how do i write a subscriber node in python code?", [_source(text)])
    lead = "To subscribe to messages, a node needs to create a subscriber:"
    assert lead in answer
    assert answer.split(lead, 1)[1].lstrip("\n").startswith("```python\nimport rclpy")


def test_a_lead_in_whose_block_the_passage_does_not_hold_is_not_quoted():
    answer = block_answer("how do robots balance when they walk?", [_source(
        "Balance is kept by moving the centre of mass over the feet at every step of the gait. "
        "The controller computes it as follows:")])
    assert "as follows" not in answer and "Balance is kept" in answer


def test_a_formula_stays_with_its_lead_in():
    answer = block_answer("how is the capture point calculated?", [_source(
        "The capture point tells a walking robot where to step to come to a stop. It's calculated as:\n\n"
        "$$\nx_{cp} = x + \\dot{x} \\sqrt{z / g}\n$$\n\nwhere z is the height of the centre of mass.")])
    assert "It's calculated as:\n\n$$\nx_{cp} = x + \\dot{x} \\sqrt{z / g}\n$$" in answer


def test_quiz_questions_and_options_are_not_answers():
    answer = block_answer("what does the robot_state_publisher node do?", [_source(
        "## Question 4\n\nWhat ROS 2 node typically reads the URDF file and broadcasts the TF transforms?\n\n"
        "a) `joint_state_publisher`\nb) `robot_state_publisher`\n", 0.7), _source(
        "## robot_state_publisher\n\nThis ROS 2 package reads the URDF file and the current joint states and "
        "broadcasts the robot's full kinematic state over the `/tf` topic.", 0.5)])
    assert "[2]" in answer and "[1]" not in answer and "?" not in answer
    assert answer.startswith("**robot_state_publisher**")  # what "This ROS 2 package" is


# --- a passage read on into the chunks after it on its page ----------------------------------------

def _cut(text: str, line: str, joiner: str = "\n\n") -> tuple[str, str]:
    """Two chunks of `text` cut after `line` the way the chunker cuts a long wrapped paragraph:
    the second opens with the cut line again (its overlap), then the rest of the paragraph (after
    a blank line in indexes chunked before the paragraph ran on from its overlap)."""
    before, after = text.split(line + "\n", 1)
    return before + line, f"{line}{joiner}{after}"


@pytest.mark.parametrize("joiner", ["\n\n", "\n"])
def test_a_sentence_cut_between_two_chunks_is_read_whole(joiner):
    page = (RUST_BOOK / "src" / "ch08-03-hash-maps.md").read_text(encoding="utf-8")
    section = page.split("#### Adding a Key and Value Only If a Key Isn’t Present", 1)[1].split("####", 1)[0]
    first, second = _cut(section, "The `or_insert` method on `Entry` is defined to return a mutable reference to",
                         joiner)
    alone = block_answer("what does or_insert return?", [_source(first)])
    assert "mutable reference to the value" not in alone  # the sentence is cut: never quoted half
    following = {"c": [_source(second, chunk_id="d").chunk]}
    answer = block_answer("what does or_insert return?", [_source(first)],
                          following=lambda chunk: following.get(chunk.chunk_id, []))
    assert ("The `or_insert` method on `Entry` is defined to return a mutable reference to the value for the "
            "corresponding `Entry` key if that key exists") in " ".join(answer.split())
    assert answer.count("The `or_insert` method on") == 1  # the overlap is not read twice
    read = " ".join(read_on(_source(first).chunk, [_source(second, chunk_id="d").chunk]).split())
    assert read.count("The `or_insert` method on") == 1 and " ".join(section.split()) in read
    assert read_on(_source(first).chunk, []) == first


def test_pieces_come_from_every_passage_that_answers():
    page = PHYSICAL_AI / "03-module-nvidia-isaac" / "04-reinforcement-learning.md"
    limits = _section(page, "Why Simulation Environments are Critical for RL in Robotics")
    opening = "Reinforcement Learning (RL) has emerged as a powerful paradigm for training robots"
    answer = block_answer("why train reinforcement learning in simulation instead of on real robots? safety?",
                          [_source(page.read_text(encoding="utf-8").split("## Fundamentals")[0], 0.567),
                           _source(limits, 0.553)])  # their similarities when the book is asked this
    assert opening in answer and "[1]" in answer
    assert "**Safety**: Robots can be damaged" in answer and "[2]" in answer


def test_the_chunks_after_a_passage_are_its_pages_next_ones(sample_book):
    chunks = sample_book.store.all_chunks()
    pages: dict[str, list] = {}
    for chunk in chunks:
        pages.setdefault(chunk.page_key or chunk.source_file, []).append(chunk)
    page = sorted(max(pages.values(), key=len), key=lambda c: c.position)
    assert len(page) >= 3
    order = PageOrder(sample_book.index.book, count=2)
    assert [c.chunk_id for c in order.after(page[0])] == [c.chunk_id for c in page[1:3]]
    assert order.after(page[-1]) == []


def test_a_name_and_its_number_are_one_word_whichever_way_they_are_written():
    ros = PHYSICAL_AI / "01-module-ros"
    advantages = _section(ros / "01-intro-to-ros2.md", "Advantages of ROS 2 over ROS 1")
    package = _section(ros / "intro-to-ros2-personalized.mdx", "1. Create a ROS 2 Package")
    answer = block_answer("why would i use ros2 instead of ros1?", [_source(advantages, 0.65), _source(package, 0.6)])
    assert "**Security**: DDS provides built-in security features" in answer and "[1]" in answer
    assert "ros2 pkg create" not in answer


def test_a_question_about_a_highlighted_passage_reads_the_passage_on_in_its_order():
    page = PHYSICAL_AI / "01-module-ros" / "02-nodes-topics-services.md"
    highlighted = " ".join(_section(page, "Conclusion").splitlines()[1:]).strip()
    assert highlighted.startswith("Nodes, Topics, and Services are the fundamental building blocks")
    answer = block_answer("what's the difference between the two ways of talking mentioned here?",
                          [Source(HighlightedPassage(0, highlighted, 0.5), "selected_text")])
    assert "Topics facilitate continuous data streams in an asynchronous manner" in answer
    assert answer.index("fundamental building blocks") < answer.index("Topics facilitate")


@settings(deadline=None)  # the first question loads the word tables
@given(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), min_size=1, max_size=20),
       st.sampled_from(["what is {0}?", "what does {0} mean?", "difference between {0} and traits?", "{0} vs trait",
                        "{0}とは？", "什么是{0}？"]))
def test_a_term_asked_of_a_highlight_is_answered_from_it(term, form):
    """"what is a trait?" on a highlight looked for the section named by the term in the highlight, which
    has none, and the answer failed."""
    highlighted = "A trait defines shared behaviour. Traits are like interfaces."
    answer = block_answer(form.format(term), [Source(HighlightedPassage(0, highlighted, 0.5), "selected_text")])
    assert "[1]" in answer


def test_a_short_identifier_with_a_digit_is_an_asked_word():
    src = RUST_BOOK / "src"
    move = _section(src / "ch04-01-what-is-ownership.md", "Variables and Data Interacting with Move")
    indexing = _section(src / "ch08-02-strings.md", "Indexing into Strings")
    answer = block_answer("why do i get an error using s1 after let s2 = s1; when s1 is a String?",
                          [_source(indexing, 0.51), _source(move, 0.48)])
    assert "Rust considers `s1` as no longer valid" in answer and "[2]" in answer


def test_a_short_term_is_an_asked_word_and_english_short_words_are_not():
    """"when should i use Box?" asks about boxes: a three-letter name is what the question asks,
    as "PCA" or "LD" would be; "use" is not."""
    from server.text.asked import short_terms

    src = RUST_BOOK / "src"
    heap = _section(src / "ch04-01-what-is-ownership.md", "Memory and Allocation")
    box = _section(src / "ch15-01-box.md", "Using `Box<T>` to Point to Data on the Heap")
    answer = block_answer("when should i use Box?", [_source(heap, 0.55, "a"), _source(box, 0.50, "b")])
    assert answer.lstrip().startswith("**Using `Box<T>`") and "smart pointer is a box" in answer, answer
    assert short_terms("how do i do LD pruning before pca?") == {"ld", "pca"}
    assert short_terms("how do i use the new way to get it?") == set()
    assert short_terms("¿Qué es un Mock con MockK?") == set()  # a Spanish question's short words are no terms
    assert short_terms("Isaac Sim چلانے کے لیے کم از کم کون سا GPU چاہیے؟") == {"sim", "gpu"}  # Urdu has no capitals


def test_a_short_term_is_said_where_it_stands_alone_not_inside_a_name():
    """"String and &str": the `str` of `push_str` is no answer to it, in the text or the heading."""
    src = RUST_BOOK / "src"
    appending = _section(src / "ch08-02-strings.md", "Appending with `push_str` or `push`")
    defining = _section(src / "ch08-02-strings.md", "Defining Strings")
    answer = block_answer("whats the difference between String and &str",
                          [_source(appending, 0.52, "a"), _source(defining, 0.50, "b")])
    assert answer.lstrip().startswith("**Defining Strings**"), answer


def test_a_sentence_comes_with_the_next_when_that_says_how_it_is_done():
    """"… but we have to explicitly opt in to make that functionality available for our struct.
    To do that, we add the outer attribute `#[derive(Debug)]` …": the how comes with it."""
    section = _section(RUST_BOOK / "src" / "ch05-02-example-structs.md", "Adding Functionality with Derived Traits")
    answer = block_answer("how do i make a struct printable with println", [_source(section)])
    assert "explicitly opt in" in answer and "To do that, we add the outer attribute `#[derive(Debug)]`" in answer, answer


def test_a_heading_naming_the_books_subject_is_no_reading_list_or_exercise():
    """"References and Borrowing" is Rust's subject, "Assignment Statements" Python's, "in
    practice" no practice set: their text answers questions. A heading that is all reading list
    ("Other learning resources") or opens on an assignment still sets its text apart. "Theory and
    practice", "best practice" and "the practice of" are the subject in use, no practice set."""
    from server.text.blocks import heading_material

    for heading in ("Validating References with Lifetimes", "References and Borrowing", "Try-With-Resources en Java",
                    "Scope and Assignment", "Compound Assignment Operators", "Assignment Expressions (The Walrus Operator)",
                    "Using Bayes in practice", "En la práctica",
                    "Appendix 1: Paired-end sequencing in theory and practice", "Best practice", "The practice of testing"):
        assert heading_material(heading) == "prose", heading
    for heading in ("Further Reading", "Other learning resources", "7. References", "Useful links"):
        assert heading_material(heading) == "references", heading
    for heading in ("Assignment 2: build a node", "Practice Exercises", "Challenge 1: extract more attributes",
                    "Practice", "Let's practice"):
        assert heading_material(heading) == "exercise", heading
    src = RUST_BOOK / "src"
    intro = _section(src / "ch10-03-lifetime-syntax.md", "Validating References with Lifetimes")
    answer = block_answer("what are lifetimes?", [_source(intro.split("### ")[0])])
    assert "Lifetimes are another kind of generic" in answer, answer


def test_a_lead_in_is_scored_with_the_code_it_introduces():
    page = """## Joints

Joints connect the links of a robot, and each joint has a type of its own.

This is how one joint definition looks in the description file of the robot:

```xml
<joint name="neck_joint" type="revolute">
  <limit lower="-1.57" upper="1.57"/>
</joint>
```

A joint's limits keep a simulated robot from bending further than the real one can bend.
Every joint of a humanoid needs limits: shoulders, elbows, wrists, hips, knees and ankles alike.
Limits that are too wide let a planner choose poses that the real joint cannot reach at all.
Limits that are too narrow keep a joint from poses that the real robot could reach safely.
"""
    answer = block_answer("what are the limits on the neck joint?", [_source(page)], "short")
    assert '<limit lower="-1.57" upper="1.57"/>' in answer  # only the code names the neck


def test_a_list_longer_than_the_answer_does_not_open_it():
    long_list = "The pipeline meets these problems at every one of its stages:\n\n" + "\n".join(
        f"- **Problem {n}**: the pipeline stage {n} can fail when the room is noisy, the light is poor, the "
        f"request is vague or the robot is busy with another task it was given before" for n in range(1, 7))
    stages = ("The pipeline has four stages:\n\n- Speech recognition\n- Language understanding\n"
              "- Action planning\n- Speech synthesis")
    answer = block_answer("what are the stages of the pipeline?", [_source(f"{long_list}\n\n{stages}")])
    assert "- Action planning" in answer  # the long list (120 words) alone would have been the answer


def test_a_list_longer_than_the_answer_is_cut_to_the_items_that_answer_with_their_nesting():
    page = PHYSICAL_AI / "02-module-digital-twin" / "02-physics-simulation.md"
    text = _section(page, "Challenges and Best Practices for Humanoid Simulation")  # a 211-word list
    answer = block_answer("my robot's feet jitter and slide on the ground when it stands still, what settings "
                          "should i tweak?", [_source(text)])
    lead = "Simulating humanoids realistically and stably presents unique challenges:"
    assert lead in answer
    after = answer.split(lead, 1)[1].lstrip("\n")
    assert after.startswith("2.  **Contact Stability**")  # the item that names the ground, as numbered in the book
    assert "\n        *   Keep `max_step_size` small." in after  # with what is nested under it
    assert "Computational Cost" not in answer and answer_words(answer) <= 90


def test_a_list_whose_items_add_nothing_asked_is_cut_to_its_first_items():
    page = PHYSICAL_AI / "02-module-digital-twin" / "02-physics-simulation.md"
    text = _section(page, "Challenges and Best Practices for Humanoid Simulation")
    answer = block_answer("what makes humanoid simulation hard?", [_source(text)])
    after = answer.split("presents unique challenges:", 1)[1].lstrip("\n")
    assert after.startswith("1.  **High Degrees of Freedom**") and answer_words(answer) <= 90


def test_a_piece_read_on_into_the_next_section_stands_under_that_sections_heading():
    page = (PHYSICAL_AI / "01-module-ros" / "04-urdf-for-humanoids.md").read_text(encoding="utf-8")
    state = _section(PHYSICAL_AI / "01-module-ros" / "04-urdf-for-humanoids.md", "1. `robot_state_publisher`")
    state = state.split("**Launch File Example", 1)[0]
    joints = page.split("### 2. `joint_state_publisher` (or hardware drivers)", 1)[1].split("\n## ", 1)[0]
    # the chunker keeps a section's heading as the chunk's heading, not in its text
    second = replace(_source(joints, chunk_id="d").chunk, heading="2. joint_state_publisher (or hardware drivers)")
    answer = block_answer("which node publishes the values of the joints and which reads the urdf file?",
                          [_source(state)], following=lambda chunk: [second] if chunk.chunk_id == "c" else [])
    # each part under its own heading, whichever answers first (the answer opens under the heading that answers)
    assert "**2. joint_state_publisher (or hardware drivers)**\n\nThis node publishes the values of the joints" in answer
    assert "**1. `robot_state_publisher`**\n\nThis ROS 2 package reads the URDF file" in answer
    assert answer.count("**1. `robot_state_publisher`**") <= 1


def test_a_lead_in_and_its_code_on_two_chunks_are_each_cited_where_they_are():
    lead = "Robots are started from a launch file. The launch file for the humanoid looks like this:"
    code = "```python\nrobot_state_publisher_node = Node(package='robot_state_publisher')\n```"
    second = _source(code, chunk_id="d").chunk
    answer = block_answer("what does the launch file for the humanoid look like in code?", [_source(lead)],
                          following=lambda chunk: [second] if chunk.chunk_id == "c" else [])
    assert "The launch file for the humanoid looks like this [1]:" in answer
    assert answer.split("[1]:", 1)[1].strip().startswith("```python") and answer.rstrip().endswith("[2]")


def test_an_answer_adds_one_table_at_most_to_its_opening():
    page = (RUST_BOOK / "src" / "appendix-02-operators.md").read_text(encoding="utf-8")
    tables = page.split("Table B-3", 1)[1].split("Table B-7", 1)[0].split("\n\nTable ")  # B-3 to B-6, each with its rows
    assert len(tables) == 4
    answer = block_answer("what is the difference between a method and an associated function type?",
                          [_source("Table " + t if i else t, 0.6 - i / 100, chunk_id=f"t{i}") for i, t in enumerate(tables)])
    blocks = [block for block in answer.split("\n\n") if block.startswith("|")]
    assert 1 <= len(blocks) <= 2  # the leading section's, and one more at most: tables take no reading length


def test_a_link_to_the_next_page_is_not_an_answer():
    page = (CORPORA / "aibook" / "docs" / "chapter-04-kinematics" / "index.md").read_text(encoding="utf-8")
    text = page.split("<ChapterActions />", 1)[1]  # ends "**Start with:** [Forward Kinematics →](./forward-kinematics)"
    answer = block_answer("what's the difference between forward and inverse kinematics?", [_source(text)])
    assert "Kinematics describes motion without forces" in answer and "Start with" not in answer


def test_a_long_code_block_unasked_shows_the_lines_that_name_what_was_asked():
    code = "```python\n" + "\n".join(f"step_{n} = prepare({n})" for n in range(40)) + \
        "\nleak = hann(taps=64)  # against spectral leakage\n" + "\n".join(f"tail_{n} = {n}" for n in range(5)) + "\n```"
    page = ("## Windows\n\nA window tapers the ends of a block so that spectral leakage falls. The Hann window is "
            f"the usual first choice, as the script does:\n\n{code}\n")
    unasked = block_answer("what does a hann window do against leakage?", [_source(page)])
    shown = unasked[unasked.index("```"):unasked.rindex("```")].strip("\n").split("\n")[1:]  # the code's lines
    assert "leak = hann(taps=64)  # against spectral leakage" in shown and "step_0 = prepare(0)" not in shown
    assert len(shown) <= 30 and "…" in shown  # only the lines around what was asked, the rest elided
    many = "```python\n" + "\n".join(f"leak_{n} = hann({n})" for n in range(45)) + "\n```"
    busy = block_answer("what does a hann window do against leakage?", [_source(page.replace(code, many))])
    assert len(busy[busy.index("```"):busy.rindex("```")].strip("\n").split("\n")[1:]) <= 30  # "…" counted too
    asked = block_answer("show me the code for the hann window", [_source(page)])
    shown = asked[asked.index("```"):asked.rindex("```")].strip("\n").split("\n")[1:]
    # asked for, and still cut to the lines around what was asked: a student reads thirty lines at most
    assert "leak = hann(taps=64)  # against spectral leakage" in shown and len(shown) <= 30


# --- the section that answers, not a collage -------------------------------------------------------

LAB = """## Domain Randomization

Domain randomization varies textures, lighting and masses in simulation so that the real world looks
like one more variation to the policy. A policy trained this way transfers from simulation to the real
robot without fine-tuning, because it never learnt to rely on one simulator's quirks.

## Learning Objectives

- Understand domain randomization and sim-to-real transfer
- Apply randomization to a simulated robot

## Grading Rubric

- Randomization of textures implemented (20 points)
- Policy transfers to the real robot (30 points)

## Starter Code

```python
def randomize(scene):
    # TODO: randomize textures and lighting for sim-to-real transfer
    raise NotImplementedError
```

## Troubleshooting

- If the simulation crashes after randomization, lower the number of randomized textures.
- If the robot falls in the real world, randomize the masses more widely.
"""


def test_rubrics_starter_code_objectives_and_troubleshooting_are_not_the_answer():
    answer = block_answer("why does domain randomization help sim-to-real transfer?", [_source(LAB)])
    assert "never learnt to rely on one simulator's quirks" in answer
    for left_out in ("points", "TODO", "NotImplementedError", "Understand domain randomization", "lower the number"):
        assert left_out not in answer
    fixing = block_answer("my simulation crashes after randomization, how do i fix it?", [_source(LAB)])
    assert "lower the number of randomized textures" in fixing  # a troubleshooting question gets the list
    grading = block_answer("how many points is the randomization worth in the grading?", [_source(LAB)])
    assert "20 points" in grading


TROUBLESHOOTING = """## Topic Not Showing Data

**Problem**: `ros2 topic echo /topic` prints nothing.

**Solution**:

1. Check that the publisher runs: `ros2 node list`
2. Check that the topic exists: `ros2 topic list`
3. Check the QoS settings of both ends.

Check the logs:

```
ros2 run my_package my_node --ros-args --log-level debug
```
"""


def test_a_troubleshooting_pages_steps_answer_the_symptom_it_names_not_any_question():
    """On the Urdu book, "حل:" (Solution:) and its steps were read as prose (a list's own material),
    and quoted for "what is a node?". On a troubleshooting page they and its commands are
    troubleshooting: quoted for the symptom its heading names, in any words, and not otherwise."""
    steps = "حل:\n\n1. چیک کریں کہ کیا پبلشر چل رہا ہے: ros2 node list\n2. چیک کریں کہ کیا ٹاپک موجود ہے"
    assert {u.material for u in units_of(steps, 1, "troubleshooting")} == {"troubleshooting"}
    assert {u.material for u in units_of(steps, 1, "prose")} == {"prose"}
    assert {u.material for u in units_of(TROUBLESHOOTING, 1, "troubleshooting")} == {"troubleshooting"}
    assert "code" in {u.material for u in units_of(TROUBLESHOOTING, 1, "prose")}
    page = replace(_source(TROUBLESHOOTING, 0.6, "t").chunk, section_hierarchy=["Troubleshooting"],
                   heading="Topic Not Showing Data")
    nodes = _source("## Nodes\n\nA node is one process of a robot's software that does one job, such as "
                    "reading the camera or driving the wheels.\n", 0.55, "n")
    topics = _source("## Topics\n\nA publisher sends messages on a topic, and every node running a subscriber of "
                     "the topic receives them; `ros2 topic echo` prints them.\n", 0.58, "p")
    symptom = block_answer("ros2 topic echo shows nothing although my publisher is running, why?",
                           [Source(page, "database"), topics, nodes])
    assert "Check that the publisher runs" in symptom
    # its heading's "topic" asked about, but no symptom told: the page's prose answers
    echo = block_answer("what does ros2 topic echo print?", [Source(page, "database"), topics, nodes])
    assert "Check that the publisher runs" not in echo and "prints them" in echo
    other = block_answer("what is a node for?", [Source(page, "database"), nodes])
    assert "Check that the publisher runs" not in other and "--log-level" not in other
    assert "A node is one process" in other


def test_an_urdu_question_on_a_three_letter_word_is_answered_by_the_section_on_its_plural():
    """"نوڈ کیا ہوتا ہے؟" (what is a node?) on the Urdu pages: "نوڈ" has three letters, as Urdu
    leaves short vowels out, and the book says "نوڈز" (nodes). It opened on "مسئلہ: نوڈ شروع ہوتا ہے
    اور فوراً مر جاتا ہے" (Problem: the node starts and dies at once) of the troubleshooting page."""
    assert "نوڈ" in asked_words("نوڈ کیا ہوتا ہے؟") and "کیا" not in asked_words("نوڈ کیا ہوتا ہے؟")
    crash = replace(_source("## ❓ نوڈ کریش ہو رہا ہے\n\nمسئلہ: نوڈ شروع ہوتا ہے اور فوراً مر جاتا ہے۔\n\n"
                            "حل: لاگز چیک کریں۔\n", 0.57, "t").chunk, section_hierarchy=["troubleshooting"],
                    heading="❓ نوڈ کریش ہو رہا ہے")
    nodes = _source("## 1. نوڈز (Nodes)\n\nنوڈز ROS 2 میں بنیادی کمپیوٹنگ یونٹس ہیں۔ ہر نوڈ کو ایک واحد کام "
                    "انجام دینا چاہیے۔\n", 0.53, "n")
    answer = block_answer("نوڈ کیا ہوتا ہے؟", [Source(crash, "database"), nodes])
    assert "نوڈز ROS 2 میں بنیادی کمپیوٹنگ یونٹس ہیں" in answer and "مسئلہ" not in answer
    # the plural an Urdu book writes for an English noun says the singular asked: "ٹاپکس" (topics) of "ٹاپک"
    services = _source("## سروسز\n\nسروسز درخواست اور جواب کا ماڈل فراہم کرتی ہیں اور کلائنٹ انتظار کرتا ہے۔\n", 0.6, "s")
    topics = _source("## مواصلات\n\nٹاپکس نامزد بسیں ہیں جن پر نوڈز پیغامات کا تبادلہ کرتے ہیں۔\n", 0.5, "b")
    opening = block_answer("ٹاپک کس لیے ہوتا ہے؟", [services, topics]).split("\n\n")[:2]
    assert opening[0] == "**مواصلات**" and opening[1].startswith("ٹاپکس نامزد بسیں ہیں")


def test_an_answer_quotes_three_sections_at_most_and_code_only_when_it_is_the_answer():
    sections = [f"## Part {name}\n\nThe policy gradient method {name} updates the policy with clipped "
                f"ratios of {name} probabilities and an advantage estimate for {name}.\n" for name in
                ("alpha", "beta", "gamma", "delta", "epsilon")]
    code = "## Q-learning\n\n```python\nq[s, a] += lr * (reward + gamma * q[s2].max() - q[s, a])  # policy\n```\n"
    answer = block_answer("how do policy gradient methods update the policy with clipped ratios, alpha beta "
                          "gamma delta epsilon?", [_source(text, 0.6 - i / 100, chunk_id=f"s{i}")
                                                   for i, text in enumerate([*sections, code])])
    assert 1 <= len({int(n) for n in re.findall(r"\[(\d+)\]", answer)}) <= 3
    assert "```" not in answer  # the prose answers: the code another section holds is not quoted


def test_another_section_is_quoted_only_for_an_asked_word_the_answer_does_not_say_yet():
    """tpil4, "what is a tactic": its definition, then "You can structure your tactics using …" of
    another section and "The cases tactic … discussed in greater detail" of a third, each only
    repeating "tactic"."""
    defines = ("## Tactics\n\nA proof term is a representation of a mathematical proof; tactics are commands, "
               "or instructions, that describe how to build such a proof.\n")
    repeats = ("## Entering Tactic Mode\n\nYou can structure your tactics using the notation case tag. "
               "Tactics that may produce multiple subgoals often tag them.\n")
    adds = "## Tactic Combinators\n\nTactic combinators are operations that form new tactics from old ones.\n"
    answer = block_answer("what is a tactic?", [_source(defines, 0.6, "a"), _source(repeats, 0.59, "b")])
    assert "tactics are commands" in answer and "structure your tactics" not in answer, answer
    combined = block_answer("what is a tactic combinator?", [_source(defines, 0.6, "a"), _source(adds, 0.59, "b")])
    assert "form new tactics from old ones" in combined, combined  # "combinator": a word the first does not say
    # a question that asks no term's meaning reads on: aibook's "why build robots shaped like humans at all?"
    # opened on a chapter's introduction, and the section that answers only repeats its words
    why = block_answer("why would i use tactics?", [_source(defines, 0.6, "a"), _source(repeats, 0.59, "b")])
    assert "structure your tactics" in why, why


def test_a_code_blocks_language_is_no_word_it_says():
    """tpil4's "what does the universal quantifier mean in lean": a Lean block was quoted after the
    definition for saying "lean", its fence's language."""
    page = ("## The Universal Quantifier\n\nThe universal quantifier is supposed to denote the assertion that "
            "the statement holds for every value.\n\n```lean\nexample (p : Nat → Prop) : ∀ y, p y := sorry\n```\n")
    answer = block_answer("what does the universal quantifier mean in lean", [_source(page)])
    assert "holds for every value" in answer and "```" not in answer, answer


def test_a_blockquoted_note_is_quoted_as_prose_without_its_marks():
    page = "## Operators\n\n> Note: the dot operator composes two functions.\n> It applies the right one first.\n"
    answer = block_answer("what does the dot operator do?", [_source(page)])
    assert "the dot operator composes two functions. It applies the right one first" in answer
    assert ">" not in answer


def test_one_code_block_in_all_unless_code_is_asked_for():
    first = "## Frob\n\nThe widget starts here and sets itself up.\n\n```python\nfrob = make_frob(level=3)\n```\n"
    second = "## Knob\n\nThe dial turns and reads its position.\n\n```python\nknob = read_knob(channel=1)\n```\n"
    answer = block_answer("what do frob and knob do?", [_source(first, 0.6, "a"), _source(second, 0.59, "b")])
    assert answer.count("```") == 2  # one block: the opening's, not another passage's too


def test_navigation_lines_and_contents_entries_are_never_the_answer():
    # the only words naming what is asked are in links to other pages: the prose is quoted, not them
    navigation = ("[Up to the table of contents](README.md) / [Back to the Introduction](Introduction.md) / "
                  "[Forward to the fine-mapping section](Fine-mapping.md)\n")
    contents = ("## Contents\n\n* [Meta-analysis of two studies](Meta-analysis.md)\n"
                "* [Fine-mapping association test results using `FINEMAP`](Fine-mapping.md)\n")
    prose = "## Meta-analysis\n\nThe simplest way to perform meta-analysis is to combine the effect sizes.\n"
    answer = block_answer("what is fine-mapping for?", [_source(navigation, 0.6, "n"), _source(contents, 0.55, "c"),
                                                        _source(prose, 0.5, "p")])
    assert "Up to the table" not in answer and "Forward to" not in answer and "FINEMAP" not in answer
    assert "The simplest way to perform meta-analysis" in answer
    # a few words sending the reader on (whg-genomics ends its pages so): the way on, no answer
    sent_on = ("## Relatedness pruning\n\nWhen you're ready, [go to the next page to identify and remove close "
               "relationships](relatedness_pruning.md).\n")
    answer = block_answer("how do i remove close relationships?", [_source(sent_on, 0.6, "s"), _source(prose, 0.5, "p")])
    assert "go to the next page" not in answer
    said = "## Pruning\n\nSee [the relatedness page](relatedness_pruning.md) for how plink estimates relationships between samples.\n"
    assert "plink estimates relationships" in block_answer("how are relationships estimated?", [_source(said, 0.6, "r")])


def test_a_short_sentence_that_answers_brings_the_sentence_that_carries_its_thought_on():
    faq, hello, io = (CORPORA / "lhbg" / "src" / name for name in ("12-faq.md", "02-hello.md", "05-glue/02-io.md"))
    debugging = _section(faq, "How to debug Haskell code").split("\n\n")[-1]  # the chunk starts at its end
    sources = [_source(debugging + "\n\n" + _section(faq, "My program is slow. Why?"), 0.51, "a"),
               _source(_section(hello, "A Haskell source file"), 0.50, "b"), _source(_section(io, "IO"), 0.48, "c"),
               _source(_section(io, "Getting out of IO?"), 0.49, "d")]  # as the book is asked this
    answer = block_answer("my haskell program is crawling, what could be the reason?", sources)
    assert "There could be various reasons" in answer
    assert "From inefficient algorithms or" in answer and "laziness issues" in answer


def _tpil4_chunks(embedder, source_file: str) -> list[Chunk]:
    """A page of Theorem Proving in Lean 4 as `ingest` chunks it."""
    site = detect_site(CORPORA / "tpil4")
    page = next(p for p in discover_pages(site).pages if p.source_file == source_file)
    return chunk_page(page, book_id="tpil4", book_title=site.title, count_tokens=embedder.count_tokens)


def test_an_exercises_code_is_set_for_the_student_and_quoted_only_when_exercises_are_asked_for(embedder):
    code = "```lean\ninductive Expr where\n  | const : Nat → Expr\n```"
    assert Block("code", code, "Exercises").material == "exercise" and Block("code", code, "Syntax").material == "code"
    assert [u.material for u in units_of(code, 1, "exercise")] == ["exercise"]  # a chunk of an exercises section
    assert [u.material for u in units_of(code, 1, "prose")] == ["code"]
    inductive, recursion = (_tpil4_chunks(embedder, f"{name}.md") for name in ("inductive_types", "induction_and_recursion"))
    said = ("the induction principle is just a special case", "Once again, you can reduce the proof to:",
            "In this case, each can be used to reduce the proof to:")
    natural = [next(c for c in inductive if text in " ".join(c.content.split())) for text in said]
    founded = next(c for c in recursion if c.heading == "Well-Founded Recursion and Induction")
    exercises = [c for c in recursion if c.heading == "Exercises"]
    assert "Open a namespace" in exercises[0].content and "inductive Expr" not in exercises[0].content
    assert "inductive Expr" in exercises[1].content  # the exercise's code is read on, in the next chunk
    page = {c.chunk_id: recursion[i + 1:i + 3] for i, c in enumerate(recursion)}
    following = lambda chunk: page.get(chunk.chunk_id, [])
    # as the book's index retrieves for the question
    sources = [Source(replace(c, score=score), "database")
               for c, score in zip([*natural, founded, exercises[0]], (0.52, 0.48, 0.47, 0.47, 0.42))]
    answer = block_answer("how do I prove something by induction on natural numbers?", sources, following=following)
    assert "inductive Expr" not in answer and "Open a namespace" not in answer and "induction" in answer
    asked = block_answer("are there exercises on induction and recursion?", [sources[-1], *sources[:-1]],
                         following=following)
    assert any(text in asked for text in ("inductive Expr", "Open a namespace", "course-of-value"))


def test_a_passage_that_starts_inside_a_sentence_is_not_quoted_from_its_broken_start():
    passage = ("`cargo build` because it skips the step of producing an executable. Cargo check is quick, so "
               "use it while you write code.\n\nCargo also builds the documentation of your project.")
    said = [u.text for u in units_of(passage, 1)]
    assert not any(text.startswith("`cargo build` because") for text in said)
    assert any(text.startswith("Cargo check is quick") for text in said)


def test_a_sentence_a_passage_breaks_across_two_paragraphs_is_read_whole():
    # a chunk that starts inside a wrapped paragraph: the start of the sentence it breaks off in
    # (carried over from the chunk before), a blank line, then the rest of the paragraph
    passage = ("Usually, `cargo check` is much faster than\n\n`cargo build` because it skips the step of "
               "producing an executable. So use it while you write code.")
    said = [u.text for u in units_of(passage, 1)]
    assert said[0] == ("Usually, `cargo check` is much faster than `cargo build` because it skips the step of "
                       "producing an executable.")
    apart = [u.text for u in units_of("Run the tests\n\n## Next\n\nthen read the report.", 1)]
    assert not any("Run the tests then" in text for text in apart)  # a heading between: two places, not one sentence



def test_a_cut_off_sentence_naming_code_with_an_equals_sign_is_not_a_formula():
    cut_off = "The essence of the `Monad` interface is the `join`/`>>=` functions, and as we've seen"
    assert units_of(cut_off, 1) == ()  # a sentence cut off at the passage's end, never quoted
    law = units_of("Newton's law reads:\n\nF = m a\n\nIt holds in every frame.", 1)
    assert any("F = m a" in u.text for u in law)  # a displayed formula still is one


def _python_chunks(embedder, source_file: str) -> list[Chunk]:
    """A page of the Chinese and English Python book's English translation, chunked as `ingest` chunks it."""
    site = detect_site(CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current")
    page = next(p for p in discover_pages(site).pages if p.source_file == source_file)
    return chunk_page(page, book_id="python", book_title=site.title, count_tokens=embedder.count_tokens)


def test_an_item_cut_at_its_colon_between_chunks_is_read_whole_and_a_bare_label_is_never_quoted(embedder):
    chunks = _python_chunks(embedder, "dict.md")
    operations = [c for c in chunks if c.heading == "Common Operations"]
    # the chunker ran out of room inside "* Removing elements: `remove(x)` deletes …" and "* Length: Use …"
    assert any(c.content.rstrip().endswith("* Removing elements:") for c in operations)
    assert any(c.content.rstrip().endswith("* Length:") for c in operations)
    after = {c.chunk_id: operations[i + 1:i + 4] for i, c in enumerate(operations)}
    following = lambda chunk: after.get(chunk.chunk_id, [])
    said = [u.text for c in operations for u in units_of(c.content, 1)]
    assert not any(text.rstrip(" *_").endswith(("elements:", "Length:")) for text in said)
    answer = block_answer("how do i remove an element from a set?", [Source(replace(operations[0], score=0.6), "database")],
                          following=following)
    assert "* Removing elements: `remove(x)` deletes `x`" in answer
    sized = block_answer("how do i get the size of a set?", [Source(replace(operations[0], score=0.6), "database")],
                         following=following)
    # the label is quoted with the code it introduces
    assert re.search(r"\* Length: Use the `len\(\)` function.*\n\n```python\n(.*\n)*print\(len\(s\)\)", sized)
    assert not re.search(r"\* (Removing elements|Length) ?(\[\d+\])?:\s*$", answer + "\n" + sized, re.MULTILINE)


def test_a_passage_is_not_read_on_into_the_exercises_after_it(embedder):
    chunks = _python_chunks(embedder, "dict.md")
    last = max(i for i, c in enumerate(chunks) if c.heading == "Mathematical Set Operations")
    assert chunks[last + 1].heading == "Exercises"
    following = lambda chunk: chunks[last + 1:last + 4] if chunk.chunk_id == chunks[last].chunk_id else []
    assert "Remove duplicates" not in read_on(chunks[last], following(chunks[last]))
    answer = block_answer("is a set faster than a list for checking if something is in it?",
                          [Source(replace(chunks[last], score=0.6), "database")], following=following)
    assert "Remove duplicates" not in answer and "Write a program" not in answer
    exercises = Source(replace(chunks[last + 1], score=0.6), "database")
    assert "Remove duplicates" in block_answer("are there exercises on sets and lists?", [exercises], following=following)


def test_an_exercise_the_book_sets_inline_is_quoted_only_when_exercises_are_asked_for():
    """lhbg sets its exercises in the prose ("1. Exercise: …" with a solution's code under it,
    "**Exercise**: …", "Exercises:" before a list), under headings that are no exercise's."""
    page = (CORPORA / "lhbg" / "src" / "05-glue" / "02-io.md").read_text(encoding="utf-8")
    passage = page[page.index("Do notation is very very common"):][:1500]
    units = units_of(passage, 1)
    assert [u.material for u in units if "Exercise:" in u.text] == ["exercise", "exercise"]
    assert [u.material for u in units if "module Main where" in u.text] == ["exercise"]  # its solution
    inline = units_of("We are done.\n\n**Exercise**: Add haddock annotations.\n\nExercises:\n\n- Implement `h_`", 1)
    assert [u.material for u in inline] == ["prose", "exercise", "exercise"]
    source = _source(passage)
    answer = block_answer("what is do notation?", [source])
    assert "Exercise" not in answer and "module Main where" not in answer and "do notation" in answer.lower()
    assert "Exercise: Translate" in block_answer("are there exercises on do notation?", [source])


def test_the_questions_an_admonitions_label_sets_are_practice_and_the_text_after_them_is_not():
    """The genomics course sets questions in admonitions (":::tip Challenge questions", ":::tip Question";
    cleaned to a label line "**Tip: Challenge questions**"): "how do i control for population
    stratification in my gwas?" opened on "Repeat our earlier analysis … and answer the following:" and
    its first question. The admonition's end is no longer in the cleaned text, so only the block after
    the label (a lead-in with its list, taken with it) is practice: the course's prose goes on after."""
    page = (CORPORA / "whg-genomics" / "docs" / "genome_wide_association_studies" / "genome_wide_association_analysis"
            / "population_structure.md").read_text(encoding="utf-8")
    text = clean_markdown(page.split("---", 2)[2], indented_code=True)
    units = units_of(text[text.index("```R\n# In R:"):], 1)
    assert {u.material for u in units if "Repeat our earlier analysis" in u.text} == {"exercise"}
    assert [u.material for u in units if "Not quite!" in u.text] == ["prose"]  # under the next heading
    one = units_of("Run it.\n\n**Tip: Question**\n\nWhy a multiple of 4 lines?\n\nThe config file sets the data.", 1)
    assert [(u.text, u.material) for u in one if u.kind == "sentence"] == [
        ("Run it.", "prose"), ("Why a multiple of 4 lines?", "exercise"), ("The config file sets the data.", "prose")]
    source = _source(text[text.index("Now use R to examine"):])
    kept = block_answer("how do i keep just the SNP lines of the gwas results?", [source])
    assert "Repeat our earlier analysis" not in kept and "make sure you extract just the SNP lines" in kept, kept
    assert "Repeat our earlier analysis" in block_answer("are there challenge questions on stratification?", [source])


def test_a_sentence_pointing_back_is_quoted_with_what_it_points_at():
    """survival-ts quoted "この方法をコールバックと呼ぶこともあります。" ("this method is sometimes
    called a callback") after a sentence on another thing; an English paragraph opening on
    "This is what …" is quoted with the paragraph before it, or the answer would open on "this"."""
    page = (CORPORA / "survival-ts" / "docs" / "reference" / "asynchronous" / "README.md").read_text(encoding="utf-8")
    passage = page[page.index("## JavaScriptにおける非同期処理"):page.index("そしてそのPromise")]
    answer = " ".join(block_answer("コールバックって何？", [_source(passage)]).split())
    assert "あとで別の方法で結果を伝えます。この方法をコールバックと呼ぶ" in answer, answer
    english = ("Networks are slow compared with a processor, and a request to a server on another continent can "
               "take a large part of a second before its first byte arrives back. Disks are faster but still far "
               "slower than memory, and a program that reads a large file spends most of its time waiting for it. "
               "A program that waits for the network does nothing else while it waits, and every user of it waits "
               "too.\n\nThis is what non-blocking code avoids: it hands the waiting to a callback and goes on with "
               "other work.\n\nNon-blocking code is harder to read, so the book uses async functions for it.")
    opened = block_answer("what is non-blocking code?", [_source(english)])
    assert "This is what" not in opened or "every user of it waits too.\n\nThis is what" in opened, opened


def test_a_why_question_that_names_code_is_answered_with_the_reason_not_the_code():
    """"why use else … instead of just putting that code at the end of the try?" names code and
    asks for a reason: the section's reasons (it separates the code that might raise from the code run on
    success; it keeps the `try` small), not its example. Asked how, the code comes."""
    page = (CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current"
            / "exception.md").read_text(encoding="utf-8")
    section = page[page.index("### The else Clause"):page.index("### The finally Clause")]
    why = block_answer("why use else in a try/except instead of just putting that code at the end of the try?",
                       [_source(section)])
    assert "```" not in why and ("minimize the scope" in why or "clearly separates code" in why), why
    assert "```python" in block_answer("how do i write the code for a try with an else?", [_source(section)])


def test_type_the_noun_is_no_request_for_code_and_asked_for_code_is_a_few_blocks_not_every_listing():
    """"what's the difference between newtype and type?" quoted five code blocks from lhbg: "type"
    was read as "what do I type". Code asked for ("which commands do i run in the terminal …")
    is three blocks at most, not the seven listings of an install page."""
    from server.question.compose.extractive.asks_for import asks_for_code

    assert not asks_for_code("what's the difference between newtype and type?")
    assert asks_for_code("what do i type to start the node?") and asks_for_code("which command builds it?")
    # "show me" in the pool's other languages: "ジェネリクスの例を見せて" (survival-ts) is shown the generic function
    assert asks_for_code("ジェネリクスの例を見せて") and asks_for_code("muéstrame un ejemplo de una lista")
    assert asks_for_code("给我看一个装饰器的例子") and not asks_for_code("ジェネリクスとは？")
    # "run" is what the reader runs, not what a robot does on its battery (aibook quoted PyBullet's listing)
    assert not asks_for_code("how long would a robot run on a 500 Wh battery?")
    assert asks_for_code("how do i run the node?") and asks_for_code("what happens when you run cargo build?")
    # a thing a code word names is no request for code: a genomics course's "what is the command prompt?"
    # quoted two code blocks; "what command lists files?" asks for one
    assert not asks_for_code("what is the command prompt?") and not asks_for_code("how do i open a terminal window?")
    assert asks_for_code("what command lists files?") and asks_for_code("what do i type in the terminal?")
    page = (CORPORA / "lhbg" / "src" / "03-html" / "04-safer_construction.md").read_text(encoding="utf-8")
    sources = [_source(page[page.index("## `newtype`"):page.index("## Chaining functions")], 0.62, "a"),
               _source(page[page.index("## `type`"):page.index("## The rest of the owl")], 0.60, "b")]
    assert block_answer("what's the difference between newtype and type?", sources).count("```") <= 2
    steps = "\n\n".join(f"Step {n}: run this command in the terminal to install part {n} of ros 2:\n\n"
                        f"```bash\nsudo apt install ros-part-{n}\n```" for n in range(1, 8))
    answer = block_answer("which commands do i run in the terminal to install ros 2?", [_source(steps)])
    assert 2 <= answer.count("```bash") <= 3, answer


def test_how_to_write_it_asks_for_code_in_the_books_other_languages_too():
    """"列表推导式怎么写？" (how is a list comprehension written?) asks for the book's code as "how do
    i write a list comprehension?" does; "装饰器有什么用？" (what are decorators for?) does not."""
    from server.question.compose.extractive.asks_for import asks_for_code

    assert all(map(asks_for_code, ["列表推导式怎么写？", "配列の型はどう書けばいいですか", "¿cómo escribo un test en kotlin?"]))
    assert not any(map(asks_for_code, ["装饰器有什么用？", "型ガードってなに？", "¿qué es un genérico?"]))
    page = (CORPORA / "python-codex-i18n" / "docs" / "comprehension.md").read_text(encoding="utf-8")
    # the section and its subsection's chunk, as the index cuts the page; the code ("…遍历 0 到 9：" and its
    # listing) stands in the subsection, the section that answers
    opening, usage = page[page.index("## 列表推导式"):page.index("### 基本用法")], \
        page[page.index("### 基本用法"):page.index("### 过滤条件")]
    sources = [_source(opening, 0.62, "a"), _source(usage, 0.6, "b")]
    for source, path in zip(sources, (["推导式", "列表推导式"], ["推导式", "列表推导式", "基本用法"])):
        source.chunk.heading, source.chunk.section_hierarchy, source.chunk.source_file = path[-1], path, "c.md"
    assert "```python" in block_answer("列表推导式怎么写？", sources)


def test_an_ellipsis_inside_a_sentence_does_not_end_it():
    """python-codex-i18n's "Relying on putting clean-up code after the entire `try` ... `except`
    structure is also unsafe." was quoted as "except structure is also unsafe"."""
    from server.question.compose.extractive.answer_units import sentences_of

    said = sentences_of("Relying on putting clean-up code after the entire `try` ... `except` structure is also "
                        "unsafe. If an uncaught exception occurs, the trailing code will be skipped.")
    assert said[0].endswith("`except` structure is also unsafe.") and len(said) == 2
    assert sentences_of("It works. `cargo build` is slower. Done!") == ["It works.", "`cargo build` is slower.", "Done!"]


def test_a_programs_sample_text_is_not_what_its_code_names():
    """"how do i read a file in haskell" on the Haskell book had been answered with a test whose
    sample document says "Create a new Haskell source file": the text a program holds is data."""
    test_page = ("## Testing\n\nWe add a test for input that runs over several lines.\n\n```hs\nexample3 :: String\n"
                 "example3 = [r|\nCreate a new Haskell source file, then read it line by line.\n|]\n"
                 "main = putStrLn \"read the whole file now\"\n```\n\nThe test passes.")
    reading = ("## Reading input\n\nThe function readFile gives all of the content of a file as one string, "
               "and we can call it from main.")
    answer = block_answer("how do i read a file in haskell", [_source(test_page, 0.6, "t"), _source(reading, 0.55, "r")])
    assert "```" not in answer and "readFile gives all of the content of a file" in answer
    code = "Here:\n\n```hs\n-- read a file\ncontents <- readFile path\n```"
    shown = block_answer("how do i read a file in haskell", [_source(code, 0.6)])
    assert "readFile path" in shown  # a comment and the names are what code says


def test_a_section_retrieved_in_several_chunks_is_quoted_in_the_books_order_under_its_heading_once(embedder):
    """Retrieval ranks a section's later chunks over its opening; the answer still reads the
    section as the book wrote it, from the stretch that answers on (the section's pieces before it
    after it: test_answer_leads.py), the heading once."""
    calc = [c for c in _tpil4_chunks(embedder, "quantifiers_and_equality.md") if c.heading == "Calculational Proofs"]
    assert len(calc) >= 3
    ranked = [Source(replace(c, score=0.55 - 0.05 * i), "database") for i, c in enumerate(reversed(calc))]
    answer = block_answer("how do i write a calc proof", ranked)
    page = " ".join("\n\n".join(c.content for c in calc).split())
    places = [page.find(" ".join(re.sub(r" \[\d+\]", "", part).split())[:60])
              for part in answer.split("\n\n") if re.match(r"[A-Z]", part)]  # the prose (its code repeats itself)
    assert len(places) >= 3 and -1 not in places, answer
    assert places == sorted(places, key=lambda place: (place < places[0], place)), answer
    assert answer.count("**Calculational Proofs**") <= 1
    assert len(set(re.findall(r"\[(\d+)\]", answer))) > 3  # one section, however many chunks: not three passages


def test_a_question_asking_for_an_example_is_answered_with_the_books_example_of_it(embedder):
    """"give me an example of pattern matching": the example is what is asked for, not the word
    "example" (Lean's `example` keyword names it in every proof of the page)."""
    recursion = _tpil4_chunks(embedder, "induction_and_recursion.md")
    matching = [c for c in recursion if c.heading == "Pattern Matching"]
    others = [c for c in recursion if c.heading in ("Match Expressions", "Exercises")][:2]
    page = {c.chunk_id: recursion[i + 1:i + 4] for i, c in enumerate(recursion)}
    following = lambda chunk: page.get(chunk.chunk_id, [])
    sources = [Source(replace(c, score=score), "database")  # as the book's index retrieves for the question
               for c, score in zip([others[1], matching[0], others[0], *matching[2:0:-1]], (0.52, 0.50, 0.51, 0.48, 0.46))]
    answer = block_answer("give me an example of pattern matching on natural numbers", sources, following=following)
    assert "def sub1 : Nat → Nat" in answer, answer
    assert "The equations used to define these functions hold definitionally" not in answer
    about = block_answer("what is pattern matching in lean?", sources, following=following)
    assert about.count("```") <= 2  # asked what it is, not for an example: one code block at most


def test_the_word_example_frames_a_request_for_one_and_an_example_given_scores_over_the_same_words():
    from server.question.compose.extractive.piece_scores import score_pieces
    from server.question.compose.extractive.question_words import asked as _asked

    assert "examp" not in _asked("give me an example of pattern matching", None)
    assert "examp" not in _asked("can you show me some examples for borrowing?", None)
    assert "examp" in _asked("in the odometry example which topic is used?", None)  # one of the book's, named
    passage = ("Borrowing a string lets a function read the string while its caller keeps it. For example, "
               "borrowing a string lets a function read it while the caller keeps it.")
    sources = [_source(passage)]
    read = [(passage, [])]

    def scores(question: str) -> dict[str, float]:
        return {s.unit.text[:12]: s.score for s in score_pieces(question, sources, None, everything=False, read=read)}

    plain = scores("what does borrowing a string do?")
    assert plain["For example,"] <= plain["Borrowing a "]
    asked = scores("give me an example of borrowing a string")
    assert asked["For example,"] > asked["Borrowing a "]


def test_a_list_of_named_entries_is_quoted_for_the_entry_asked_about_not_the_ones_after_it():
    """"what does simp do?" of the Lean book's list of tactics inside conversion mode: the `simp`
    entry answers; `done` and `trace_state` after it are other tactics, not the rest of its thought."""
    entries = ("## Other tactics inside conversion mode\n\n"
               "- `arg i` enters the `i`-th nondependent explicit argument of an application.\n"
               "- `simp` applies the simplifier to the current goal. It supports the same options available in "
               "regular tactic mode.\n"
               "- `done` fail if there are unsolved goals.\n"
               "- `trace_state` display the current tactic state.\n"
               "- `whnf` put term in weak head normal form.\n")
    answer = block_answer("what does simp do?", [_source(entries)])
    assert "`simp` applies the simplifier" in answer and "`done`" not in answer and "trace_state" not in answer, answer
    stakeholders = ("## Stakeholders\n\n- **Manufacturer** - Built the robot\n- **Programmer** - Wrote the software\n"
                    "- **Operator** - Using the robot\n- **Owner** - Owns the robot\n")
    whole = block_answer("who is to blame if a robot hurts somebody?", [_source(stakeholders)])
    assert all(name in whole for name in ("Manufacturer", "Programmer", "Operator", "Owner")), whole  # the list answers
    steps = ("To build the project:\n\n1. Open a terminal in the project folder.\n2. Run the build, which compiles "
             "every module.\n3. Wait until the build prints that it is done.\n")
    said = block_answer("how do i run the build?", [_source(steps)])
    assert "Wait until the build prints" in said  # steps of one task: the rest of the thought


def test_a_sentence_said_of_the_example_above_is_quoted_only_with_an_example_above_it():
    """"The example above also makes it clear that you can use calc …" read without the example
    points at nothing."""
    passage = ("## Calculational Proofs\n\nA calculational proof is a chain of intermediate results.\n\n"
               "```lean\ntheorem T : a = e :=\n  calc\n    a = b      := h1\n    _ = e      := h2\n```\n\n"
               "The example above also makes it clear that you can use calc without an infix notation for your "
               "relation.\n\nWith calc the proof reads in a more natural way.")
    prose = block_answer("why use calc for a proof?", [_source(passage)])
    assert "calc" in prose and "```" not in prose and "The example above" not in prose, prose
    shown = block_answer("show me the code of a calc proof", [_source(passage)])
    assert "```lean" in shown and "The example above" in shown, shown
    assert points_above(units_of("In the previous example, we used rfl.", 1)[0])
    assert not points_above(units_of("As shown above, we can use rfl.", 1)[0])
    assert not points_above(units_of("Always validate output before execution.", 1)[0])  # not a block's place
    assert points_above(units_of("在上面的程序中，timer() 是一个装饰器。", 1)[0])
    assert points_above(units_of("上記のコードでは、型注釈を省略しています。", 1)[0])
    assert points_above(units_of("En el ejemplo anterior, la lista crece.", 1)[0])



def test_show_me_an_example_is_one_example_not_the_pages_listings():
    """"装饰器是什么？给我看个例子" quoted three decorators' listings: an example asked for is one."""
    page = "## Decorators\n\nA decorator takes a function and returns a new function.\n\n" + "".join(
        f"Here is the {name} decorator:\n\n```python\ndef {name}(func):\n    # a decorator\n    return func\n```\n\n"
        for name in ("timer", "repeat", "logged"))
    one = block_answer("show me an example of a decorator", [_source(page)])
    assert one.count("```") == 2 and "A decorator takes a function" in one, one
    listings = block_answer("show me the code of each decorator", [_source(page)])
    assert listings.count("```") >= 4, listings



def test_an_answer_never_opens_on_the_example_above():
    """"give me an example of pattern matching on natural numbers" (tpil4): the best stretch opened on
    "For example, it would be more natural to define the previous example …", which cannot stand
    first; dropped after it was chosen, it took the answer's opening with it."""
    from server.question.compose.extractive.opening import opening_stretch as _opening
    from server.question.compose.extractive.continuation import read_passages
    from server.question.compose.extractive.piece_scores import score_pieces

    page = ("## Pattern Matching\n\nPattern matching splits a function on the cases of its argument.\n\n"
            "```lean\ndef sub1 : Nat → Nat\n  | zero   => zero\n  | succ x => x\n```\n\n"
            "For example, it would be more natural to define the previous example of pattern matching on numbers "
            "as a function of two arguments:\n\n```lean\ndef foo : Nat → Nat → Nat\n  | 0,   n => 0\n```\n")
    sources = [_source(page)]
    question = "give me an example of pattern matching on numbers"
    scored = score_pieces(question, sources, None, everything=False, read=read_passages(sources, None))
    opening = _opening(scored, 90, False, how_to=True)
    assert opening and not points_above(opening[0]), [u.text[:40] for u in opening]
    assert "Pattern matching splits" in block_answer(question, sources)


def test_code_asked_for_that_the_opening_quotes_is_not_quoted_again_from_another_page():
    """"how do i compute my robot's battery runtime? show me the code" opened on the power budget's
    lead-in and its listing; a second listing (a simulator's, sharing no asked word) was added
    because the opening's code was not counted as the code asked for."""
    budget = ("## Power Budget\n\nAlways plan your battery runtime with a power budget:\n\n```python\n"
              "budget = PowerBudget(battery_wh=500)\nprint(budget.runtime_hours())\n```")
    other = "```python\nimport pybullet as p\np.connect(p.GUI)\np.stepSimulation()\n```"
    answer = block_answer("how do i compute my robot's battery runtime? show me the code",
                          [_source(budget, 0.7, "a"), _source(other, 0.5, "b")])
    assert "runtime_hours" in answer and "pybullet" not in answer, answer


def test_an_answer_quotes_three_sections_at_most_counted_in_the_passage_a_section_with_its_subsections_one():
    """A chunk that holds several small sections (aibook's "Actuators & Motors": four motor kinds,
    then the selection table) was one section, and an answer quoted six places from it and the
    passages after it. Each piece now counts the top section it stands in; subsections are their
    section's."""
    from dataclasses import replace as with_fields

    sections = [("Gears", None, "Gears mesh their teeth to pass torque between shafts."),
                ("Gears", "Spur gears", "Spur gears have straight teeth and are loud at speed."),
                ("Gears", "Helical gears", "Helical gears have slanted teeth and run quietly."),
                ("Belts", None, "Belts pass torque between far shafts and slip when overloaded."),
                ("Chains", None, "Chains pass torque between shafts without slipping."),
                ("Pulleys", None, "Pulleys change the direction a belt pulls.")]
    content, parts = "Drives pass torque from a motor to a joint.", []
    for top, sub, text in sections:
        if not parts or parts[-1]["titles"][0] != top:
            parts.append({"at": len(content) + 2, "titles": [top], "anchor": top.lower()})
            content += f"\n\n## {top}"
        if sub:
            parts.append({"at": len(content) + 2, "titles": [top, sub], "anchor": sub.lower().replace(" ", "-")})
            content += f"\n\n### {sub}"
        content += f"\n\n{text}"
    source = _source(content, 0.7, "drives")
    source = Source(with_fields(source.chunk, chapter="Drives", heading="Drives", section_hierarchy=["Drives"],
                                parts=parts, page_key="drives.md"), "database")
    answer = block_answer("how do gears, spur gears, helical gears, belts, chains and pulleys pass torque?",
                          [source], answer_length="detailed")
    quoted = {top for top, _, text in sections if text[:-1] in answer} | ({"Drives"} if "Drives pass" in answer else set())
    assert len(quoted) == 3, answer  # three sections, the limit, and no more
    assert "Spur gears have" in answer and "Helical gears have" in answer, answer  # one section with its subsections


def test_the_answer_opens_under_the_heading_that_answers_then_the_rest_of_its_section():
    """aibook's "do stepper motors need feedback": the passage began with the servo motors' list,
    and the answer put it first, in the book's order, above the stepper motors' "No feedback
    needed" that answers."""
    content = ("Motor + Gearbox + Controller:\n\n- Position control built-in\n- Common in hobby robotics\n\n"
               "### Stepper Motors\n\nPrecise positioning:\n\n- Move in discrete steps\n- No feedback needed\n"
               "- Can lose steps under load")
    source = _source(content, 0.6, "motors")
    parts = [{"at": content.index("### Stepper"), "titles": ["Electric Motors", "Stepper Motors"],
              "anchor": "stepper-motors"}]  # the chunker merged the small sections, and says where each starts
    source = Source(replace(source.chunk, heading="Servo Motors", chapter="Actuators", parts=parts,
                            section_hierarchy=["Actuators", "Electric Motors", "Servo Motors"]), "database")
    answer = block_answer("do stepper motors need feedback?", [source])
    assert answer.lstrip().startswith("**Stepper Motors**"), answer


def test_after_an_opening_the_section_it_opened_reads_on_into_its_solution():
    """The Urdu troubleshooting entry "Gazebo hangs on a black screen" opened on its "Problem:" line
    and stopped: its "Solution:" list says no asked word, and after an opening only a piece saying
    one was added. A piece of the opening's own section reads on; another section's still needs an
    asked word (a simulator's listing is no answer to a battery question)."""
    entry = ("### Gazebo not loading\n\nProblem: Gazebo hangs on a black screen.\n\nSolution:\n\n"
             "1. The first run downloads the models it needs, which can take several minutes: wait for it.\n"
             "2. Kill the server and the client left over from an earlier run: killall -9 gzserver gzclient\n"
             "3. Update your graphics drivers, since an old driver often leaves the window without a picture.")
    answer = block_answer("gazebo hangs on a black screen when i open it, what do i do?", [_source(entry, 0.6, "t")])
    assert "killall -9 gzserver gzclient" in answer, answer


def test_after_an_opening_a_piece_whose_heading_names_the_asked_word_still_answers():
    """aibook's "what is slam algoritm" opened on the algorithms' table and lost "Simultaneous
    Localization and Mapping — how robots map …": that sentence says no asked word, its heading
    "SLAM" does, and it stands in another section than the table."""
    content = ("Simultaneous Localization and Mapping — how robots map unknown environments while tracking "
               "their position.\n\n## Popular SLAM Algorithms\n\n| Algorithm | Sensor | Use Case |\n|---|---|---|\n"
               "| ORB-SLAM3 | Camera | Visual SLAM |\n| Cartographer | LIDAR | 2D/3D mapping |")
    parts = [{"at": content.index("## Popular"), "titles": ["Popular SLAM Algorithms"], "anchor": "popular"}]
    source = _source(content, 0.6, "slam")
    source = Source(replace(source.chunk, heading="SLAM", chapter="SLAM", section_hierarchy=["SLAM"], parts=parts),
                    "database")
    project = _source("## 3. Autonomous Navigator\n\nBuild a robot that can map a room and navigate to goals "
                      "using SLAM.", 0.45, "projects")
    answer = block_answer("what is slam algoritm", [source, project])
    assert "Simultaneous Localization and Mapping" in answer, answer


def test_a_piece_is_scored_by_the_heading_it_stands_under_not_its_chunks_first():
    """survival-ts's "does Date's getMonth() return 1 for January?": the chunk merged the small sections
    of getMonth() and getDay(), and every piece of it was scored by the chunk's heading, getMonth().
    getDay()'s sentence, which says "date", opened the answer."""
    content = ("Returns the month as a number from 0 to 11, not from 1 to 12. Add one to it for the month "
               "of the calendar. Months are counted from zero because the first implementation copied an older "
               "library, and every program since keeps that behaviour for compatibility.\n\n"
               "### Day of the week: `getDay()`\n\nReturns the day of the week of a date, from 0 for Sunday to 6 "
               "for Saturday; do not mistake it for the day of the month.")
    source = _source(content, 0.6, "date")
    parts = [{"at": content.index("### Day"), "titles": ["Date", "Day of the week: `getDay()`"], "anchor": "day"}]
    source = Source(replace(source.chunk, heading="Month: `getMonth()`", chapter="Date", parts=parts,
                            section_hierarchy=["Date", "Month: `getMonth()`"]), "database")
    answer = block_answer("does getMonth() return 1 for january on a date?", [source])
    assert answer.lstrip().startswith("**Month: `getMonth()`**\n\nReturns the month as a number from 0 to 11"), answer


def test_the_rest_of_a_thought_comes_only_after_a_piece_the_answer_quotes():
    """physical-ai-book's "what does robot_state_publisher actually do": an odometry list's first item
    says an asked word and did not fit; the item after it, "Topic Name: /odom", came as its rest
    of the thought, alone under another page's heading."""
    publisher = _source("The state publisher reads the robot description and the joint states. It publishes the "
                        "transform of every link, so that other nodes know where each part of the robot is. "
                        "Visualisation tools read these transforms to draw the robot as it moves. The state publisher "
                        "runs as a node of its own and reads the description as a parameter when it starts.", 0.7, "p")
    publisher = Source(replace(publisher.chunk, heading="The state publisher", source_file="urdf.md"), "database")
    odometry = _source("- **Message Type**: `nav_msgs/Odometry`, which holds the pose and the "
                       "velocity of the base as the state estimator of the wheels has published them at every step of "
                       "its control loop, in the frame of the map\n- **Topic Name**: `/odom`\n- **Rate**: 50 Hz",
                       0.5, "o")
    odometry = Source(replace(odometry.chunk, heading="Example: Robot Odometry", source_file="topics.md"), "database")
    answer = block_answer("what does the state publisher do?", [publisher, odometry])
    assert "/odom" not in answer, answer


def test_a_passage_whose_chunk_an_earlier_one_read_stands_under_the_heading_of_what_it_reads_on_into():
    """physical-ai-book's "difference between a link and a joint": the first passage read on through
    the second's chunk, so the second was read from the chunk after it ("This node publishes the
    values of the joints …") and quoted with no heading, as if it were about the link above it."""
    joint = replace(_source("A `<joint>` element defines how two links are connected, from a parent link to a "
                            "child link.", 0.6, "joint").chunk, heading="2. <joint>")
    example = replace(_source("The example joint connects the base link to the head link and turns about the "
                              "vertical axis.", 0.55, "example").chunk, heading="2. <joint>")
    publisher = replace(_source("This node publishes the values of the joints defined in the URDF, so that other "
                                "nodes can read every joint angle.", 0.5, "publisher").chunk,
                        heading="2. joint_state_publisher (or hardware drivers)")
    page = {"joint": [example], "example": [publisher]}  # each read on one chunk
    answer = block_answer("which node publishes the values of the joints of the urdf?",
                          [Source(joint, "database"), Source(example, "database")],
                          following=lambda chunk: page.get(chunk.chunk_id, []))
    assert "**2. joint_state_publisher (or hardware drivers)**\n\nThis node publishes" in answer, answer



def test_a_piece_before_a_passages_first_heading_is_scored_under_the_chunk_its_text_opens_with():
    """survival-ts's "Moment.js ってもうオワコン？": the first passage read on through the "Moment.js" chunk, so the
    second, that chunk, was read from the "getDay()" chunk after it, and its "Returns the day of the week."
    was scored as the section named by Moment.js and opened the answer. Here it says nothing asked: it is
    not quoted."""
    libraries = replace(_source("Day.js is a light library for dates, with an API like the one of Moment.js.",
                                0.6, "dayjs").chunk, heading="Day.js")
    moment = replace(_source("It is widely known for dates, but it is no longer developed: new projects need not "
                             "adopt it.", 0.55, "moment").chunk, heading="Moment.js")
    day = replace(_source("Returns the day of the week, from 0 for Sunday to 6.", 0.5, "day").chunk,
                  heading="getDay()")
    page = {"dayjs": [moment], "moment": [day]}
    answer = block_answer("which date library should i use, is Moment.js dead?",
                          [Source(libraries, "database"), Source(moment, "database")],
                          following=lambda chunk: page.get(chunk.chunk_id, []))
    assert "no longer developed" in answer and "day of the week" not in answer, answer


def test_an_item_that_opens_on_the_item_before_it_is_quoted_with_it():
    """A genomics course's "why does fastqc say i have loads of duplicate reads": the answer opened on the
    item "on the other hand sequencing errors might make duplicate fragments appear not duplicated",
    without the item it answers ("So it might actually be over-estimating")."""
    page = ("## Sequence duplication levels\n\nThe plot has two caveats.\n\n"
            "- It counts one end of each pair only, so it might actually be over-estimating.\n"
            "- on the other hand sequencing errors might make duplicate reads appear not duplicated, leading to "
            "underestimation of the number of duplicates.\n")
    answer = block_answer("can sequencing errors make duplicate reads look not duplicated?", [_source(page)])
    assert "over-estimating" in answer and answer.index("over-estimating") < answer.index("on the other hand"), answer


def test_an_exercise_set_in_components_is_quoted_only_when_exercises_are_asked_for():
    """dibs-es: "que es una funcion pura?" ended on its exercise's solution ("Pura: No tiene efectos
    secundarios … Impura: Tiene un efecto secundario al imprimir en la consola"), answers to a
    question the student never saw. An `<Exercise>`'s label makes all of it, its `<Solution>`
    included, practice up to where it ends; the corollary after it is the book's prose again."""
    from server.ingest.clean import clean_markdown
    page = clean_markdown(
        "## Funciones Puras\n\nUna función es pura si su único efecto observable es procesar el input para producir "
        "un output, sin causar ningún otro cambio en el estado del programa.\n\n"
        "<Exercise title={\"Identificar Funciones Puras e Impuras\"}>\n"
        "    Identifica si las siguientes funciones puras o impuras lo son de verdad:\n\n"
        "    ```kotlin\n    fun add(a: Int, b: Int): Int = a + b\n    ```\n\n"
        "    <Solution>\n        1. **Pura**: No tiene efectos secundarios y solo realiza una operación.\n"
        "        2. **Impura**: Una función pura no imprime; esta tiene un efecto secundario al imprimir.\n"
        "    </Solution>\n</Exercise>\n\n"
        "<Corollary>\n    En general, si una función retorna `Unit`, es un indicio de que podría no ser pura.\n"
        "</Corollary>\n")
    answer = block_answer("que es una funcion pura?", [_source(page, 0.6, "pure")], "detailed")
    assert "su único efecto observable" in answer, answer
    assert "No tiene efectos secundarios" not in answer and "Identifica si" not in answer, answer
    assert "si una función retorna `Unit`" in answer, answer  # after the exercise: prose again
    asked = block_answer("dame ejercicios de funciones puras", [_source(page, 0.6, "pure")], "detailed")
    assert "Identifica si" in asked or "No tiene efectos secundarios" in asked, asked


def test_a_sentence_pointing_back_at_one_said_of_code_above_is_quoted_with_both_and_the_code():
    """dibs-es: "por que en kotlin no puedo saber el tipo generico en tiempo de ejecucion" opened on
    "Esto se debe a que en tiempo de ejecución, la JVM no puede saber …". Its sentence before ("El
    código anterior dará un warning …") was taken with it, then dropped, since the code it speaks
    of was not quoted: the answer never said what "esto" is. Now the code comes too."""
    page = ("## Limits of type erasure\n\nA program cannot check a list's element type while it runs:\n\n"
            "```kotlin\nif (list is List<String>) { println(\"strings\") }\n```\n\n"
            "The code above gives an unchecked cast warning. This is because at runtime the JVM cannot know the "
            "generic type of the list, so the check cannot be made.\n\n"
            "In Kotlin, a generic type cannot be used without its arguments.")
    answer = block_answer("why can't i know the generic type at runtime in kotlin", [_source(page, 0.6, "erasure")])
    assert "This is because" in answer, answer
    assert answer.index("```kotlin") < answer.index("The code above gives") < answer.index("This is because"), answer


def test_a_title_set_in_bold_is_never_quoted_as_a_sentence():
    """dibs-es: "Recursión profunda con DeepRecursiveFunction [2]." stood alone in an answer, a
    collapsible part's title. A paragraph that is one bold title is no sentence of the book; a
    bold lead-in ("**Commands:**") still introduces what follows, a bold sentence is still said."""
    page = ("## Recursión\n\n**Recursión profunda con `DeepRecursiveFunction`**\n\nEn Kotlin, las llamadas recursivas "
            "que no están en posición de cola pueden desbordar la pila si la recursión es muy profunda.\n\n"
            "**La recursión por la cola evita desbordar la pila.**\n\n**Comandos:**\n\n- `tailrec fun f()`")
    units = [u.text for u in units_of(page, 1)]
    assert not any(t.startswith("**Recursión profunda") for t in units), units
    assert "**La recursión por la cola evita desbordar la pila.**" in units
    assert any(t.startswith("**Comandos:**") for t in units), units
    answer = block_answer("por que se desborda la pila con recursion profunda", [_source(page)])
    assert "**Recursión profunda con `DeepRecursiveFunction`** [" not in answer, answer
    # a name in the title may hold underscores (the robotics book's "how do i set gravity in the world file")
    labelled = "## Spawning\n\n**Launch File Example (`spawn_robot.launch.py`)**\n\n```python\nimport os\n```"
    assert not any(t.startswith("**Launch File") for t in (u.text for u in units_of(labelled, 1)))


def test_code_asked_for_comes_from_a_section_the_answer_quotes_not_a_fourth():
    sections = [f"## Part {name}\n\nThe policy gradient method {name} updates the policy with clipped "
                f"ratios of {name} probabilities and an advantage estimate for {name}.\n" for name in
                ("alpha", "beta", "gamma")]
    code = "## Tables\n\n```python\nvalue = table[state]\n```\n"  # no word asked: quoted only as the code asked for
    asked = "show me the code: how do policy gradient methods update the policy with clipped ratios, alpha beta gamma?"
    sources = [_source(text, 0.6 - i / 100, chunk_id=f"s{i}") for i, text in enumerate([*sections, code])]
    answer = block_answer(asked, sources)
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", answer)}
    assert cited == {1, 2, 3} and "```" not in answer, answer  # the only code stands in a fourth section
    with_code = sections[0] + "\n```python\nratio = new_probability / old_probability\n```\n"
    answer = block_answer(asked, [_source(with_code, 0.6, "s0"), *sources[1:]])
    assert "ratio = new_probability" in answer and len({int(n) for n in re.findall(r"\[(\d+)\]", answer)}) <= 3


def test_an_exercise_whose_answer_the_book_folds_away_is_not_an_answer():
    """lhbg sets exercises as a numbered list, each with its solution in a collapsible
    (`<summary>Solution</summary>`): "what's functional core, imperative shell?" was answered
    with the solution's code and "2. Try implementing the "imperative shell" …"."""
    from server.ingest.clean import clean_markdown
    from server.question.compose.extractive.answer_units import units_of

    page = (CORPORA / "lhbg" / "src" / "05-glue" / "02-io.md").read_text(encoding="utf-8")
    text = clean_markdown(page[page.index("## Functional core"):page.index("## Do notation")])
    materials = {u.text.strip()[:20]: u.material for u in units_of(text, 1)}
    assert materials["2. Try implementing "] == "exercise" and materials["```hs\n   process :: "] == "exercise"
    assert materials["We don't need to add"] != "exercise"  # the chapter's own code before the exercises is not one
    answer = block_answer("what's functional core, imperative shell?", [_source(text, 0.6)])
    assert "Try implementing" not in answer and "process title = " not in answer
    assert "pushing it to the edge of the program" in answer


def test_a_question_the_book_asks_with_a_pointer_after_it_is_no_answer():
    """"why does the parser collect paragraph lines backwards?" was answered with lhbg's own
    "3. Why do we reverse `currentParagraph`? (See point (6))", not with point 6."""
    from server.ingest.clean import clean_markdown

    page = (CORPORA / "lhbg" / "src" / "04-markup" / "02-parsing_01.md").read_text(encoding="utf-8")
    text = clean_markdown(page[page.index("Things to note:"):page.index("This code above will group")])
    answer = block_answer("why does the parser collect paragraph lines backwards and reverse them at the end?",
                          [_source(text, 0.6)])
    assert "Why do we reverse" not in answer
    assert "singly-linked lists" in answer, answer
    from server.question.compose.extractive.answer_units import units_of

    items = text[text.index("1. We pass"):]  # a chunk that opens inside the list: its items, each a piece
    asked = [u for u in units_of(items, 1) if "Why do we reverse" in u.text]
    assert asked and all(u.asks for u in asked)


def test_a_section_the_question_names_whole_answers_it():
    """"what's functional core, imperative shell?": lhbg's section of that name never says those
    words in its text; the FAQ's one sentence naming them and the next section's code were quoted
    instead."""
    from server.ingest.clean import clean_markdown

    src = CORPORA / "lhbg" / "src"
    faq = (src / "12-faq.md").read_text(encoding="utf-8")
    io = (src / "05-glue" / "02-io.md").read_text(encoding="utf-8")
    structure = clean_markdown(faq[faq.index("### How to structure programs"):][:1500])
    section = clean_markdown(io[io.index("## Functional core"):io.index("And the following imports")])
    answer = block_answer("what's functional core, imperative shell?",
                          [_source(structure, 0.47, "a"), _source(section, 0.51, "b")])
    assert answer.lstrip().startswith("**Functional core, imperative shell**"), answer


def test_a_sentence_ending_on_these_brings_the_sentence_that_says_what_they_are():
    """"which tools can i use to trim adapters off my reads?": the genomics course names the tools
    in a sentence none of the question's words are in, and the next one, naming adapters, ends
    "… explore using these." Quoted alone, it named no tool."""
    from server.ingest.clean import clean_markdown

    page = (CORPORA / "whg-genomics" / "docs" / "sequence_data_analysis"
            / "introduction_to_next_generation_sequencing_data_analysis" / "Read_trimming.md").read_text(encoding="utf-8")
    answer = block_answer("which tools can i use to trim adapters off my reads?",
                          [_source(clean_markdown(page.split("---", 2)[2]), 0.68)])
    assert "[cutadapt](" in answer and answer.index("[cutadapt](") < answer.index("explore using these")


def test_an_admonition_set_as_a_question_is_the_students_work_not_the_answer():
    """whg-genomics's `:::tip Question` ("Look at the screen output from the above plink command.",
    then the questions) was quoted as the answer to "what does --indep-pairwise 50 5 0.2 mean?";
    the prose after the admonition is still the book's answer."""
    page = (CORPORA / "whg-genomics" / "docs" / "population_genetics" / "principal_components_analysis"
            / "ld_pruning.md").read_text(encoding="utf-8")
    passage = clean_markdown(page[page.index("The above command tells plink"):page.index("## Relatedness")])
    units = units_of(passage, 1)
    assert [u.material for u in units if "Look at the screen output" in u.text] == ["exercise"]
    assert [u.material for u in units if "prune.in" in u.text] == ["prose"]
    answer = block_answer("what is the prune.in file for?", [_source(passage)])
    assert "Look at the screen output" not in answer and "prune.in" in answer
    assert "Look at the screen output" in block_answer("are there questions to try on ld pruning?", [_source(passage)])


def _generators_page() -> str:
    return (CORPORA / "python-codex-i18n" / "i18n" / "en" / "docusaurus-plugin-content-docs" / "current"
            / "generator.md").read_text(encoding="utf-8")


def test_the_opening_reads_the_section_that_answers_not_on_into_the_next():
    """"whats a generator expresion" opened on the section's first sentence, skipped its two lead-ins
    to code and went on into "Generators vs. Lists" ("A list is like ordering food at a restaurant"),
    whose subsections then came in as the opening's own."""
    page = _generators_page()
    passage = page[page.index("## Generator Expressions"):page.index("### When to Use Each")]
    answer = block_answer("whats a generator expression", [_source(passage)])
    assert answer.startswith("**Generator Expressions**\n\nGenerator expressions provide a compact"), answer
    assert "restaurant" not in answer and "Late Binding" not in answer and "Unpacking" not in answer, answer


def test_a_term_with_a_word_questions_leave_out_is_found_where_it_is_said_whole():
    """"what is yield from for?": "from" and "for" are no asked words, and "yield" is in every
    sentence of the page; the answer opened on "Yielding Data" while "Nested Generators", the
    section on `yield from`, was the passage retrieval ranked first."""
    page = _generators_page()
    passage = page[page.index("### Yielding Data"):page.index("### Sending Data")]
    answer = block_answer("what is yield from for?", [_source(passage)])
    assert answer.startswith("**Nested Generators**\n\nYou can delegate generator operations"), answer
    assert block_answer("what is a for loop?", [_source("## Loops\n\nA loop repeats. You can loop with a while. "
                                                        "It ends when its test fails.\n\n## For\n\nA `for` loop "
                                                        "goes over each item of a list.\n")]).startswith("**For**")


def test_a_passages_nearness_counts_on_the_scale_the_weights_were_measured_in(monkeypatch):
    """e5's passages of a page lie within a few hundredths of each other (0.880, 0.864): read as
    MiniLM's cosines, the one retrieval put first counted for nothing against a heading naming an
    asked word. The extractive generator puts them on MiniLM's scale first."""
    import server.question.compose.extractive as extractive
    from server.embedding.choice import MULTILINGUAL, on_gate_scale
    from server.question.compose.extractive.piece_scores import score_pieces
    from server.question.compose.generator import GenerationInput

    sources = [_source("## Nested\n\nYou can delegate with yield from.", 0.880, "a"),
               _source("## Yielding\n\nA generator yields values.", 0.864, "b")]
    read = [(s.chunk.content, [s.chunk]) for s in sources]

    def contexts(**scale):
        return {s.unit.source: s.context for s in score_pieces("what is yield from for?", sources, None,
                                                               everything=False, read=read, **scale)}
    near, raw = contexts(scale=on_gate_scale(MULTILINGUAL)), contexts()
    assert (near[1] - near[2]) - (raw[1] - raw[2]) == pytest.approx(1.5 * (4.7 - 1) * 0.016, abs=1e-6)

    class E5:
        model_name = MULTILINGUAL
    seen = {}
    original = extractive.quoted_answer
    monkeypatch.setattr(extractive, "quoted_answer", lambda *a, **k: seen.update(k) or original(*a, **k))
    extractive.ExtractiveGenerator(E5()).quote(GenerationInput(question="what is yield from for?", sources=sources))
    assert seen["scale"](0.880) - seen["scale"](0.864) == pytest.approx(4.7 * 0.016)


def test_a_section_setting_the_two_compared_terms_side_by_side_answers_the_comparison():
    """"why would i use a generator instead of a list?" was answered from "Generator Expressions"
    ("they look identical to list comprehensions"): "instead of" compares, and "Generators vs. Lists"
    is the book's section on the two."""
    from server.text.definition import compared_terms, compares

    assert compared_terms("why would i use a generator instead of a list?") == ["generator", "list"]
    assert compared_terms("should i pick a tuple over a list for this?") == ["tuple", "list"]
    assert compares("Generators vs. Lists", ["generator", "list"]) and compares("Lists and Tuples", ["tuple", "list"])
    assert not compares("Generators", ["generator", "list"]) and not compares("Lists and Sets", ["tuple", "list"])
    # a heading that asks the comparison itself: survival-ts's page "undefinedとnullの違い"
    assert compares("undefinedとnullの違い", ["null", "undefined"]) and not compares("nullの違い", ["null", "undefined"])
    page = _generators_page()
    expressions = page[page.index("## Generator Expressions"):page.index("## Generators vs. Lists")]
    side_by_side = page[page.index("## Generators vs. Lists"):page.index("#### 2. Late Binding")]
    answer = block_answer("why would i use a generator instead of a list?",
                          [_source(expressions, 0.6, "a"), _source(side_by_side, 0.58, "b")])
    assert answer.startswith("**Generators vs. Lists**\n\nA list is like ordering food"), answer


def test_a_requests_frame_is_no_asked_word():
    """"give me an example of a generator" weighed "give" at three quarters of the question: no
    passage says it, and every piece saying "generator" counted for a quarter."""
    assert "give" not in asked_words("give me an example of a generator")
    assert "show" not in asked_words("can you show us how to write a loop?")
    assert {"give", "function"} <= asked_words("what does the give function return?")


def test_a_comparisons_frame_is_no_asked_word():
    """"whats the difference between String and &str" opened on the ownership chapter's "Multiple
    variables can interact with the same data in different ways …" and "A `String` is made up of
    three parts …", over the strings chapter's "Defining Strings", which says what both are:
    "difference" frames the comparison, and what is asked is the two."""
    rust = RUST_BOOK / "src"
    ownership = (rust / "ch04-01-what-is-ownership.md").read_text(encoding="utf-8")
    strings = (rust / "ch08-02-strings.md").read_text(encoding="utf-8")
    moves = ownership[ownership.index("#### Variables and Data Interacting with Move"):
                      ownership.index("#### Scope and Assignment")]
    defining = strings[strings.index("### Defining Strings"):strings.index("### Creating a New String")]
    answer = block_answer("whats the difference between String and &str",
                          [_source(moves, 0.55, "a"), _source(defining, 0.52, "b")])
    assert answer.startswith("**Defining Strings**"), answer
    assert "different ways" not in answer, answer
    # a section named by both is the answer, as before
    both = "## String and &str\n\nA `String` owns its text; a `&str` borrows it.\n"
    assert block_answer("whats the difference between String and &str",
                        [_source(moves, 0.55, "a"), _source(both, 0.5, "b")]).startswith("**String and &str**")


def test_a_passage_opening_inside_a_sentence_another_holds_whole_does_not_repeat_its_end():
    """Asked on the Rust book's Result page "can i use ? in a function that returns Option", the
    answer ended "… but you can't mix and match [2]. returns `Option`, but you can't mix and match
    [3].": the page's next chunk opens inside that sentence, and its end was a piece of its own."""
    from server.question.compose.extractive.piece_scores import score_pieces

    whole = ("Note that you can use the `?` operator on a `Result` in a function that returns `Result`, and you can "
             "use the `?` operator on an `Option` in a function that returns `Option`, but you can’t mix and match.")
    # the passage before it, read on into what the first passage has not read of the page: that sentence's end
    inside = ("The other choice is to use a `match` or one of the `Result<T, E>` methods to handle the "
              "`Result<T, E>` in whatever way is appropriate.\n\nreturns `Option`, but you can’t mix and match.")
    sources = [_source(whole, 0.57, "a"), _source(inside, 0.55, "b")]
    pieces = [s.unit.text for s in score_pieces("can i use ? in a function that returns Option", sources, None,
                                                everything=False, read=[(whole, []), (inside, [])])]
    assert sum("mix and match" in piece for piece in pieces) == 1, pieces
    assert any(piece.startswith("The other choice") for piece in pieces)  # the rest of that passage stays


def test_an_opening_ending_on_a_topic_sentence_reads_its_paragraph():
    """"why does my code say cannot use the ? operator in a function that returns ()" on the Rust
    book's Result page ended "To fix the error, you have two choices." (or on the first of them):
    the paragraph it opens is what it announces."""
    page = (RUST_BOOK / "src" / "ch09-02-recoverable-errors-with-result.md").read_text(encoding="utf-8")
    where = page[page.index("#### Where to Use the `?` Operator"):page.index("The error message also mentioned that")]
    answer = block_answer("why does my code say cannot use the ? operator in a function that returns ()",
                          [_source(where, 0.55, "a")])
    assert "you have two choices. One choice is" in answer and "The other choice is" in answer, answer

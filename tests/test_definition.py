"""A question asking what a term is is answered from the passage that defines it: the one that
sets the term in italics or bold, says what it is, or is headed by its name, though another
passage using the term more often lies nearer the question."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st

from server.book.chunk import Chunk
from server.question.compose.extractive.answers import block_answer
from server.question.context import Source
from server.question.gather.lexical import rerank
from server.question.judge.gate import admitted
from server.text.definition import (code_names, compared_terms, headed_by, defined_term, defines, defining,
                                     says_operator)
from server.text.vocabulary import BookVocabulary
from tests.places import CORPORA, RUST_BOOK


def _chunk(chunk_id: str, text: str, score: float, heading: str = "") -> Chunk:
    return Chunk(chunk_id=chunk_id, book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                 url="", module="", chapter="", section="", heading=heading, section_hierarchy=[heading], page=0,
                 source_location="", citation="", file_hash="", embed_text=f"{heading}\n{text}", score=score)


def _page(name: str, start: str, end: str) -> str:
    page = (RUST_BOOK / "src" / name).read_text(encoding="utf-8")
    return page[page.index(start):page.index(end)]


# the rust book's traits: the derivable traits' appendix uses "trait" most, the chapter defines it
DERIVE = _page("appendix-03-derivable-traits.md", "## Appendix C", "### `Debug`")
TRAITS = _page("ch10-02-traits.md", "## Defining Shared Behavior", "### Defining a Trait")


def test_the_term_a_question_asks_the_meaning_of():
    for question, term in (("what's a trait", "trait"), ("What is a trait?", "trait"), ("define odometry", "odometry"),
                           ("what does ZMP mean?", "ZMP"), ("what are lifetimes?", "lifetimes"),
                           ("¿Qué es un mock?", "mock"), ("トレイトとは？", "トレイト"), ("什么是装饰器？", "装饰器"),
                           ("what does sorry do", "sorry"), ("What does `rfl` do?", "rfl"),
                           # how simply it is to be said is no part of the term
                           ("explicame una monada facil", "monada"), ("explícame qué es una mónada", "mónada"),
                           ("explain monads simply", "monads"), ("can you explain what a monad is?", "monad"),
                           ("what is a monad in simple terms?", "monad"), ("explain recursion like im five", "recursion"),
                           ("whats a closure exactly?", "closure"),
                           # Urdu, the term after where it is asked about: "a node, in ROS 2"
                           ("ROS 2 میں نوڈ کیا ہوتا ہے؟", "نوڈ"), ("ٹاپکس کیا ہیں؟", "ٹاپکس"),
                           # where it is asked about, and what it is for, are no part of it either (tpil4)
                           ("what does the universal quantifier mean in lean", "universal quantifier"),
                           ("what is calc used for?", "calc"), ("what does a node do in ros 2?", "node"),
                           ("how does do notation work?", "do notation")):
        assert defined_term(question) == term, question
    for question in ("what is this?", "what's the difference between a trait and a struct?",
                     "how do i implement a trait?", "what is the best way to learn rust and python fast?",
                     "explain this", "explain how ros works", "explícame cómo funciona el trampolín",
                     "explain the difference between a trait and a struct", "explain what this code does",
                     "how does this work?"):
        assert defined_term(question) is None, question


def test_a_text_defines_a_term_it_sets_apart_or_says_what_it_is():
    assert defines(TRAITS, "trait") and defines("Lifetimes are another kind of generic.", "lifetimes")
    assert defines("Rust’s closures are anonymous functions you can save in a variable.", "closure")
    assert defines("A **smart pointer** acts like a pointer.", "smart pointers")
    assert not defines(DERIVE, "trait") and not defines("A _trait object_ points to an instance.", "trait")
    # something said of the term is not what it is; a name holding it is not it
    assert defines("Cargo is Rust’s build system and package manager.", "cargo")
    assert not defines("Cargo is designed so that you can extend it.", "cargo")
    assert not defines("A generator is like a conveyor-belt sushi bar.", "generator")  # an analogy
    assert not defines("Use a **generator** if:", "generator")  # a stressed word, not a term set apart
    assert defines("We call the action of creating a reference _borrowing_.", "borrowing")
    # in Japanese and Chinese, opening a sentence or an item, a link's words read as the term
    assert defines("- [Promise](reference/promise.md)は非同期操作の最終的な完了を表す。", "Promise")
    assert defines("装饰器是一种函数。", "装饰器") and not defines("次の例はPromiseを返す。", "Promise")
    assert defines("A **smart\npointer** acts like a pointer.", "smart pointer")
    assert not defines("We’ve named our project _hello_cargo_.", "cargo")
    assert defining(["Shadowing"], "You can declare a new variable with the same name.", "shadowing")


def test_a_heading_glossing_the_term_names_it():
    """"ユニオン型ってなに？" of a book whose page is headed "ユニオン型 (union type)": the gloss in
    brackets is the name's other spelling, not a different subject."""
    assert headed_by("ユニオン型 (union type)", "ユニオン型") and headed_by("ユニオン型 (union type)", "union type")
    assert headed_by("Ownership（所有権）", "ownership") and headed_by("Lifetimes", "lifetime")
    assert not headed_by("判別可能なユニオン型 (discriminated union)", "ユニオン型")
    book = BookVocabulary.from_texts([DERIVE, TRAITS])
    chunks = [_chunk("tagged", "判別可能なユニオン型はしるしのついた特別なユニオン型です。", 0.90,
                     heading="判別可能なユニオン型 (discriminated union)"),
              _chunk("union", "TypeScriptのユニオン型(union type)は「いずれかの型」を表現するものです。", 0.89,
                     heading="ユニオン型 (union type)")]
    assert [c.chunk_id for c in rerank("ユニオン型ってなに？", chunks, book)][0] == "union"


def test_what_a_name_in_code_does_said_with_it_as_the_subject_defines_it():
    """"what does sorry do?" of the Lean book: "The ``sorry`` identifier magically produces a proof of
    anything" is the answer, though MiniLM reads "sorry" as an apology and ranks it low."""
    assert defines("The ``sorry`` identifier magically produces a proof of anything, or an object.", "sorry")
    assert defines("- `rfl` closes target using reflexivity.", "rfl")
    assert defines("Proofs are terms. The `?` operator returns the error early.", "?")
    assert not defines("Here `sorry` closes it.", "sorry")  # not its subject
    assert not defines("The `sorry` identifier was used above.", "sorry")  # said of it, not what it does
    assert not defines("The `sorry` identifier has a cost.", "sorry")
    assert not defines("The sorry state of affairs continues.", "sorry")  # not set in code: an everyday word
    near = _chunk("sorry", "The ``sorry`` identifier magically produces a proof of anything.", 0.22,
                  heading="Examples of Propositional Validities")
    assert admitted("what does sorry do?", [near], 0.3, unknown_terms=[], model_judges=False) == [near]
    assert admitted("why am i sorry?", [near], 0.3, unknown_terms=[], model_judges=False) == []


def test_a_name_in_code_said_with_its_kind_is_what_the_sentence_says_it_is():
    """"what does unwrap do" on the Rust book's Result page was answered from "The Never Type" ("we
    won't be returning a value from `unwrap`"): "The `unwrap` method is a shortcut method …" says
    what it is, with its kind between the name and "is"."""
    assert defines("The `unwrap` method is a shortcut method implemented just like the `match` expression.", "unwrap")
    assert defines("The `Box<T>` type is a smart pointer.", "Box<T>")
    assert defines("The ``exact`` command is just a variant of ``apply`` which signals …", "exact")  # the Lean book's
    assert not defines("The unwrap method is fine.", "unwrap")  # not set in code: the kind is no kind of it
    assert not defines("The `unwrap` method is also handy here.", "unwrap")  # something said of it


def test_the_passage_defining_the_term_comes_first_among_near_ones():
    book = BookVocabulary.from_texts([DERIVE, TRAITS])
    chunks = [_chunk("derive", DERIVE, 0.58), _chunk("traits", TRAITS, 0.56)]
    assert [c.chunk_id for c in rerank("what's a trait?", chunks, book)] == ["traits", "derive"]
    assert [c.chunk_id for c in rerank("which traits can be derived?", chunks, book)] == ["derive", "traits"]


def test_a_definition_question_is_answered_with_the_definition():
    sources = [Source(_chunk("derive", DERIVE, 0.64), "database"), Source(_chunk("traits", TRAITS, 0.56), "database")]
    answer = block_answer("what's a trait?", sources)
    assert answer.lstrip().startswith("**Defining Shared Behavior with Traits**") and "A *trait* defines" in answer, answer


def test_the_books_passage_on_the_term_is_admitted_though_its_cosine_is_low():
    """"what is shadowing?" on the Rust book: its section "Shadowing" is under the threshold (MiniLM
    finds the word's meaning elsewhere); it is the book's answer all the same. A question that
    does not ask what the term is stays held to the threshold."""
    section = _chunk("shadow", "You can declare a new variable with the same name as a previous variable.", 0.28,
                     heading="Shadowing")
    assert admitted("what is shadowing?", [section], 0.3, unknown_terms=[], model_judges=False) == [section]
    assert admitted("why would i ever shadow a loop counter?", [section], 0.3, unknown_terms=[],
                    model_judges=False) == []
    far = replace(section, score=0.05)
    assert admitted("what is shadowing?", [far], 0.3, unknown_terms=[], model_judges=False) == []


NOTE = ("> Note: we are using two new things here: guards and the `LambdaCase` language extension.\n>\n"
        "> 1. Guards, as seen in `sayDiv2` are just a nicer syntax around `if-then-else` expressions.\n"
        ">    Using guards, we can have multiple `if` branches and finally use the `else` branch\n>\n"
        "> 2. LambdaCase, as seen in `catch`, is just a syntactic sugar to save a few characters")


def test_a_term_defined_in_a_notes_list_is_defined_there():
    """The Haskell book's "what are guards" was refused: the one passage saying what guards are is an
    item of a note on two new things ("> 1. Guards, as seen in `sayDiv2` are just a nicer syntax …"),
    far in meaning from the question (0.20, under the threshold). Said plainly ("is just a …"),
    after an aside ("as seen in …"), on a note's or a list's line, it is what the term is."""
    assert defines(NOTE, "guards") and defines(NOTE, "LambdaCase")
    assert defines("- Closures are simply a way to capture state.", "closures")
    assert not defines("Closures are just as fast as functions.", "closures")
    assert not defines("Closures are just like functions.", "closures")
    assert not defines("> We use guards, as seen above, in every function.", "guards")
    note = _chunk("note", NOTE, 0.1997, heading="Exceptions")
    assert admitted("what are guards", [note], 0.3, unknown_terms=[], model_judges=False) == [note]
    # what the term is, said in the text, answers however far in meaning (a list's "**Restitution**: …" at 0.075)
    far = replace(note, score=0.05)
    assert admitted("what are guards", [far], 0.3, unknown_terms=[], model_judges=False) == [far]
    # the floor is for a passage that defines the term: one that only names it is held to the threshold
    named = _chunk("named", "> We use guards in `sayDiv2` and pattern matching elsewhere.", 0.1997, heading="Exceptions")
    assert admitted("what are guards", [named], 0.3, unknown_terms=[], model_judges=False) == []


OPENING = ("We've already seen pattern matching a few times. It is an incredibly versatile feature of Haskell; "
           "we can use it to do two main things:\n\n1. Deconstruct complex values\n2. Control flow")
FURTHER = "We can also try to match a value with more than one pattern, and the top pattern will win."
DEEP = ("Since pattern matching goes arbitrarily deep, we could instead pattern match all the way through in one "
        "case expression:\n\n```hs\nansiToUbuntu ansiColor =\n  case ansiColor of\n    AnsiColor Dark Black -> RGB 1 1 1\n```")


def test_a_section_named_by_the_term_is_answered_from_its_opening():
    """"what's pattern matching?" on the Haskell book: the section "Pattern Matching" opens on what
    it is; its later passages, and another section's code, lie nearer the question."""
    opening = replace(_chunk("opening", OPENING, 0.50, heading="Pattern Matching"), position=2)
    further = replace(_chunk("further", FURTHER, 0.53, heading="Pattern Matching"), position=4)
    deep = replace(_chunk("deep", DEEP, 0.58, heading="Pattern matching on linked lists"), position=10)
    book = BookVocabulary.from_texts([OPENING, FURTHER, DEEP])
    ranked = [c.chunk_id for c in rerank("what's pattern matching?", [deep, further, opening], book)]
    assert ranked.index("opening") < ranked.index("further")
    answer = block_answer("what's pattern matching?", [Source(c, "database") for c in (deep, further, opening)])
    # under its heading: the chunk holds no heading line of its own (it opens inside its section)
    assert answer.lstrip().startswith("**Pattern Matching**\n\nWe've already seen pattern matching"), answer


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80), st.text(max_size=200))
def test_any_question_and_text_are_read_without_failing(question, text):
    term = defined_term(question)
    assert term is None or (term and len(term.split()) <= 3)
    compared = compared_terms(question)
    assert compared == [] or (len(compared) == 2 and all(t and len(t.split()) <= 3 for t in compared))
    if term:
        assert isinstance(defines(text, term), bool) and isinstance(defining([text[:20]], text, term), bool)


def test_an_urdu_question_asks_for_a_term_and_a_numbered_or_asking_heading_names_it():
    """On the Urdu pages of the robotics book, "نوڈ کیا ہوتا ہے؟" (what is a node?) opened on the
    troubleshooting entry "نوڈ کریش ہو رہا ہے" (node crashing): the question was not read as asking
    for a term, and the section "1. نوڈز (Nodes)" did not count as named by it."""
    assert defined_term("نوڈ کیا ہوتا ہے؟") == "نوڈ" and defined_term("QoS کسے کہتے ہیں؟") == "QoS"
    assert defined_term("ٹاپکس کیا ہیں؟") == "ٹاپکس" and defined_term("ROS 2 کیا ہے؟ آسان الفاظ میں بتائیں") is None
    assert headed_by("1. نوڈز (Nodes)", "نوڈ") and headed_by("1. Nodes", "node") and headed_by("2.3 Topics", "topic")
    assert headed_by("What Are Topics?", "topic") and headed_by("ٹاپکس کیا ہیں؟", "ٹاپک")  # a heading that asks it
    assert not headed_by("❓ نوڈ کریش ہو رہا ہے", "نوڈ") and not headed_by("What Are Services?", "topic")


def test_the_terms_a_question_compares():
    assert compared_terms("what is the difference between a link and a joint in urdf") == ["link", "joint"]
    assert compared_terms("what's the difference between forward and inverse kinematics?") == [
        "forward kinematics", "inverse kinematics"]
    assert compared_terms("what's the difference between a method and an associated function like String::from?") == [
        "method", "associated function"]
    assert compared_terms("Rc vs Arc?") == ["Rc", "Arc"]
    assert compared_terms("how is a tuple different from a list?") == ["tuple", "list"]
    assert compared_terms("¿cuál es la diferencia entre una clase y un objeto?") == ["clase", "objeto"]
    assert compared_terms("interfaceとtype aliasの違いは？") == ["interface", "type alias"]
    assert compared_terms("列表和元组有什么区别？") == ["列表", "元组"]
    assert compared_terms("how do null and undefined differ?") == ["null", "undefined"]
    assert compared_terms("nullとundefinedってどう違うの？") == ["null", "undefined"]  # as the "…の違い" asked
    assert compared_terms("letとconstは何が違いますか") == ["let", "const"]
    assert compared_terms("what is the difference?") == [] and compared_terms("how do links work?") == []
    assert compared_terms("how do links and joints work?") == []


def test_a_comparison_is_answered_with_what_the_book_says_each_term_is():
    """physical-ai-book's "what is the difference between a link and a joint in urdf": the answer
    opened on a list naming links and joints in passing ("Many Joints", "Link Geometries"), the
    sentence saying what a link is left out."""
    crucial = _chunk("crucial", "URDF's ability to precisely define:\n\n- **Many Joints**: Humanoids can have dozens "
                     "of joints, each needing its limits.\n- **Link Geometries**: the shape and size of each body part "
                     "for visualization and collision.\n- **Inertial Properties**: the mass of each link.", 0.62,
                     heading="Why is URDF Crucial for Humanoids?")
    joint = _chunk("joint", "A `<joint>` element defines how two links are connected. It specifies the relationship "
                   "between a `parent` link and a `child` link, and the axis the child turns about.", 0.60,
                   heading="2. <joint>")
    link = _chunk("link", "A `<link>` element defines a rigid body segment of the robot. It holds its visual, "
                  "collision and inertial properties, each written as a nested element.", 0.55, heading="1. <link>")
    answer = block_answer("what is the difference between a link and a joint in urdf?",
                          [Source(c, "database") for c in (crucial, joint, link)])
    assert answer.lstrip().startswith(("**2. <joint>**", "**1. <link>**")), answer  # not the list naming both
    assert "rigid body segment" in answer and "how two links are connected" in answer, answer


def test_the_names_in_code_a_question_asks_about():
    assert code_names("DateのgetMonth()って1月のとき1が返ってくる？") == ["getMonth"]
    assert code_names("what does robot_state_publisher actually do") == ["robot_state_publisher"]
    assert code_names("Promise.all vs String::from, and `simp`?") == ["Promise.all", "String::from", "simp"]
    assert code_names("strictNullChecksって何バージョンで入ったの？") == ["strictNullChecks"]
    assert code_names("e.g. what is a trait? i.e. an interface?") == []
    assert code_names("how do i install rust on windows") == []
    # an operator named as a thing, not one used in code the question quotes
    assert code_names("what does the $ operator do?") == ["$"]
    assert code_names("whats the difference between > and >> in the terminal") == [">", ">>"]
    assert code_names("what's the := thing called in python?") == [":="]
    assert code_names("0.1 + 0.2が0.3にならないのなんで？") == code_names("filter((n) => n)したら0まで消えた") == []
    assert code_names("why does fn first_word(s: &str) -> &str compile?") == ["first_word"]


def test_a_heading_names_a_name_in_code_whole_or_as_the_last_part_of_a_qualified_name():
    assert headed_by("月を取得する - Date.prototype.getMonth()", "getMonth")
    assert headed_by("月を取得する - Date.prototype.getMonth()", "`getMonth()`")  # "what is `getMonth()`?"
    assert headed_by("すべての非同期処理の結果を待ち受ける - Promise.all()", "Promise.all")
    assert not headed_by("Promise.allSettled()", "Promise.all")
    assert not headed_by("Getting the month", "getMonth")  # a word of the heading, not the name
    assert headed_by("Traits", "trait") and not headed_by("Trait objects", "trait")  # plain terms as before
    assert headed_by("What are these `$`?", "$") and headed_by(">>=", ">>=") and not headed_by(">>=", ">")
    assert says_operator("`$` is right-associative", "$") and says_operator("Html.ul_ $ map", "$")
    assert not says_operator("getLine >>= putStrLn", ">") and not says_operator("a >>= b", ">>")
    assert says_operator("use `>>` instead of `>`:", ">") and not says_operator("a prompt: <prompt> %", ">")


@given(st.text(max_size=80))
def test_names_in_code_are_written_in_the_question(question):
    for name in code_names(question):
        assert name and name in question


def test_a_question_naming_code_opens_on_the_section_whose_heading_names_it():
    """survival-ts: "DateのgetMonth()って…" opened on a column whose code calls `d.getMonth()`, while the
    section "月を取得する - `Date.prototype.getMonth()`" (gets the month, 0-11: add 1) went unread."""
    lines = (CORPORA / "survival-ts" / "docs" / "reference" / "builtin-api" / "date.md").read_text(
        encoding="utf-8").splitlines()
    getters = "\n".join(lines[lines.index("### 月を取得する - `Date.prototype.getMonth()`"):
                         lines.index("### 時を取得する - `Date.prototype.getHours()`")])
    column = "\n".join(lines[lines.index("## コラム: Dateの問題点の由来"):][:14])
    assert "d.getMonth() + 1" in column
    answer = block_answer("DateのgetMonth()って1月のとき1が返ってくる？", [
        Source(_chunk("getters", getters, 0.6, "月を取得する - Date.prototype.getMonth()"), "database"),
        Source(_chunk("column", column, 0.58, "コラム: Dateの問題点の由来"), "database")])
    assert answer.startswith("**月を取得する - `Date.prototype.getMonth()`**\n\n月を取得しますが、0-11を返す"), answer


def test_an_operator_asked_about_by_name_is_answered_where_the_book_says_it():
    """lhbg: "what does the $ operator do?" gave the aside on operator precedence, whose heading says
    "operator"; `$` was no word of the question, and its note went unread."""
    src = CORPORA / "lhbg" / "src"
    note = (src / "05-glue" / "01-markup_to_html.md").read_text(encoding="utf-8")
    note = note[note.index("## Converting `Markup.Structure`"):note.index("## Document -> Html")]
    aside = (src / "03-html" / "01-html_content.md").read_text(encoding="utf-8")
    aside = aside[aside.index("> #### An aside about operator precedence"):][:1500]
    answer = block_answer("what does the $ operator do?", [
        Source(_chunk("aside", aside, 0.46, "An aside about operator precedence and fixity"), "database"),
        Source(_chunk("note", note, 0.44, "Converting Markup.Structure to Html.Structure"), "database")])
    assert "`$` is right-associative" in answer, answer
    assert answer.index("`$`") < answer.find("When there are multiple operators") or \
        "When there are multiple operators" not in answer, answer


def test_an_operator_of_a_semicolon_or_a_dash_is_named_as_one():
    """"what does <;> do" (Lean's combinator) and "what does -> mean" asked about nothing: their
    characters were no operator's. (Rust's `?` is left out: named in every sentence of its
    section, "The `?` operator follows …", each would define it.)"""
    from server.text.definition import named_operators

    assert named_operators("what does <;> do") == ["<;>"]
    assert named_operators("what does -> mean") == ["->"]
    assert named_operators("what is this?") == [] and named_operators("is a - b the same?") == []
    combinators = ("You can also use the combinator ``tac1 <;> tac2`` to apply ``tac2`` to each subgoal produced by "
                   "tactic ``tac1``.")
    rewriting = "You can also use the ascii equivalent, ``<-``. The ``rw`` tactic chooses the first match it finds."
    answer = block_answer("what does <;> do", [Source(_chunk("rw", rewriting, 0.31, "Rewriting"), "database"),
                                               Source(_chunk("comb", combinators, 0.3, "Tactic Combinators"), "database")])
    assert answer.startswith("**Tactic Combinators**"), answer


def test_a_sentence_defining_the_term_outweighs_a_heading_that_shares_its_stem():
    """A highlighted "cluster" asked "what does this mean" on whg-genomics's sequencing page: the
    page's "… multiple copies of each fragment - called a **cluster**" was passed over for a heading
    "Distance matrices and hierarchical clustering" (the stem "clust") and "Running it on the cluster"."""
    page = _chunk("page", "To generate enough intensity for imaging, the ligated fragments above undergo "
                  "*amplification on the flowcell* that generates multiple copies of each fragment - called a "
                  "**cluster**. This process keeps the fragments local so that they are imaged together.", 0.45,
                  heading="What paired-end data actually looks like")
    clustering = _chunk("clustering", "Distances are not only useful for visualisation though: they enable us to "
                        "cluster tissues into groups according to how far away they are from each other. The "
                        "`hclust()` function performs hierarchical clustering on a distance matrix.", 0.43,
                        heading="Distance matrices and hierarchical clustering")
    compute = _chunk("compute", "The above sends off all those jobs to the cluster and keeps track of them for you.",
                     0.37, heading="Running it on the cluster")
    answer = block_answer("what does cluster mean?", [Source(c, "database") for c in (page, clustering, compute)])
    assert answer.lstrip().startswith("**What paired-end data actually looks like**"), answer
    assert "called a **cluster**" in answer.split("\n\n")[1], answer


def test_a_named_option_is_defined_by_an_aside_saying_what_it_does():
    item = "* The `--keep-allele-order` option, which prevents plink from 'flipping' the two alleles around."
    for term in ("--keep-allele-order option", "--keep-allele-order"):
        assert defines(item, term), term
    assert defines("* the `--ci` option, which makes plink output a standard error", "--ci")
    # a plural written against the name is no verb said of it; a name set in a sentence about something else is no definition
    assert not defines("`Box`es are useful", "Box")
    assert not defines("We ran it with the `--keep-allele-order` option, which took a minute.", "--covar")

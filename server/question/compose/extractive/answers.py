"""The extractive answer: the sentences, list items, tables and code of the retrieved passages
that answer the question, quoted as the book wrote them, in the book's order, each passage cited.

Each book passage is read on into the chunks after it on its page (continuation.py): a list,
a cut sentence or a lead-in's answer often runs on past the chunk's end. Every piece of the
passages (answer_units.py) is scored against the question (piece_scores.py).

The answer opens with the stretch of one passage, read straight through, that says the most of
what is asked (opening.py). Then every piece that says something
asked, best first from whichever passage (see _choose), up to a short reading length (code and
tables do not count); each piece with what it depends on (a lead-in's block, the sentence
before one that refers back), in the book's order under the heading it stands under. Nothing is
embedded here, so an answer takes a few milliseconds.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, NamedTuple

from server.question.compose.extractive.answer_units import Unit
from server.question.compose.extractive.pointing import points_above, shows_a_block
from server.question.compose.extractive.thought import carried_on, going_on, in_a_row, with_dependencies, with_rest_of_thought
from server.book.chunk import Chunk
from server.question.context import Source
from server.text.definition import compared_terms, defined_term
from server.question.holding import holder
from server.question.compose.extractive.continuation import (Following, Preceding, cited_where_read, read_passages,
                                                              shown_under)
from server.question.compose.extractive.lists import compared_entries, cut_list
from server.question.compose.extractive.rendering import rendered
from server.question.compose.extractive.opening import (MAX_SECTIONS, code_blocks, lead_in_alone, opening_stretch,
                                                         passage, said_before_aside, shown_alone)
from server.question.compose.extractive.sections import PieceSections, Section, in_book_order
from server.question.compose.extractive.asks_for import asks_for_code, asks_for_example, asks_how_to, has_code
from server.question.compose.extractive.piece_scores import HEADING_ID, Scored, reading_words, score_pieces
from server.question.compose.extractive.weighing import weighing_only
from server.question.compose.extractive.page_use import lead_with_page_use
from server.question.compose.extractive.question_words import prefixes
from server.text.lengths import reading_length
from server.text.vocabulary import BookVocabulary, words

WORDS_BY_LENGTH = {"short": 45, "normal": 90, "detailed": 180}  # reading length of prose and lists
MIN_MORE = 10  # reading words left that are worth another piece
_QUESTION_WORDS = frozenset("""what which when where who whom whose why how does did doing done the and for with
from into that this these those are was were can could should would will shall have has had get use using make
need there their about your you any some all""".split())


def _is_table(unit: Unit) -> bool:
    return unit.kind == "table" or unit.introduces == "table"


def _length(units: list[Unit], headed: set[tuple[int, str]] = frozenset()) -> int:
    """The reading words of the pieces and of the headings they are shown under (one for each
    passage's heading not in `headed`)."""
    headings = {(u.source, u.heading) for u in units if u.heading} - headed
    return sum(map(reading_words, units)) + sum(reading_length(HEADING_ID.sub("", h)) for _, h in headings)


def _choose(scored: list[Scored], budget: int, wants_code: bool, highlighted: dict[int, int],
            how_to: bool = False, sections: PieceSections | None = None,
            defining: bool = False, question: str = "") -> list[Unit]:
    """The opening stretch, then what _more adds in what is left of the reading length; where a
    passage is highlighted, its own order leads instead."""
    if highlighted or not scored:
        return _more(scored, budget, wants_code, highlighted)
    by_key = {s.unit.key: s.unit for s in scored}
    weighing = weighing_only(scored, question)
    opening = opening_stretch(scored, budget, wants_code, how_to, sections, weighing)
    chosen = {u.key: u for u in [u for first in opening[:1] for u in with_dependencies(first, by_key)] + opening[1:]}
    # an opening that ends on a topic sentence goes on into its paragraph, over the reading length if
    # need be (the paragraph from it within the length): "To fix the error, you have two choices." is
    # no answer without them; one that a sentence goes on from ("This is …"), into that sentence
    topic = carried_on(opening[-1], by_key) if opening else None
    carried = topic or (going_on(opening[-1], by_key) if opening else None)
    if carried is not None and carried.key not in chosen:
        paragraph = [opening[-1], carried]
        while topic is not None and (after := by_key.get((carried.source, carried.block, paragraph[-1].index + 1))) \
                is not None and after.kind == "sentence" and _length([*paragraph, after]) <= budget:
            paragraph.append(after)
        chosen.update((u.key, u) for u in paragraph[1:])
    leading = set(chosen)
    left = budget - _length(list(chosen.values()))
    if left >= MIN_MORE:
        # a lead-in opening without its code: its code still comes for an asked word the answer does not say
        alone = {key: set(prefixes(chosen[key].text)) for key in shown_alone(chosen, by_key)}
        rest = [s for s in scored if s.unit.key not in chosen or s.unit.key in alone]
        said = {word for s in scored if s.unit.key in chosen for word in s.covers
                if s.unit.key not in alone or word in alone[s.unit.key]}
        # what a term is, once said, is not said again from elsewhere: another section comes for an asked
        # word it does not say yet (measured: for any question, the dev books lost what they answered with)
        # (its heading says it too: "Servo Motors" over "Motor + Gearbox + Controller" says "servo")
        spoken = {word for s in scored if s.unit.key in chosen and not has_code(s.unit) for word in s.covers} | {
            word for u in chosen.values() for word in prefixes(HEADING_ID.sub("", u.heading))} if defining else None
        chosen.update((u.key, u) for u in _more(rest, left, wants_code, {}, opened=list(chosen.values()),
                                                whole=budget, said=said, how_to=how_to, sections=sections,
                                                spoken=spoken, weighing_only=weighing))
    chosen = in_a_row(chosen, by_key)
    shown = {(u.source, u.block) for u in chosen.values() if shows_a_block(u)}
    chosen = {key: u for key, u in chosen.items()  # "The example above …" only with an example above it
              if not points_above(u) or any(source == u.source and block < u.block for source, block in shown)}
    # the opening first (with the pieces of its passage before it), then the rest of its heading, of its
    # section, then the others, each in the book's order (a passage can hold the sections before the one
    # that answers; another passage of the section, pieces before the opening)
    leading = _read_with(leading & chosen.keys(), chosen)
    section = sections or passage
    under, lead = {(u.source, u.heading) for u in opening}, {section(u) for u in opening}
    return sorted(chosen.values(), key=lambda u: (u.key not in leading, (u.source, u.heading) not in under,
                                                  section(u) not in lead, u.key))


def _read_with(leading: set[tuple], chosen: dict[tuple, Unit]) -> set[tuple]:
    """The opening's pieces and those quoted before it in its passage (its paragraph's sentences
    before it, the section's first line, the list that introduces its code): read with it, in the
    book's order. Another passage's pieces before it come after it."""
    first = min(leading, default=None)
    return leading | {key for key in chosen if first is not None and key[0] == first[0] and key < first}


def _more(scored: list[Scored], budget: int, wants_code: bool, highlighted: dict[int, int],
          opened: list[Unit] | None = None, whole: int | None = None, said: set[str] = frozenset(),
          how_to: bool = False, sections: PieceSections | None = None,
          spoken: set[str] | None = None, weighing_only: frozenset[tuple] = frozenset()) -> list[Unit]:
    """The best piece, then every piece that says something asked, best first, whichever passage
    holds it; then the sentence or item right after each of those quoted (the rest of the
    thought); then the rest of the highlighted passage in its order (`highlighted`: its pieces'
    numbers among the sources, and their places in it). Each while it fits the reading length
    (one code block at most unless asked for; one table at most: a reference table's rows are not an answer)."""
    if not scored:
        return []
    by_key = {s.unit.key: s.unit for s in scored}
    ranked = sorted(scored, key=lambda s: s.score, reverse=True)
    if highlighted and not opened:  # asked of a highlighted passage with the book beside it: what it says leads
        ranked.sort(key=lambda s: not (s.unit.source in highlighted and s.relevance > 0))
    section = sections or passage
    quoted = {section(u) for u in opened or []}
    leading = frozenset(quoted)  # the opening's sections: read on in freely, where the others need a word of their own
    # after an opening, the best piece is no code nobody asked for, and says something asked (in its
    # text, or its heading: "SLAM" over the sentence saying what it is) unless it reads on in the
    # opening's section (a problem's "Solution:" list)
    within = sections.within if sections is not None else lambda u, o: section(u) == section(o)
    best = next((s for s in ranked if not (opened and (has_code(s.unit) and not wants_code or (
        s.relevance <= 0 and s.context <= 0 and not any(within(s.unit, o) for o in opened))))), None)
    relevant = [s for s in ranked if s is best or s.relevance > 0]
    answering = {s.unit.key for s in relevant}
    unasked = sorted((s for s in ranked if s.relevance <= 0 and not has_code(s.unit)), key=lambda s: s.unit.key)
    after = [s for s in unasked if s.unit.before in answering]
    rest = sorted((s for s in unasked if s.unit.source in highlighted), key=lambda s: highlighted[s.unit.source])
    chosen: dict[tuple, Unit] = {}
    length = tables = 0
    code = own_code = sum(map(has_code, opened or []))  # one code block in all, the opening's included, unless asked
    headed = {(u.source, u.heading) for u in opened or []}
    said = set(said)  # the asked words the opening says
    quoting = {u.key for u in opened or []}  # the rest of a thought only after a piece quoted, not "/odom" alone
    for candidate in relevant + after + rest:
        if candidate in after and candidate.unit.before not in quoting | chosen.keys():
            continue
        unit = candidate.unit
        if not (wants_code or how_to) and unit.introduces == "code" and (alone := lead_in_alone(candidate)) is not None \
                and set(alone[1]) == set(candidate.covers) and said_before_aside(unit.text.partition("\n\n")[0]):
            if not set(candidate.covers) - said:
                continue  # a lead-in comes as its code would: for an asked word not yet said
            unit = alone[0]  # its code names nothing asked that its sentence does not say: the sentence alone
        adding = [unit if u.key == unit.key else u for u in with_rest_of_thought(candidate.unit, by_key)
                  if u.key not in chosen]
        more_length = _length(adding, headed)
        more_code, more_tables = sum(map(has_code, adding)), sum(map(_is_table, adding))
        if len(quoted | {section(u) for u in adding}) > MAX_SECTIONS and not highlighted:
            continue  # three sections at most: the one that answers and two for what it lacks
        if opened and not _within(section(candidate.unit), leading) and not candidate.titled and (
                candidate.unit.key in weighing_only or spoken is not None and not set(candidate.covers) - spoken):
            continue  # another section only for an asked word the answer's prose does not say yet, or the one it names
        if more_code and opened is not None and not wants_code and (code + more_code > 1 or (
                not set(candidate.covers) - said and not (how_to and candidate.relevance > 0))):
            continue  # a second code block, or code that says nothing the prose has not
        own = _within(section(candidate.unit), leading)
        if more_code and own_code and not own and not set(candidate.covers) - said:
            continue  # the answer quotes its section's code: another section's only for an asked word not yet said
        if not chosen and more_length > (whole or budget) and adding[-1] is candidate.unit:
            # the first piece always goes in, but a list longer than the whole answer is cut to fit
            # it, and is then the rest of the answer
            cut = cut_list(candidate, (whole or budget) - more_length + reading_words(candidate.unit))
            if cut is not None:
                chosen.update((u.key, u) for u in [*adding[:-1], cut])
                break
        if (chosen or opened) and code + more_code > code_blocks(wants_code):
            continue  # the opening's code counts: no code block over the few an answer quotes
        if chosen and (length + more_length > budget or tables + more_tables > 1):
            continue
        chosen.update((u.key, u) for u in adding)
        headed.update((u.source, u.heading) for u in adding)
        quoted.update(section(u) for u in adding)
        said.update(candidate.covers)
        if spoken is not None and not has_code(candidate.unit):
            spoken = spoken | set(candidate.covers)
        length, code, tables = length + more_length, code + more_code, tables + more_tables
        own_code += more_code if own and opened else 0
    if wants_code and not any(map(has_code, [*chosen.values(), *(opened or [])])):
        # the best code whose section is quoted, or fits in the three sections an answer quotes; with its lead-in,
        # in the section that answers ("列表推导式" › "基本用法": "…遍历 0 到 9：" and its code)
        code = next((s.unit for s in ranked if s.unit.kind == "code" and (len(quoted | {section(s.unit)}) <= MAX_SECTIONS
                     or highlighted) or s.unit.introduces == "code" and _within(section(s.unit), leading)), None)
        if code is not None:
            chosen[code.key] = code
    return sorted(chosen.values(), key=lambda u: (u.source not in highlighted, u.key))


def _within(section: Section | int, quoted: set) -> bool:
    """Is the section one quoted, or one of their subsections ("1. Human-Designed World" of "Why Humanoids?")?"""
    return section in quoted or isinstance(section, tuple) and any(
        isinstance(q, tuple) and q[0] == section[0] and section[1].startswith(f"{q[1]} › ") for q in quoted)


class Quoted(NamedTuple):
    text: str  # "" when the sources hold nothing to quote
    extra_sources: tuple[Chunk, ...] = ()  # chunks read on that pieces are cited from, numbered after the sources


def quoted_answer(question: str, sources: list[Source], answer_length: str = "normal",
                  book: BookVocabulary | None = None, following: Following | None = None, *,
                  page: str | None = None, scale: Callable[[float], float] = lambda score: score,
                  preceding: Preceding | None = None, term: str | None = None) -> Quoted:
    """The answer quoted from `sources` (best first). `book`: the book's vocabulary, for how
    rare each asked word is (else the passages'); `following`: the chunks after a book passage
    on its page, read with it (continuation.py), a piece from them cited where it is, and
    `preceding` the beginning of the sentence a passage opens inside of; `page`:
    the key of the page the question is asked on, whose passages weigh more; `scale`: the
    passages' scores on MiniLM's scale (piece_scores.py); `term`: a highlighted term, asked
    about as "what is X?" asks about X (another section only for what the first does not say)."""
    example = asks_for_example(question)
    wants_code = asks_for_code(question) and not example  # "show me an example": one, not the page's listings
    read = read_passages(sources, following, preceding)
    scored = score_pieces(question, sources, book, everything=False, read=read, page=page, scale=scale)
    if not any(s.relevance > 0 for s in scored):  # nothing asked in the prose: quizzes, exercises too
        everything = score_pieces(question, sources, book, everything=True, read=read, page=page, scale=scale)
        if not scored or any(s.relevance > 0 for s in everything):
            scored = everything
    if not scored:
        return Quoted("")
    for piece, unit in zip(scored, shown_under([s.unit for s in scored], read)):
        own = sources[unit.source - 1]
        if not unit.heading and own.source_type == "database" and own.chunk.heading \
                and holder(unit.text.partition("\n\n")[0], [own.chunk]) is not None:
            # a chunk that opens inside its section: what comes before its first heading line stands
            # under the section's heading, shown (and counted in the reading length) above it
            unit = replace(unit, heading=own.chunk.heading)
        piece.unit = unit
    highlighted = {n: getattr(s.chunk, "position", 0) for n, s in enumerate(sources, 1)
                   if s.source_type == "selected_text"}
    if example:
        lead_with_page_use(scored, sources, page, term)
    how_to = asks_how_to(question) or example  # code that says something asked answers
    chosen = _choose(scored, WORDS_BY_LENGTH.get(answer_length, 70), wants_code, highlighted, how_to,
                     PieceSections(sources, read), defining=term is not None or defined_term(question) is not None,
                     question=question)
    if len(compared := compared_terms(question)) == 2:
        chosen = [compared_entries(u, compared) for u in chosen]
    units, extra = cited_where_read(chosen, sources, read)
    if not highlighted:
        units = in_book_order(units, sources, extra, opened=True)
    return Quoted(rendered(units, {w for w in words(question) if len(w) >= 3} - _QUESTION_WORDS), tuple(extra))


def block_answer(question: str, sources: list[Source], answer_length: str = "normal",
                 book: BookVocabulary | None = None, following: Following | None = None) -> str:
    """The text of quoted_answer."""
    return quoted_answer(question, sources, answer_length, book, following).text

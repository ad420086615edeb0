"""A passage read on into the chunk after it: the overlap the chunk opens with is read once."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from server.question.compose.extractive.continuation import joined

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABC`.,;", min_size=1, max_size=9)


@given(st.lists(WORD, min_size=8, max_size=60, unique=True), st.data())
def test_a_paragraph_cut_in_two_reads_back_whole_whatever_the_chunk_repeats(words, data):
    """The chunker cuts a long paragraph at a line and the next chunk opens with the end of the
    one before (whole sentences, so from any word on); read back, the paragraph is itself again
    (words of a paragraph that repeats itself word for word could be taken for the overlap)."""
    cut = data.draw(st.integers(min_value=2, max_value=len(words) - 1))
    start = data.draw(st.integers(min_value=0, max_value=cut - 1))
    overlap = " ".join(words[start:cut])
    first = " ".join(words[:cut])
    second = overlap + "\n" + " ".join(words[cut:])
    read = " ".join(joined(first, second).split())
    if len(overlap) >= 12:
        assert read == " ".join(words)
    else:  # too short to be sure it is a repeat: kept, never lost
        assert read.startswith(first) and read.endswith(" ".join(words[cut:]))


class _Published:
    """A book's chunks as the index publishes them, enough for PageOrder."""

    def __init__(self, chunks):
        self.chunks = chunks

    def view(self, build):
        return build(self)


def test_a_passage_never_ends_on_a_sentence_the_chunker_cut(embedder):
    """The Rust book's page on RefCell: the chunker runs out of room inside sentences and list
    items ("- Because `RefCell<T>` allows … you can"). A passage read on to such a chunk reads on
    until the sentence is finished, and one that still stops inside a sentence ends where its last
    sentence did: no passage of the page ends on half a sentence."""
    from places import RUST_BOOK

    from server.ingest.chunker import chunk_page
    from server.ingest.pages import discover_pages
    from server.ingest.site import detect_site
    from server.question.compose.extractive.continuation import read_on
    from server.question.compose.extractive.page_order import PageOrder

    site = detect_site(RUST_BOOK)
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith("ch15-05-interior-mutability.md"))
    chunks = chunk_page(page, book_id="rust", book_title=site.title, count_tokens=embedder.count_tokens)
    order = PageOrder(lambda book_id: _Published(chunks), count=2)
    ended = re.compile(r"[.!?:;)\]`|>]\s*$")
    cut = [i for i, c in enumerate(chunks[2:-1], 2) if not ended.search(c.content)]
    assert len(cut) >= 5
    for i in cut:  # the passage whose last chunk read is cut goes on into the next
        following = order.after(chunks[i - 2])
        # only the sentence's end: the rest of the next chunk is the passage's that retrieved it
        opening = following[-1]
        assert opening.chunk_id != chunks[i + 1].chunk_id and chunks[i + 1].content.startswith(opening.content)
        assert len(opening.content) < len(chunks[i + 1].content) or not ended.search(opening.content)
        read = " ".join(read_on(chunks[i - 2], following).split())
        assert " ".join(chunks[i].content.split()[-6:]) in read and ended.search(read), i
    for i, chunk in enumerate(chunks[:-4]):
        assert ended.search(read_on(chunk, order.after(chunk))), i


def _chunk(text: str, n: int):
    from server.book.chunk import Chunk

    return Chunk(chunk_id=f"c{n}", book_id="b", book_title="B", content=text, content_hash="", source_file="f.md",
                 url="", module="", chapter="", section="", heading="", section_hierarchy=[], page=0,
                 source_location="", citation="", file_hash="", position=n)


@given(st.lists(WORD, min_size=3, max_size=12), st.lists(WORD, min_size=1, max_size=8))
def test_a_passage_read_on_ends_where_its_last_sentence_ends(done, cut):
    """Read on as far as it may, a passage whose last chunk still stops inside a sentence ends
    where the sentence before did; one read alone is left as it is."""
    from server.question.compose.extractive.continuation import read_on

    first = _chunk("The first paragraph ends here.", 0)
    last = _chunk(" ".join(done).rstrip(".;") + ". and so " + " ".join(cut).rstrip(".,;`") + " then", 1)
    read = read_on(first, [last])
    assert not read.endswith(" then") and read.rstrip()[-1] in ".!?;`:", read
    assert read.startswith("The first paragraph ends here.")
    assert read_on(last, []) == last.content


def test_a_list_read_on_keeps_its_last_item_whole():
    """aibook's reasons for humanoids end their list without a full stop ("- Hands = use human
    tools"): the list is whole, not half a sentence, and "### 3. Versatility" keeps its items."""
    from server.question.compose.extractive.continuation import read_on

    first = _chunk("Why humanoids? Here are my reasons:\n\n### 1. Human-Designed World\n\n- Doors, stairs", 0)
    last = _chunk("- Humans relate better to human-like forms\n\n### 3. Versatility\n\n- Two arms = manipulation\n"
                  "- Hands = use human tools", 1)
    assert read_on(first, [last]).endswith("- Two arms = manipulation\n- Hands = use human tools")


def test_a_passage_that_opens_inside_a_sentence_is_read_from_where_the_sentence_begins(embedder):
    """whg-genomics's LD-pruning page: the chunker cut the wrapped sentence "The above command tells
    plink to … leaving SNPs / with minor allele frequency (MAF) at least 1%, and with no pairs
    remaining with pairwise r2>0.2." at a line. "what does --indep-pairwise 50 5 0.2 mean?" found the
    second chunk, whose first sentence is no sentence, and was answered with R's "5^2"."""
    from places import CORPORA

    from server.ingest.chunker import chunk_page
    from server.ingest.pages import discover_pages
    from server.ingest.site import detect_site
    from server.question.compose.extractive.answers import quoted_answer
    from server.question.compose.extractive.page_order import PageOrder
    from server.question.context import Source

    site = detect_site(CORPORA / "whg-genomics")
    page = next(p for p in discover_pages(site).pages if p.source_file.endswith("ld_pruning.md"))
    chunks = chunk_page(page, book_id="whg", book_title=site.title, count_tokens=embedder.count_tokens)
    order = PageOrder(lambda book_id: _Published(chunks))
    inside = next(c for c in chunks if c.content.startswith("with minor allele frequency"))
    begun = order.before(inside)
    assert begun.content.startswith("The above command tells plink") and begun.chunk_id.endswith(":begun")
    assert all(order.before(c) is None for c in chunks if c.content[:1].isupper())
    answer = quoted_answer("what does --indep-pairwise 50 5 0.2 mean?", [Source(inside.with_score(0.35), "database")],
                           following=order.after, preceding=order.before)
    assert "The above command tells plink to load the file" in answer.text, answer.text
    assert "leaving SNPs with minor allele frequency (MAF) at least 1%" in " ".join(answer.text.split())
    assert [c.chunk_id for c in answer.extra_sources] == [begun.chunk_id]  # cited where it begins


@given(st.lists(WORD, min_size=2, max_size=12),
       # inline code's backticks, not a fence's three (a sentence read back holds no code block)
       st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz`,", min_size=1, max_size=9).filter(lambda w: "```" not in w),
                min_size=1, max_size=8),
       st.lists(WORD, min_size=1, max_size=8))
def test_only_the_sentence_a_chunk_opens_inside_of_is_read_back(before, begins, rest):
    """What is read back is the end of the chunk before from where its last sentence begins; a
    chunk that opens on a capital, or follows a chunk ending its sentence, reads nothing back."""
    from server.question.compose.extractive.continuation import begun

    sentence = "Then " + " ".join(begins) + " goes"  # ends on a word: the chunker cut it
    last = _chunk(" ".join(before).rstrip(".") + ". " + sentence, 0)
    found = begun(last, _chunk("and so " + " ".join(rest), 1))
    assert found is not None and found.content == sentence.strip(), (last.content, found)
    assert begun(last, _chunk("And so " + " ".join(rest), 1)) is None
    assert begun(_chunk(last.content + ".", 0), _chunk("and so " + " ".join(rest), 1)) is None


def test_a_passage_opening_on_what_a_lead_in_introduces_is_read_from_the_lead_in():
    """The Urdu Gazebo page's "Adding a Diff Drive Controller": its lead-in ("اپنے URDF میں یہ شامل
    کریں:", add this to your URDF) is a chunk of its own, the XML it introduces the next. "how do I
    add a diff drive controller?" found the XML and quoted it without saying where it goes."""
    from dataclasses import replace

    from server.question.compose.extractive.answers import quoted_answer
    from server.question.compose.extractive.continuation import begun
    from server.question.context import Source

    lead = replace(_chunk("Gazebo پلگ انز ROS 2 کو کنٹرول کرنے دیتے ہیں۔\n\nاپنے URDF میں یہ شامل کریں:", 7),
                   heading="Diff Drive کنٹرولر شامل کرنا")
    xml = replace(_chunk('```xml\n<gazebo>\n  <plugin name="diff_drive" filename="libgazebo_ros_diff_drive.so"/>\n'
                         '</gazebo>\n```', 8), heading="Diff Drive کنٹرولر شامل کرنا")
    opening = begun(lead, xml)
    assert opening is not None and opening.content == "اپنے URDF میں یہ شامل کریں:"
    assert begun(replace(lead, content="A list:\n\n- one\n- two:"), xml) is None  # an item is no lead-in
    assert begun(replace(lead, content="It ends here."), xml) is None
    answer = quoted_answer("diff drive کنٹرولر کیسے شامل کریں؟", [Source(xml.with_score(0.56), "database")],
                           following=lambda chunk: [], preceding=lambda chunk: opening if chunk.chunk_id == xml.chunk_id else None)
    assert answer.text.index("اپنے URDF میں یہ شامل کریں") < answer.text.index("<gazebo>"), answer.text


def test_a_bullet_list_then_a_numbered_one_are_two_lists():
    """The Gazebo page's simulated sensors ("- GPS") and, read on into the next chunk, its best
    practices ("1. Use light models") became one list under the sensors' heading."""
    from server.text.blocks import split_blocks

    blocks = split_blocks("Sensors:\n\n- Cameras\n- GPS\n\n1. Use light models\n2. Watch the real-time factor\n"
                          "   - in the GUI\n\n3. Run headless\n- back to bullets")
    assert [(b.kind, b.text.splitlines()[0]) for b in blocks] == [
        ("paragraph", "Sensors:"), ("list", "- Cameras"), ("list", "1. Use light models"), ("list", "- back to bullets")]

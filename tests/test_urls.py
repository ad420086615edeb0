"""Docusaurus routing and anchors, checked against the docs plugin's rules."""
import pytest

from server.ingest.anchors import Slugger, github_slug, mdbook_slug
from server.ingest.urls import doc_id, doc_slug, page_url, parse_number_prefix


@pytest.mark.parametrize("name, expected", [
    ("01-intro", (1, "intro")),
    ("1_intro", (1, "intro")),
    ("02.basics", (2, "basics")),
    ("intro", (None, "intro")),
    ("2021-01-31-post", (None, "2021-01-31-post")),
    ("1.2.3-release", (None, "1.2.3-release")),
    ("01", (None, "01")),
])
def test_number_prefixes(name, expected):
    assert parse_number_prefix(name) == expected


@pytest.mark.parametrize("source, fm_id, fm_slug, expected", [
    ("01-module-ros/01-intro-to-ros2.md", None, None, "/module-ros/intro-to-ros2"),
    ("01-module-ros/quizzes/02-quiz-nodes-topics-services.md", None, None, "/module-ros/quizzes/quiz-nodes-topics-services"),
    ("intro.md", None, None, "/intro"),
    ("guides/index.md", None, None, "/guides/"),
    ("02-guides/README.md", None, None, "/guides/"),
    ("guides/guides.md", None, None, "/guides/"),
    ("guides/01-setup.md", "install", None, "/guides/install"),
    ("guides/01-setup.md", None, "custom", "/guides/custom"),
    ("guides/01-setup.md", None, "/elsewhere/page", "/elsewhere/page"),
    ("intro.md", None, "/", "/"),
])
def test_doc_slug(source, fm_id, fm_slug, expected):
    assert doc_slug(source, fm_id, fm_slug) == expected


def test_doc_id_strips_folder_prefixes_and_honours_id():
    assert doc_id("01-module-ros/02-nodes.md", None) == "module-ros/nodes"
    assert doc_id("01-module-ros/02-nodes.md", "custom") == "module-ros/custom"


def test_page_url_joins_base_url_and_route_base_path():
    assert page_url("https://x.org/", "/book/", "docs", "/a/b") == "https://x.org/book/docs/a/b"
    assert page_url("https://x.org", "/", "", "/a") == "https://x.org/a"
    assert page_url("https://x.org", "/", "docs", "/") == "https://x.org/docs/"  # as normalizeUrl joins them
    assert page_url("https://x.org", "/", "docs", "/", trailing_slash=False) == "https://x.org/docs"
    assert page_url("https://x.org", "/b/", "docs", "/a", trailing_slash=True, locale_prefix="ur") == "https://x.org/b/ur/docs/a/"
    assert page_url("https://x.org", "/book/", "docs", "/guides/") == "https://x.org/book/docs/guides/"


@pytest.mark.parametrize("heading, anchor", [
    ("Topics: The Asynchronous Data Streams (Publish/Subscribe)", "topics-the-asynchronous-data-streams-publishsubscribe"),
    ("What is ROS 2?", "what-is-ros-2"),
    ("Using `rclpy` with Python", "using-rclpy-with-python"),
    ("1. Nodes", "1-nodes"),
    ("Step-by-Step **Guide**", "step-by-step-guide"),
    ("Café & Crème", "café--crème"),
    ("snake_case names", "snake_case-names"),
    ("1. `<link>`", "1-link"),  # inline code shows as written: the tag is its text, not markup
    ("The `__init__` method", "the-__init__-method"),
    ("Using <span>New</span> tools", "using-new-tools"),
])
def test_github_slugs(heading, anchor):
    assert Slugger().anchor(heading)[1] == anchor


def test_explicit_ids_and_duplicates():
    slugger = Slugger()
    assert slugger.anchor("Setup {#install-steps}") == ("Setup", "install-steps")
    assert slugger.anchor("Example")[1] == "example"
    assert slugger.anchor("Example")[1] == "example-1"
    assert slugger.anchor("Example")[1] == "example-2"


def test_a_headings_inline_code_is_shown_and_anchored_as_written():
    """"1. `<link>`" read as "1." linked the citation to "#1", which the page does not have."""
    assert Slugger().anchor("1. `<link>`") == ("1. <link>", "1-link")
    assert Slugger("mdbook").anchor("Turning an `Rc<T>` into a `Weak<T>`") == (
        "Turning an Rc<T> into a Weak<T>", "turning-an-rct-into-a-weakt")  # as doc.rust-lang.org links it


def test_mdbook_slugs():
    assert mdbook_slug("Storing UTF-8 Encoded Text with Strings") == "storing-utf-8-encoded-text-with-strings"
    assert mdbook_slug("The `match` Control Flow Construct") == "the-match-control-flow-construct"
    assert github_slug("The match Control Flow Construct") == "the-match-control-flow-construct"


@pytest.mark.parametrize("name, expected", [
    ("1.2-ros2-intro", (None, "1.2-ros2-intro")),  # version-like: kept, as Docusaurus keeps it
    ("01-02-intro", (None, "01-02-intro")),
    ("chapter-01-intro", (None, "chapter-01-intro")),
])
def test_version_like_names_keep_their_prefix(name, expected):
    assert parse_number_prefix(name) == expected

"""The MCP server, driven through both transports by the `mcp` SDK's own client on the sample book.

stdio: `python -m server mcp` started as a subprocess, as a desktop tool starts it. HTTP: `serve`'s
app with MCP_ENABLED on a real waitress server on 127.0.0.1, through the SDK's streamable HTTP
client. Each transport holds one conversation (a module fixture: the subprocess loads the model
once), recording every answer; the tests below read the records. The same exchange runs on both:
tool listing, each tool's result, an out-of-scope question refused, bad arguments, and RATE_LIMIT
counted per client until it refuses.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import sqlite3
import sys
import threading
import urllib.error
import urllib.request

import httpx2  # the SDK's HTTP client library
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from apps import make_app
from places import MODELS_DIR, REPO
from server.sessions import default_server_name
from server.serving.wsgi import make_server

LIMIT = 8  # RATE_LIMIT per minute in these tests
IN_BOOK = "What is aliasing?"
OUT_OF_SCOPE = "Who won the 1998 football world cup?"


async def _call(client: Client, name: str, arguments: dict) -> dict:
    result = await client.call_tool(name, arguments)
    text = result.content[0].text if result.content else ""
    return {"error": result.is_error, "text": text, "data": result.structured_content}


async def exchange(client: Client) -> dict:
    """Everything the tests check, asked in one conversation (in this order: the limit counts)."""
    record = {"tools": {t.name: t for t in (await client.list_tools()).tools}}
    record["search"] = await _call(client, "search_book", {"query": IN_BOOK, "limit": 3})  # 1 counted
    first = record["search"]["data"]["passages"][0]["url"]
    record["page"] = await _call(client, "get_page", {"url_or_path": first})
    record["page_by_path"] = await _call(client, "get_page", {"url_or_path": "/docs/intro/"})  # baseUrl left out
    record["outline"] = await _call(client, "book_outline", {})
    record["ask"] = await _call(client, "ask", {"question": IN_BOOK})  # 2
    record["refused"] = await _call(client, "ask", {"question": OUT_OF_SCOPE})  # 3
    record["bad"] = {
        "limit": await _call(client, "search_book", {"query": IN_BOOK, "limit": 50}),
        "empty": await _call(client, "search_book", {"query": ""}),
        "missing": await _call(client, "ask", {}),
        "too long": await _call(client, "ask", {"question": "why " * 400}),
        "unknown book": await _call(client, "search_book", {"query": IN_BOOK, "book_id": "no-such-book"}),  # 4
        "unknown page": await _call(client, "get_page", {"url_or_path": "/docs/no-such-page"}),
    }
    calls = []
    for _ in range(LIMIT):
        calls.append(await _call(client, "search_book", {"query": "sampling rate", "limit": 1}))
        if calls[-1]["error"]:
            break
    record["until_limited"] = calls
    return record



def _run(coroutine):
    """asyncio.run on a thread of its own: where the browser tests ran first in this process,
    Playwright's sync API keeps an event loop running on the main thread."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

@pytest.fixture(scope="module")
def indexed_pages(sample_book) -> dict[str, set[str]]:
    """Each indexed page URL with the anchors of its sections."""
    pages: dict[str, set[str]] = {}
    for chunk in sample_book.store.all_chunks():
        page, _, anchor = chunk.url.partition("#")
        pages.setdefault(page, set()).update([anchor] if anchor else [])
    return pages


def _exists(url: str, pages: dict[str, set[str]]) -> bool:
    page, _, anchor = url.partition("#")
    return page in pages and (not anchor or anchor in pages[page])


def _environment(tmp_path, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI", "GOOGLE"))}  # extractive answers
    return {**env, "TEXTBOOK_CHAT_MODELS_DIR": str(MODELS_DIR), "RATE_LIMIT": f"{LIMIT} per minute",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'sessions.db'}", **extra}


@pytest.fixture(scope="module")
def stdio_record(sample_book, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mcp-stdio")
    # the index the session fixture ingested (and published); sessions in a database of this test's
    params = StdioServerParameters(command=sys.executable, args=["-m", "server", "mcp"], cwd=str(REPO),
                                   env=_environment(tmp, TEXTBOOK_CHAT_DATA_DIR=str(sample_book.settings.data_dir)))

    async def run():
        async with Client(params) as client:
            return await exchange(client)

    record = _run(run())
    with sqlite3.connect(tmp / "sessions.db") as db:
        record["servers"] = {row[0] for row in db.execute("SELECT DISTINCT server FROM queries")}
    record["serve's name"] = default_server_name(sample_book.settings.data_dir)
    return record


class _Served:
    def __init__(self, app):
        self.server = make_server(app, "127.0.0.1", 0, threads=4)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.effective_port}/mcp"

    def close(self):
        self.server.trigger.pull_trigger(self.server._map.clear)
        self.thread.join(10)
        self.server.close()


@pytest.fixture(scope="module")
def http_server(sample_book, tmp_path_factory):
    served = _Served(make_app(sample_book, tmp_path_factory.mktemp("mcp-http") / "data", mcp_enabled=True,
                              rate_limit=f"{LIMIT} per minute",
                              trusted_proxies=("127.0.0.1",)))  # so that each test client can say who it is (X-Forwarded-For)
    yield served
    served.close()


def _post(url: str, body: bytes, headers: dict) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _leaves(group: BaseExceptionGroup) -> list[BaseException]:
    return [leaf for error in group.exceptions
            for leaf in (_leaves(error) if isinstance(error, BaseExceptionGroup) else [error])]


@contextlib.asynccontextmanager
async def _connect(url: str, headers: dict):
    """The SDK's client over HTTP, sending `headers` with every request."""
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            yield client


@pytest.fixture(scope="module")
def http_record(http_server):
    async def run():
        async with _connect(http_server.url, {"X-Forwarded-For": "203.0.113.1"}) as client:
            return await exchange(client)

    return _run(run())


@pytest.fixture(params=["stdio", "http"])
def record(request):
    return request.getfixturevalue(f"{request.param}_record")


def test_the_four_tools_are_listed_with_bounded_arguments(record):
    tools = record["tools"]
    assert set(tools) == {"search_book", "get_page", "book_outline", "ask"}
    search = tools["search_book"].input_schema
    assert search["required"] == ["query"] and search["properties"]["limit"]["maximum"] == 10
    assert search["properties"]["query"]["maxLength"] == 1000
    assert all(tool.description for tool in tools.values())


def test_search_book_gives_passages_with_page_labels_url_and_citation(record, indexed_pages):
    result = record["search"]
    assert not result["error"]
    passages = result["data"]["passages"]
    assert 1 <= len(passages) <= 3
    assert json.loads(result["text"]) == result["data"]  # the same, as text for clients without structure
    for passage in passages:
        assert _exists(passage["url"], indexed_pages), passage["url"]
        assert passage["url"] in passage["citation"] and passage["citation"].startswith('"')
        assert passage["page_title"] and passage["labels"] and passage["text"]
    assert "alias" in passages[0]["text"].lower()


def test_get_page_gives_the_page_as_markdown_with_its_sections(record, indexed_pages):
    page = record["page"]["data"]
    searched = record["search"]["data"]["passages"][0]
    assert page["url"] == searched["url"].split("#")[0] and page["title"] == searched["page_title"]
    assert page["markdown"].startswith(f"# {page['title']}\n") and searched["text"] in page["markdown"]
    assert page["sections"] and all(_exists(s["url"], indexed_pages) for s in page["sections"])
    assert all(f"]({s['url']})" in page["markdown"] for s in page["sections"])
    by_path = record["page_by_path"]["data"]
    assert by_path["url"].endswith("/book/docs/intro") and by_path["title"].startswith("Welcome")


def test_book_outline_gives_parts_and_pages_in_reading_order(record, indexed_pages):
    outline = record["outline"]["data"]
    assert outline["book_id"] == "sample-book" and outline["title"] == "Signals and Systems Primer"
    assert [part["title"] for part in outline["parts"]][1:] == ["Module 1: Foundations", "Module 2: Practice"]
    urls = [page["url"] for part in outline["parts"] for page in part["pages"]]
    assert set(urls) == set(indexed_pages) and len(urls) == len(indexed_pages)


def test_ask_answers_from_the_book_with_citations(record, indexed_pages):
    answer = record["ask"]["data"]
    assert not record["ask"]["error"] and answer["refused"] is False
    assert answer["citations"] and "[1]" in answer["answer"]
    assert all(_exists(c["url"], indexed_pages) for c in answer["citations"])
    assert answer["references"] and "session_id" not in answer  # nothing of the conversation leaks


def test_ask_refuses_what_the_book_does_not_cover(record):
    refused = record["refused"]["data"]
    assert not record["refused"]["error"] and refused["refused"] is True and refused["citations"] == []


@pytest.mark.parametrize("case, says", [
    ("limit", "limit"), ("empty", "query"), ("missing", "question"), ("too long", "question"),
    ("unknown book", "No book with id 'no-such-book'"), ("unknown page", "No indexed page at '/docs/no-such-page'"),
])
def test_a_bad_argument_is_an_mcp_error_that_names_it(record, case, says):
    result = record["bad"][case]
    assert result["error"] and says in result["text"], result["text"]


def test_the_rate_limit_refuses_the_call_over_it(record):
    calls = record["until_limited"]
    counted_before = 4  # search_book, two asks, the search for an unknown book
    assert [c["error"] for c in calls] == [False] * (LIMIT - counted_before) + [True]
    assert "Too many requests" in calls[-1]["text"] and "retry in" in calls[-1]["text"]


def test_the_rate_limit_is_per_client(http_server, http_record):
    assert http_record["until_limited"][-1]["error"]  # 203.0.113.1 is held

    async def other_client():
        async with _connect(http_server.url, {"X-Forwarded-For": "203.0.113.2"}) as client:
            return await _call(client, "search_book", {"query": "sampling rate", "limit": 1})

    assert _run(other_client())["error"] is False


def test_a_disallowed_origin_is_refused_and_an_allowed_one_served(http_server):
    async def connect(origin: str):
        async with _connect(http_server.url, {"Origin": origin}) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    assert "ask" in _run(connect("http://localhost:3000"))  # in ALLOWED_ORIGINS
    with pytest.raises(ExceptionGroup) as refused:
        _run(connect("https://elsewhere.example"))
    (error,) = _leaves(refused.value)
    assert isinstance(error, MCPError) and "'https://elsewhere.example' is not allowed" in str(error)
    status, body = _post(http_server.url, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
                         {"Origin": "https://elsewhere.example"})
    assert status == 403 and "ALLOWED_ORIGINS" in json.loads(body)["error"]["message"]


LOOKALIKES = ("http://localhost:3000.evil.example", "http://localhost:30001", "http://localhost:3000@evil.example",
              "http://localhost:3000/../evil", "https://localhost:3000", "http://LOCALHOST:3000.evil.example",
              "http://127.0.0.1:3000.evil.example", "null")


def test_an_origin_is_allowed_whole_never_by_its_beginning():
    from server.mcp_server.http import origin_allowed

    allowed = ("http://localhost:3000", "http://127.0.0.1:3000")
    assert origin_allowed(None, allowed) and origin_allowed("", allowed)  # not a browser
    assert origin_allowed("http://localhost:3000", allowed) and origin_allowed("http://localhost:3000/", allowed)
    for origin in LOOKALIKES:
        assert not origin_allowed(origin, allowed), origin
    assert origin_allowed("http://localhost:3000.evil.example", ("*",))


def test_an_origin_that_only_begins_like_an_allowed_one_is_refused_over_http(http_server):
    for origin in LOOKALIKES:
        status, body = _post(http_server.url, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
                             {"Origin": origin})
        assert status == 403, (origin, status, body[:200])
        assert "ALLOWED_ORIGINS" in json.loads(body)["error"]["message"], origin


def test_a_body_over_the_limit_is_refused_before_it_is_read(http_server):
    status, body = _post(http_server.url, b"{" + b" " * 70_000 + b"}", {})  # MAX_REQUEST_BYTES: 64 KiB
    assert status == 413 and json.loads(body)["code"] == "PAYLOAD_TOO_LARGE"


def test_the_stdio_servers_questions_are_its_own(stdio_record):
    # `serve` restarted on the same folder marks the questions it left unfinished: not these
    assert stdio_record["servers"] and stdio_record["serve's name"] not in stdio_record["servers"]


def test_serve_without_mcp_enabled_has_no_mcp(chat_app):
    client = chat_app().test_client()
    assert client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).status_code == 404
    assert client.get("/mcp").status_code == 404

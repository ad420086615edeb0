"""The MCP server (the official `mcp` SDK's MCPServer): four tools over the book, their
arguments described and bounded (a bad argument is an MCP tool error naming it), and the
work-costing ones held to RATE_LIMIT per client."""
# no `from __future__ import annotations`: the SDK reads the tools' annotations at runtime
import logging
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import AfterValidator, Field

from server import __version__
from server.api.schemas import MAX_QUESTION
from server.composition import Components
from server.mcp_server.limits import ClientLimits
from server.mcp_server.tools import BookTools, ToolRefusal

INSTRUCTIONS = (
    "Tools over one textbook (or a few, told apart by book_id). search_book finds passages with their "
    "page, URL and IEEE citation; get_page reads a whole page as Markdown; book_outline lists the parts "
    "and pages in reading order; ask answers a question from the book alone, with citations, or says the "
    "book does not cover it. Cite the URLs the tools give.")

def _storable(text: str | None) -> str | None:
    """What /chat refuses in any string (api/parser.py), refused here too, naming the argument."""
    if text is not None and "\x00" in text:
        raise ValueError("must not contain NUL (\\u0000): no database stores it")
    return text


Storable = AfterValidator(_storable)
BookId = Annotated[str | None, Field(min_length=1, max_length=200,
                                     description="The book's id (book_outline shows it); none: every indexed book."),
                   Storable]
Words = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION), Storable]


def client_of(ctx: Context) -> str:
    """The HTTP client's address (the reader's, after TRUSTED_PROXIES), or the one stdio client."""
    request = ctx.request_context.request if ctx is not None else None
    if request is None:
        return "stdio"
    environ = request.scope.get("wsgi_environ") or {}
    return environ.get("REMOTE_ADDR") or (request.client.host if request.client else "unknown")


def build_server(components: Components) -> MCPServer:
    tools = BookTools(components)
    settings = components.settings
    limits = ClientLimits(settings.rate_limit, settings.rate_limit_storage)
    root = logging.getLogger()
    guard = logging.NullHandler()
    root.addHandler(guard)  # making a server calls logging.basicConfig; logging is the program's to set up
    try:
        server = MCPServer("textbook-chat", title="Textbook chat", version=__version__, instructions=INSTRUCTIONS)
    finally:
        root.removeHandler(guard)

    def held(ctx: Context) -> None:
        waited = limits.wait_for(client_of(ctx))
        if waited:
            limit, seconds = waited
            raise ToolError(f"Too many requests from this client (RATE_LIMIT {limit}); retry in {seconds} s.")

    def run(call, *args) -> dict[str, Any]:
        try:
            return call(*args)
        except ToolRefusal as refusal:
            raise ToolError(str(refusal)) from None

    @server.tool(title="Search the book")
    def search_book(query: Annotated[Words, Field(description="What to look for, in words.")],
                    book_id: BookId = None,
                    limit: Annotated[int, Field(ge=1, le=10, description="How many passages (1-10).")] = 5,
                    ctx: Context = None) -> dict[str, Any]:
        """Passages of the book closest to the query, best first, each with its page title, labels
        (breadcrumbs), URL with anchor, IEEE citation and text."""
        held(ctx)
        return run(tools.search_book, query, book_id, limit)

    @server.tool(title="Read a page")
    def get_page(url_or_path: Annotated[str, Field(min_length=1, max_length=2000, description=(
                     "The page's URL, its path (/docs/intro) or source file; an anchor is ignored.")), Storable],
                 book_id: BookId = None) -> dict[str, Any]:
        """One page's whole text as Markdown, with its sections and their URLs."""
        return run(tools.get_page, url_or_path, book_id)

    @server.tool(title="The book's outline")
    def book_outline(book_id: BookId = None) -> dict[str, Any]:
        """The book's parts and pages in reading order, each page with its URL and a one-line description."""
        return run(tools.book_outline, book_id)

    @server.tool(title="Ask the book")
    def ask(question: Annotated[Words, Field(description="The question, as a student would ask it.")],
            book_id: BookId = None, ctx: Context = None) -> dict[str, Any]:
        """The same grounded answer as the book's chat: from the book alone, with [n] citations
        and their URLs, or `refused: true` when the book does not cover the question."""
        held(ctx)
        return run(tools.ask, question, book_id)

    return server

"""`textbook-chat mcp`: the MCP server on stdin/stdout, for a reader's desktop AI tool
(Claude Desktop, Cursor, VS Code) that starts it as a command."""
from __future__ import annotations

import contextlib
import logging
import sys

import click

from server.errors import TextbookChatError
from server.settings import SettingsError, load_settings


@click.command("mcp")
def mcp_command() -> None:
    """Serve the book's MCP tools over stdio (search_book, get_page, book_outline, ask)."""
    from server.composition import Components
    from server.mcp_server.server import build_server
    from server.sessions import default_server_name

    # stdout carries the protocol: everything else (the model's loading notes, logs) goes to stderr
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            settings = load_settings()
            # the questions `ask` records are this process's own: a restart of `serve` on the same
            # folder must not take them for ones it left unfinished (and mark them interrupted)
            serving = settings.server_name or default_server_name(settings.data_dir)
            settings = settings.with_overrides(server_name=f"{serving[:290]} (mcp)")
            chat = Components.build(settings)
            chat.warm_up()
    except (SettingsError, TextbookChatError) as exc:
        click.echo(f"error: {getattr(exc, 'message', exc)}", err=True)
        sys.exit(1)
    try:
        build_server(chat).run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        chat.close()

COMMANDS = (mcp_command,)

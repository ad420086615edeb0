"""`textbook-chat llms-txt --out DIR`: llms.txt and llms-full.txt of a book, written into a
site's build folder so that a static host serves them beside the pages."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from server.errors import TextbookChatError
from server.settings import SettingsError, load_settings


@click.command("llms-txt")
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False),
              help="The folder to write llms.txt and llms-full.txt into, e.g. the site's build/.")
@click.option("--book-id", help="The book (needed when the index holds several).")
def llms_txt_command(out_dir: str, book_id: str | None) -> None:
    """Write the book's llms.txt (pages as links, by part) and llms-full.txt (every page's text)."""
    from server.library.llms_txt import FULL_TEXT_NAME, llms_full_txt, llms_txt
    from server.composition import bookshelf_of

    try:
        with bookshelf_of(load_settings()) as shelf:
            outline = shelf.outline(book_id)
    except (SettingsError, TextbookChatError) as exc:
        click.echo(f"error: {getattr(exc, 'message', exc)}", err=True)
        sys.exit(1)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "llms.txt").write_text(llms_txt(outline), encoding="utf-8")
    (folder / FULL_TEXT_NAME).write_text(llms_full_txt(outline), encoding="utf-8")
    click.echo(f"{outline.title}: {len(outline.pages)} pages in {len(outline.parts)} parts -> "
               f"{folder / 'llms.txt'}, {folder / FULL_TEXT_NAME}")

COMMANDS = (llms_txt_command,)

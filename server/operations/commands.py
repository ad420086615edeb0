"""The commands for running the server for a term: books, remove-book, status, backup, restore."""
from __future__ import annotations

import json
from pathlib import Path

import click

from server.cli.shared import fail as _fail, settings as _settings
from server.cli.help import settings_epilog
from server.errors import TextbookChatError


def _reader_store(settings):
    from server.store import open_store

    return open_store(settings, settings.embedding_model, 0)  # reads payloads only: no model needed


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the books as JSON.")
def books(as_json: bool) -> None:
    """List the books in the index: id, title, pages, chunks and locales."""
    from server.operations.books import books_in

    settings = _settings()
    try:
        store = _reader_store(settings)
        try:
            found = books_in(store)
        finally:
            store.close()
    except TextbookChatError as exc:
        _fail(exc.message, 1)
    if as_json:
        click.echo(json.dumps([vars(book) for book in found], ensure_ascii=False, indent=2))
        return
    if not found:
        click.echo("no books in the index (add one with `textbook-chat ingest PATH`)")
    for book in found:
        click.echo(f"{book.book_id}  {book.title!r}: {book.pages} pages, {book.chunks} chunks "
                   f"({', '.join(book.locales)})")


@click.command("remove-book")
@click.argument("book_id")
def remove_book(book_id: str) -> None:
    """Remove BOOK_ID from the index; a running server stops answering from it within a second."""
    from server.operations.books import books_in, remove_book as remove

    settings = _settings()
    try:
        store = _reader_store(settings)
        try:
            gone = remove(store, book_id)
            left = [book.book_id for book in books_in(store)]
        finally:
            store.close()
    except TextbookChatError as exc:
        _fail(exc.message, 1)
    click.echo(f"removed {gone.book_id} ({gone.title!r}: {gone.pages} pages, {gone.chunks} chunks); "
               f"the index holds {', '.join(left) if left else 'no books'}")


@click.command(epilog=settings_epilog("files", "embedding", "store", "sessions"))
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
def status(as_json: bool) -> None:
    """What the data folder holds: each part's size, the index's generations and replicas, the
    books, the embedding model and the sessions database."""
    from server.operations.books import books_in
    from server.operations.status import data_folder_state, database_state, human, index_state, model_state

    settings = _settings()
    state = {"data": data_folder_state(settings), "model": model_state(settings),
             "database": database_state(settings), "index": None, "books": []}
    try:
        if not settings.qdrant_url:
            state["index"] = index_state(settings)
        store = _reader_store(settings)
        try:
            state["books"] = [vars(book) for book in books_in(store)]
        finally:
            store.close()
    except TextbookChatError as exc:
        state["index_problem"] = exc.message
    if as_json:
        click.echo(json.dumps(state, ensure_ascii=False, indent=2))
        return
    data = state["data"]
    click.echo(f"data folder: {data['folder']} (TEXTBOOK_CHAT_DATA_DIR), "
               + (f"{human(data['bytes'])} on disk" if Path(data["folder"]).is_dir() else "not created yet"))
    for part in data["parts"]:
        click.echo(f"  {part['name']:<24} {human(part['bytes']):>9}  {part['what']}")
    index = state["index"]
    if index:
        click.echo(f"index: {index['folder']}")
        click.echo(f"  writer/     {human(index['writer_bytes']):>9}  what ingest writes and publishes")
        click.echo(f"  published/  {human(index['published_bytes']):>9}  generations {', '.join(index['generations']) or 'none'}"
                   f" (current: {index['current'] or 'none'})")
        for replica in index["replicas"]:
            click.echo(f"  replicas/   {human(replica['bytes']):>9}  {replica['generation']} read by process "
                       f"{replica['process']}{'' if replica['running'] else ' (gone: removed at the next start)'}")
    elif settings.qdrant_url:
        click.echo(f"index: Qdrant server at {settings.qdrant_url} (QDRANT_URL)")
    if state.get("index_problem"):
        click.echo(f"index: {state['index_problem']}")
    click.echo(f"books: {len(state['books'])}")
    for book in state["books"]:
        click.echo(f"  {book['book_id']}  {book['title']!r}: {book['pages']} pages, {book['chunks']} chunks")
    model = state["model"]
    click.echo(f"model: {model['name']} in {model['folder']}, "
               + (f"{human(model['bytes'])}" if model["provisioned"] else "not provisioned (`textbook-chat model`)"))
    db = state["database"]
    schema = db.get("schema")
    line = f"database: {db['url']}"
    if db.get("problem"):
        line += f": {db['problem']}"
    else:
        line += (f", schema {schema}" + ("" if schema == db["schema_expected"] else
                                         f" (this version needs {db['schema_expected']}: `textbook-chat migrate`)")
                 + f", {db.get('sessions', 0)} sessions, {db.get('messages', 0)} messages")
    click.echo(line)


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--with-model", is_flag=True, help="Also copy the embedding model (about 90 MB; it can be built again).")
def backup(folder: str, with_model: bool) -> None:
    """Copy the index and the sessions into FOLDER (new or empty), safe while serving."""
    from server.operations.backup import BackupError, backup as run

    settings = _settings()
    try:
        run(settings, Path(folder), with_model=with_model, log=lambda m: click.echo(m, err=True))
    except BackupError as exc:
        _fail(str(exc), 1)
    click.echo(f"backup in {Path(folder).resolve()}")


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
def restore(folder: str) -> None:
    """Restore a backup from FOLDER into the data folder (one with no index and no sessions yet)."""
    from server.operations.backup import BackupError, restore as run

    settings = _settings()
    try:
        run(settings, Path(folder), log=lambda m: click.echo(m, err=True))
    except BackupError as exc:
        _fail(str(exc), 1)
    click.echo(f"restored into {settings.data_dir.resolve()}; start the server on it")


COMMANDS = [books, remove_book, status, backup, restore]

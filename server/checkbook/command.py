"""`textbook-chat check-book BOOK`: does the assistant behave on my book?"""
from __future__ import annotations

from pathlib import Path

import click

from server.cli.shared import fail as _fail, settings as _settings


@click.command("check-book")
@click.argument("book_path", metavar="BOOK", type=click.Path(exists=True))
@click.option("--book-id", help="The book's id (default: as `ingest` names it).")
@click.option("--build", "build_dir", type=click.Path(file_okay=False),
              help="The built site, to check citations against its HTML (default: BOOK/build when it exists).")
@click.option("--off-book", "off_book_file", type=click.Path(exists=True, dir_okay=False),
              help="More questions the book does not answer, one a line (e.g. other books' section titles).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def check_book(book_path: str, book_id: str | None, build_dir: str | None, off_book_file: str | None,
               as_json: bool) -> None:
    """Ask BOOK what students ask, through the real /chat, and check what needs no answer key:
    typos are no error, requests about a highlighted passage are never refused, a citation names
    the section its words stand under and markers are numbered in order, answers are short, other
    subjects are refused, course questions are routed as asked, quizzes pose real questions.
    Exits 1 when a check fails. The book is indexed privately (as `eval` does)."""
    from server.app import create_app
    from server.composition import BookToIndex, components
    from server.ingest.indexer import default_book_id, ingest as run_ingest
    from server.ingest.pages import discover_pages
    from server.ingest.site import BookError, detect_site
    from server.book.outline import Outline
    from server.checkbook.runner import as_json as json_report, book_of, report, run_checks

    settings = _settings()
    try:
        site = detect_site(book_path, build_dir=build_dir)
    except BookError as exc:
        _fail(str(exc))
    book_id = book_id or default_book_id(site)
    private = settings.with_overrides(data_dir=settings.data_dir / "check-book" / book_id,
                                      models_dir=settings.model_dir_root, gemini_api_key=None,
                                      rate_limit="100000 per minute", auth_failure_limit="100000 per minute")
    off_book = [line.strip() for line in Path(off_book_file).read_text(encoding="utf-8").splitlines()
                if line.strip()] if off_book_file else []
    with components(private, store_check=False, book=BookToIndex.of(site, book_id, full=True)) as chat:
        run_ingest(site, chat.store, chat.embedder, book_id=book_id, progress=not as_json,
                   full=chat.index.choice.replaces is not None, locale_embedders=chat.index.locale_embedders)
        recorded = chat.store.outline(book_id)
        outline = Outline.from_dict(recorded) if recorded else None
        book = book_of(book_id, chat.store.all_chunks(book_id), outline, discover_pages(site).pages, off_book)
        client = create_app(private, components=chat).test_client()
        results = run_checks(client, book, outline)
    click.echo(json_report(book_id, results) if as_json else report(f"{site.title} ({book_id})", results))
    if not all(r.passed for r in results):
        raise SystemExit(1)

COMMANDS = (check_book,)

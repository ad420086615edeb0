"""The `textbook-chat` command: model, ingest, ask, serve, eval."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from server.cli.eval import eval_command
from server.cli.help import settings_epilog
from server.cli.shared import fail as _fail, settings as _settings, setup_logging as _setup_logging
from server.errors import TextbookChatError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="textbook-chat")
def main() -> None:
    """Grounded, cited answers from a textbook website."""


@main.command()
def model() -> None:
    """Make sure the embedding model is available locally (build it offline if needed)."""
    from server.embedding.provision import ModelUnavailableError, ensure_model

    from server.embedding.e5 import packaged
    from server.store import model_in_use

    settings = _settings()
    name = model_in_use(settings)
    shipped = packaged(name)
    if shipped is not None:  # its weights ship in its package
        click.echo(f"{name}: {shipped}")
        return
    try:
        folder = ensure_model(name, settings.model_dir_root, log=lambda m: click.echo(m, err=True))
    except ModelUnavailableError as exc:
        _fail(str(exc))
    click.echo(f"{name}: {folder}")


@main.command(epilog=settings_epilog("files", "embedding", "store"))
@click.argument("path", type=click.Path())
@click.option("--book-id", help="Identifier stored on every chunk (default: the site's projectName, else the folder name).")
@click.option("--site-url", help="Public site URL, e.g. https://example.org (default: from docusaurus.config).")
@click.option("--base-url", help="Docusaurus baseUrl, e.g. /book/ (default: from docusaurus.config).")
@click.option("--build-dir", type=click.Path(file_okay=False), help="The built site to read (default: PATH/build when it exists).")
@click.option("--build", "run_build", is_flag=True, help="Build the site first (npm ci when node_modules is missing, then docusaurus build).")
@click.option("--sources", "sources_only", is_flag=True, help="Read the Markdown sources even when a build exists.")
@click.option("--full", is_flag=True, help="Re-embed every page of this book.")
@click.option("--include-unlisted", is_flag=True,
              help="Also index unfilled template pages and pages no reader can reach (in no sidebar, linked from no page).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def ingest(path: str, book_id: str | None, site_url: str | None, base_url: str | None, build_dir: str | None,
           run_build: bool, sources_only: bool, full: bool, include_unlisted: bool, as_json: bool) -> None:
    """Index a Docusaurus site (its build when there is one), a docs/ folder or an mdBook."""
    from dataclasses import replace

    from server.composition import BookToIndex, index_of
    from server.ingest.build import SiteBuildError, build_site
    from server.ingest.indexer import default_book_id, ingest as run_ingest
    from server.ingest.site import BookError, detect_site

    settings = _settings()
    log = lambda m: click.echo(m, err=True)  # noqa: E731
    try:
        site = detect_site(path, site_url=site_url, base_url=base_url, build_dir=build_dir)
        if run_build:
            if site.site_dir is None:
                raise BookError(f"{path}: --build needs a Docusaurus site folder (docusaurus.config.* inside)")
            site = replace(site, build_dir=build_site(site.site_dir, out_dir=Path(build_dir) if build_dir else None, log=log))
        if sources_only:
            site = replace(site, build_dir=None)
    except (BookError, SiteBuildError) as exc:
        _fail(str(exc))
    from server.serving.startup import stop_on_sigterm, where

    stop_on_sigterm()
    for line in where(settings):
        log(line)
    log(f"reading {'the build at ' + str(site.build_dir) if site.build_dir else 'the sources in ' + str(site.content_root)}")
    from server.embedding.choice import model_warnings

    book = BookToIndex.of(site, book_id or default_book_id(site), full=full)
    try:
        with index_of(settings, store_check=False, book=book) as index:
            log(f"embedding model: {index.choice.model} ({index.choice.reason})")
            for locale, embedder in index.locale_embedders.items():
                log(f"embedding model of the {locale} pages: {embedder.model_name} (their language)")
            for line in model_warnings(book.languages, index.choice.model, index.store.locale_models):
                log(f"warning: {line}")
            report = run_ingest(site, index.store, index.embedder, book_id=book_id, full=full,
                                include_unlisted=include_unlisted, progress=not as_json, log=log,
                                locale_embedders=index.locale_embedders)
    except TextbookChatError as exc:
        _fail(exc.diagnosis, 1)
    click.echo(json.dumps(report.to_dict(), default=str, indent=2) if as_json else report.summary())


@main.command()
@click.option("--book-id", help="Only this book.")
@click.option("--json", "as_json", is_flag=True, help="Print the pages as JSON.")
@click.option("--check-build", "build_dir", type=click.Path(exists=True, file_okay=False),
              help="Check that every page and anchor exists in this built site; exit 1 if any is missing.")
@click.option("--check-url", "base", help="The same check against a served site, e.g. http://localhost:3000.")
def pages(book_id: str | None, as_json: bool, build_dir: str | None, base: str | None) -> None:
    """List every indexed page: URL, title, labels, locale, version, source file and sections."""
    from server.ingest.report import SiteUnreachable, check_build, check_url, pages_report
    from server.store import open_store

    settings = _settings()
    try:
        store = open_store(settings, settings.embedding_model, 0)  # reads payloads only: no model needed
        try:
            listed = pages_report(store.all_chunks(book_id), store.outline)
        finally:
            store.close()
    except TextbookChatError as exc:
        _fail(exc.diagnosis, 1)
    if not listed:
        _fail(f"no pages indexed{f' for book {book_id!r}' if book_id else ''}", 1)
    if build_dir or base:
        try:
            misses = check_build(listed, Path(build_dir)) if build_dir else check_url(listed, base)
        except SiteUnreachable as exc:
            _fail(str(exc), 1)
        anchors = sum(len(p["sections"]) for p in listed)
        for miss in misses:
            click.echo(miss)
        click.echo(f"{len(listed)} pages, {anchors} anchors checked against {build_dir or base}: "
                   f"{len(misses) or 'nothing'} missing")
        sys.exit(1 if misses else 0)
    if as_json:
        click.echo(json.dumps(listed, ensure_ascii=False, indent=2))
        return
    for page in listed:
        click.echo(f"{page['url']}  [{page['locale']}{'' if page['version'] == 'current' else ' ' + page['version']}]"
                   f"  {' › '.join(page['labels'])}  ({page['source_file']}, {len(page['sections'])} sections)")


@main.command()
@click.argument("question")
@click.option("--book-id", help="Only this book.")
@click.option("--module", help="Only this module (sidebar category label).")
@click.option("--max-chunks", default=5, show_default=True, type=click.IntRange(1, 10))
@click.option("--threshold", type=click.FloatRange(0, 1), help="Similarity threshold (default: configured).")
def ask(question: str, book_id: str | None, module: str | None, max_chunks: int, threshold: float | None) -> None:
    """Show the passages that answer QUESTION, with their citations (ranked as /chat ranks them)."""
    from server.composition import BookSearch, index_of
    from server.embedding.choice import threshold_for
    from server.question import Question
    from server.store import Filters

    settings = _settings()
    try:
        with index_of(settings) as index:
            threshold = threshold_for(index.embedder.model_name, settings.similarity_threshold if threshold is None
                                      else threshold)
            asked = Question(question, max_chunks=max_chunks, similarity_threshold=threshold,
                             filters=Filters(book_id=book_id, module=module))
            chunks = [c for c in BookSearch.build(index).passages(asked) if c.score >= threshold]
    except TextbookChatError as exc:
        _fail(exc.diagnosis, 1)
    if not chunks:
        click.echo(f"Nothing in the index passes the similarity threshold {threshold:.2f}.")
        return
    for n, chunk in enumerate(chunks, 1):
        click.echo(f"[{n}] {chunk.score:.3f}  {chunk.source_location}")
        snippet = " ".join(chunk.content.split())
        click.echo(f"    {snippet[:240]}{'…' if len(snippet) > 240 else ''}")
        click.echo(f"    {chunk.citation}\n")


@main.command(epilog=settings_epilog("files", "embedding", "store", "sessions", "retrieval", "generation", "web"))
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int, help="Threads per process (1 or more).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes. More than one uses several cores (not on Windows).")
@click.option("--demo", "demo_book", type=click.Path(exists=True, file_okay=False),
              help="Also serve this Docusaurus book's pages as simple HTML with the widget, at their indexed URLs.")
def serve(host: str, port: int, threads: int, workers: int, demo_book: str | None) -> None:
    """Serve the API (and /widget.js) with a production WSGI server."""
    import gc
    import os

    from limits.errors import ConfigurationError

    from server.app import create_app
    from server.composition import Components
    from server.serving.startup import StartupError, allow_connections, bind_problem, check_port, stop_on_sigterm, where

    _setup_logging()
    settings = _settings()
    if threads < 1:
        _fail(f"--threads must be 1 or more (threads per process), got {threads}", 1)
    try:
        check_port(host, port)  # before minutes of loading
    except StartupError as exc:
        _fail(str(exc), 1)
    stop_on_sigterm()
    for line in where(settings):
        click.echo(line)
    if workers > 1:
        if sys.platform == "win32":
            _fail("--workers needs a system that can fork (Linux, macOS); use threads on Windows")
        # each worker embeds on its own thread (a pool's threads would not survive the fork), and the
        # tokenizer must not start threads before it either
        settings = settings.with_overrides(embedding_threads=1)
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    try:
        chat = Components.build(settings)
        chat.warm_up()
        interrupted = chat.sessions.interrupt_unfinished()
    except TextbookChatError as exc:
        _fail(exc.diagnosis, 1)
    except KeyboardInterrupt:  # stopped while loading (or building the model): its processes are gone
        _fail("stopped before serving", 1)
    if interrupted:
        click.echo(f"{interrupted} question(s) left unanswered when the server last stopped are marked INTERRUPTED")
    try:
        app = create_app(settings, components=chat)
    except ConfigurationError as exc:
        chat.close()
        _fail(f"RATE_LIMIT_STORAGE={settings.rate_limit_storage}: {exc}", 1)
    if demo_book:
        from server.serving.demo import register_demo

        register_demo(app, demo_book)
    # What is loaded by now lives as long as the server. Frozen, it is left out of the collector's
    # full passes, which otherwise stop every thread of the process for 100 ms or more, and its
    # pages stay shared with forked workers (see the gc.freeze documentation).
    gc.freeze()
    banner = (f"textbook chat on http://{host}:{port}  (generator: {chat.generator.name}, "
              f"index: {chat.index_size.get()} chunks, {chat.embedder.model_name}"
              f"{f', {workers} workers' if workers > 1 else ''})"
              + (f"; MCP at http://{host}:{port}/mcp" if settings.mcp_enabled else ""))
    if workers > 1 and settings.rate_limit_storage.startswith("memory"):
        click.echo(f"note: each of the {workers} workers counts RATE_LIMIT on its own; "
                   "set RATE_LIMIT_STORAGE to a shared store to count them together")
    limits = {"max_body_bytes": settings.max_request_bytes, "read_timeout_s": settings.request_read_timeout_s,
              "connection_limit": settings.max_connections,
              "connections_per_address": settings.max_connections_per_address,
              "trusted_proxies": settings.trusted_proxies}
    allow_connections(settings.max_connections)
    try:
        if workers > 1:
            from server.serving.workers import serve_workers

            chat.before_fork()
            serve_workers(app, host, port, workers=workers, threads=threads, after_fork=chat.after_fork,
                          on_ready=lambda: click.echo(banner), on_worker_exit=chat.leave_worker, **limits)
        else:
            from server.serving.wsgi import make_server

            try:
                server = make_server(app, host, port, threads, **limits)
            except OSError as exc:  # taken since the check
                _fail(bind_problem(host, port, exc), 1)
            click.echo(banner)
            server.run()
    except KeyboardInterrupt:
        pass
    finally:
        chat.close()  # only here: a worker leaves through workers._leave


@main.command()
def migrate() -> None:
    """Bring the sessions database (DATABASE_URL) to this version's schema; `serve` does it too."""
    from server.composition import open_sessions

    settings = _settings()
    try:
        store = open_sessions(settings)
    except TextbookChatError as exc:
        _fail(exc.diagnosis, 1)
    before, after = store.revisions
    store.close()
    click.echo(f"{store.where}: schema {after}" + (f" (was {before or 'empty'})" if before != after else ", up to date"))


main.add_command(eval_command)


def _add_feature_commands() -> None:
    """Each feature's commands, from its own package (a feature plugs in whole)."""
    from server.checkbook import command as checkbook
    from server.insights import commands as insights
    from server.library import commands as library
    from server.mcp_server import commands as mcp
    from server.operations import commands as operations

    for feature in (insights, operations, library, mcp, checkbook):
        for command in feature.COMMANDS:
            main.add_command(command)


_add_feature_commands()

"""What every `textbook-chat` command does alike: fail with one line, read the settings."""
from __future__ import annotations

import logging
import sys

import click

from server.settings import Settings, SettingsError, load_settings


def fail(message: str, status: int = 2) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


def settings() -> Settings:
    try:
        return load_settings()
    except SettingsError as exc:
        fail(str(exc), 1)  # a configuration mistake: the message names the setting and what it takes


def setup_logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # one line per answer is ours ("gemini completed … tokens"); the SDK's and its HTTP client's
    # per-request lines only repeat it
    for chatty in ("google_genai", "httpx", "httpx2"):
        logging.getLogger(chatty).setLevel(logging.WARNING)

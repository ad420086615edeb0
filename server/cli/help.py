"""The part of `--help` that names the data folder and the settings a command reads."""
from __future__ import annotations

import textwrap
from dataclasses import MISSING, fields

from server.settings import Settings


def settings_epilog(*concerns: str) -> str:
    """A `--help` epilog listing the environment settings of `concerns` with their defaults
    (click keeps a paragraph that starts with \\b as written)."""
    lines = ["\b", "The data folder is TEXTBOOK_CHAT_DATA_DIR (default: ./data): the book index (index/),",
             "the sessions database (sessions.db) and the embedding model (models/).",
             "Settings, read from the environment or a .env file in the current folder:"]
    for concern in concerns:
        names = []
        for setting in fields(Settings):
            if setting.metadata["concern"] != concern or not setting.metadata["env"]:
                continue
            default = setting.default if setting.default is not MISSING else setting.default_factory()
            shown = ",".join(default) if isinstance(default, tuple) else default
            names.append(" / ".join(setting.metadata["env"]) + ("" if shown in (None, "", ()) else f"={shown}"))
        lines.extend(textwrap.wrap(f"{concern}: " + ", ".join(names), width=96, initial_indent="  ",
                                   subsequent_indent="      ", break_on_hyphens=False))
    return "\n".join(lines)

"""The Layout of the developer's notes (docs/development.md, where the README points for it) is
true to the tree: every folder and file it names exists, and every package of server/ is named."""
from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOTES = REPO / "docs" / "development.md"


def _layout() -> list[str]:
    text = NOTES.read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    return block.splitlines()


def test_the_layout_names_what_exists_and_every_server_package():
    named, parents = set(), []
    for line in _layout():
        entry = re.match(r"^( {0,4})(\S+/|\S+\.py)(?: {2,}|$)", line)
        if not entry or entry.group(2).startswith(("`", "(")):
            continue
        depth = len(entry.group(1)) // 2
        parents = parents[:depth] + [entry.group(2).rstrip("/")]
        path = REPO.joinpath(*parents)
        assert path.exists(), f"the Layout of docs/development.md names {'/'.join(parents)}, which does not exist"
        named.add("/".join(parents))
    packages = {f"server/{p.name}" for p in (REPO / "server").iterdir() if (p / "__init__.py").exists()}
    assert packages - named == set()
    files = {f"server/{p.name}" for p in (REPO / "server").glob("*.py") if p.name != "__init__.py"}
    assert files - named == set(), "a module at the top of server/ is missing from the Layout"

"""The README and docs/ hold together: the README stays short enough to read in five minutes,
every relative link (and its #anchor) of the README and of docs/ leads somewhere, and every
`textbook-chat` command, option, `make` target and path of the repository that they name exists.
(docs/deploy.md's commands are also run, by tests/test_deploy.py.)"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TOP = ("server", "tests", "deploy", "scripts", "widget", "benchmarks", "eval", "docs", "sample-book")


def _ids(page: Path) -> list[str]:
    return [str(p.relative_to(REPO)) for p in PAGES if p == page]


def _prose(text: str) -> str:
    """The text without its code: fenced blocks and inline code spans."""
    return re.sub(r"`[^`\n]*`", "", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S))


def _code(text: str) -> list[str]:
    """Shell lines of fenced bash/sh blocks (continuations joined), and inline code spans."""
    lines = []
    for block in re.findall(r"^```(?:bash|sh|shell)\n(.*?)^```", text, flags=re.M | re.S):
        lines += block.replace("\\\n", " ").splitlines()
    return lines + re.findall(r"`([^`\n]+)`", _prose_keep_inline(text))


def _prose_keep_inline(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


@cache
def _anchors(page: Path) -> set[str]:
    """GitHub's ids of the page's headings: lower case, punctuation dropped, spaces to hyphens,
    -1, -2 … after a repeated one."""
    seen: dict[str, int] = {}
    ids = set()
    for heading in re.findall(r"^#{1,6} +(.+?) *$", _prose_keep_inline(page.read_text()), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        ids.add(slug if n == 0 else f"{slug}-{n}")
    return ids


def test_the_readme_reads_in_five_minutes():
    assert len((REPO / "README.md").read_text().splitlines()) <= 300
    assert (REPO / "README.md").read_text().split("```bash\n", 1)[1].startswith("make run ")  # the first commands


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_leads_somewhere(page):
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", _prose(page.read_text())):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto: …
            continue
        path, _, anchor = target.partition("#")
        found = (page.parent / path).resolve() if path else page
        if not found.exists():
            broken.append(f"{target}: no such file")
        elif anchor and found.suffix == ".md" and anchor not in _anchors(found):
            broken.append(f"{target}: no heading #{anchor} in {found.relative_to(REPO)}")
    assert broken == []


@cache
def _commands() -> dict[str, set[str]]:
    from server.cli import main

    return {name: {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)} | {"--help"}
            for name, command in main.commands.items()}


@cache
def _make_targets() -> set[str]:
    return set(re.findall(r"^([a-z][\w-]*):", (REPO / "Makefile").read_text(), flags=re.M))


INVOKED = re.compile(r"(?:^|[\s`'(])(?:[\w./~-]*/bin/)?textbook-chat +(?P<sub>[a-z][\w-]*)(?P<rest>[^;&#]*)"
                     r"|deploy/run\.sh +\S+ +(?P<run_sub>[a-z][\w-]*)(?P<run_rest>[^;&#]*)")


PATH = re.compile(r"(?:^|[\s`'(\[])((?:/opt/textbook-chat/)?(?:" + "|".join(TOP) + r")/[\w./*<>{}…-]*)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_command_option_target_and_path_named_exists(page):
    commands, wrong = _commands(), []
    for line in _code(page.read_text()):
        for call in INVOKED.finditer(line):
            sub, rest = (call["sub"], call["rest"]) if call["sub"] else (call["run_sub"], call["run_rest"])
            if sub not in commands:
                wrong.append(f"{line}: no command textbook-chat {sub}")
                continue
            wrong += [f"{line}: textbook-chat {sub} has no {option}"
                      for option in re.findall(r"(?<![\w-])--[a-z][\w-]*", rest) if option not in commands[sub]]
        wrong += [f"{line}: no make target {target}" for target in re.findall(r"(?:^|&&|;|[`(])\s*make ([a-z][\w-]*)", line)
                  if target not in _make_targets()]
        for path in re.findall(PATH, line):
            path = path.removeprefix("/opt/textbook-chat/").rstrip(".")
            if not re.search(r"[<*…{]", path) and not (REPO / path).exists():
                wrong.append(f"{line}: no {path} in the repository")
    assert wrong == []

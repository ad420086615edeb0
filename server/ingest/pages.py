"""Discover a book's pages in reading order, each with its title, place in the book and URL."""
from __future__ import annotations

import hashlib
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

import frontmatter
import yaml

from .clean import clean_markdown
from .routes import doc_id, doc_slug, is_category_index, page_url, parse_number_prefix
from .site import Site


@dataclass
class Page:
    source_file: str  # relative to the book's content root, as on disk
    title: str
    url: str  # page URL without an anchor
    categories: list[str]  # enclosing sidebar categories, outermost first
    order: int  # reading order, 1-based
    body: str  # cleaned markdown
    file_hash: str  # of the raw file bytes
    anchor_style: str = "docusaurus"
    doc_id: str = ""

    @property
    def module(self) -> str:
        return self.categories[0] if self.categories else ""


@dataclass
class SkippedFile:
    source_file: str
    reason: str


@dataclass
class Discovery:
    pages: list[Page] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _first_heading(body: str) -> str | None:
    match = re.search(r"^#\s+(.+?)\s*#*\s*$", body, re.MULTILINE)
    return match.group(1).strip() if match else None


# --- Docusaurus ---------------------------------------------------------------------------

@dataclass
class _Entry:
    position: float | None
    name: str
    path: Path
    is_dir: bool
    front_matter: dict = field(default_factory=dict)
    category: dict = field(default_factory=dict)


def _read_category(folder: Path) -> dict:
    for name in ("_category_.json", "_category_.yml", "_category_.yaml"):
        meta = folder / name
        if meta.is_file():
            text = meta.read_text(encoding="utf-8")
            try:
                return json.loads(text) if name.endswith(".json") else (yaml.safe_load(text) or {})
            except (json.JSONDecodeError, yaml.YAMLError):
                return {}
    return {}


def _sort_key(entry: _Entry) -> tuple:
    return (entry.position is None, entry.position or 0, entry.name)


def _docusaurus_entries(folder: Path, parsed: dict[Path, dict | Exception]) -> list[_Entry]:
    entries: list[_Entry] = []
    for child in folder.iterdir():
        if child.name.startswith(("_", ".")):
            continue
        number, _ = parse_number_prefix(child.stem if child.is_file() else child.name)
        if child.is_dir():
            if not any(child.rglob("*.md*")):
                continue
            category = _read_category(child)
            position = category.get("position", number)
            entries.append(_Entry(position, child.name, child, True, category=category))
        elif child.suffix in (".md", ".mdx"):
            meta = parsed.get(child)
            fm = meta if isinstance(meta, dict) else {}
            position = fm.get("sidebar_position", number)
            position = position if isinstance(position, (int, float)) else number
            entries.append(_Entry(position, child.name, child, False, front_matter=fm))
    return sorted(entries, key=_sort_key)


def _parse_all(root: Path) -> dict[Path, dict | Exception]:
    parsed: dict[Path, dict | Exception] = {}
    for path in sorted(list(root.rglob("*.md")) + list(root.rglob("*.mdx"))):
        try:
            post = frontmatter.loads(path.read_text(encoding="utf-8"))
            if not isinstance(post.metadata, dict):
                raise ValueError("front matter is not a mapping")
            parsed[path] = {**post.metadata, "__body__": post.content}
        except Exception as exc:  # yaml errors come in several classes; all mean "skip this file"
            parsed[path] = exc
    return parsed


def _docusaurus_pages(site: Site) -> Discovery:
    root = site.content_root
    parsed = _parse_all(root)
    found = Discovery()
    ordered: list[tuple[Path, list[str]]] = []

    def walk(folder: Path, categories: list[str]) -> None:
        entries = _docusaurus_entries(folder, parsed)
        # the folder's own index page comes first inside its category
        entries.sort(key=lambda e: not (not e.is_dir and is_category_index(e.path.stem, folder.name if folder != root else "")))
        for entry in entries:
            if entry.is_dir:
                label = entry.category.get("label") or parse_number_prefix(entry.name)[1]
                walk(entry.path, categories + [str(label)])
            else:
                ordered.append((entry.path, categories))

    walk(root, [])
    for path, categories in ordered:
        rel = path.relative_to(root).as_posix()
        meta = parsed[path]
        if isinstance(meta, Exception):
            reason = str(meta).splitlines()[0] if str(meta) else type(meta).__name__
            found.skipped.append(SkippedFile(rel, f"front matter could not be read: {reason}"))
            continue
        if meta.get("draft") is True or meta.get("unlisted") is True:
            continue
        body = clean_markdown(meta["__body__"])
        fm_id = str(meta["id"]) if meta.get("id") is not None else None
        fm_slug = str(meta["slug"]) if meta.get("slug") is not None else None
        title = meta.get("title") or _first_heading(body) or meta.get("sidebar_label") or posixpath.basename(doc_id(rel, fm_id))
        slug = doc_slug(rel, fm_id, fm_slug)
        found.pages.append(Page(
            source_file=rel,
            title=str(title),
            url=page_url(site.site_url, site.base_url, site.route_base_path, slug),
            categories=categories,
            order=len(found.pages) + 1,
            body=body,
            file_hash=_hash(path.read_bytes()),
            anchor_style="docusaurus",
            doc_id=doc_id(rel, fm_id),
        ))
    return found


# --- mdBook -------------------------------------------------------------------------------

_SUMMARY_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*]\s+)?\[(?P<title>[^\]]+)\]\((?P<file>[^)]*)\)")


def _summary(root: Path) -> list[tuple[str, str, int]]:
    """(title, file, depth) for each linked chapter of SUMMARY.md, in order."""
    items = []
    for line in (root / "SUMMARY.md").read_text(encoding="utf-8").splitlines():
        match = _SUMMARY_ITEM.match(line)
        if match and match["file"].strip():
            depth = len(match["indent"].expandtabs(4)) // 2 if line.lstrip().startswith(("-", "*")) else 0
            items.append((match["title"].strip(), match["file"].strip(), depth))
    return items


def _mdbook_url(site: Site, rel: str) -> str:
    stem = posixpath.splitext(rel)[0]
    if posixpath.basename(stem).lower() == "readme":
        stem = posixpath.join(posixpath.dirname(stem), "index")
    return f"{site.site_url}/{stem}.html"


def _mdbook_pages(site: Site) -> Discovery:
    root = site.content_root
    found = Discovery()
    top_title = ""
    for title, rel, depth in _summary(root):
        path = root / rel
        if depth == 0:
            top_title = title
        if not path.is_file():
            found.skipped.append(SkippedFile(rel, "listed in SUMMARY.md but missing"))
            continue
        raw = path.read_bytes()
        try:
            body = clean_markdown(raw.decode("utf-8"))
        except UnicodeDecodeError:
            found.skipped.append(SkippedFile(rel, "not UTF-8 text"))
            continue
        found.pages.append(Page(
            source_file=rel,
            title=title,
            url=_mdbook_url(site, rel),
            categories=[top_title],
            order=len(found.pages) + 1,
            body=body,
            file_hash=_hash(raw),
            anchor_style="mdbook",
            doc_id=posixpath.splitext(rel)[0],
        ))
    return found


def discover_pages(site: Site) -> Discovery:
    return _mdbook_pages(site) if site.kind == "mdbook" else _docusaurus_pages(site)

"""Where a book lives: its content folder, kind (Docusaurus or mdBook), title and public URL."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Iterator


class BookError(ValueError):
    """The path given is not a book we can read."""


@dataclass(frozen=True)
class Site:
    kind: str  # "docusaurus" | "mdbook"
    content_root: Path  # folder that source_file paths are relative to
    title: str
    site_url: str = ""  # scheme + host, e.g. https://example.org
    base_url: str = "/"
    route_base_path: str = "docs"
    site_dir: Path | None = None  # the Docusaurus site folder (docusaurus.config.* inside), when known
    project_name: str = ""  # Docusaurus projectName: the book's default id
    trailing_slash: bool | None = None  # Docusaurus trailingSlash (None: routes as they are)
    default_locale: str = "en"
    locales: tuple[str, ...] = ("en",)
    build_dir: Path | None = None  # the rendered site to read instead of the sources, when there is one
    hidden_code_lines: tuple[tuple[str, str], ...] = ()  # an mdBook's (language, prefix) of code lines it hides
    sidebars_file: Path | None = None  # the sidebars the config names, when it names one
    # an indented block is code: CommonMark's rule (mdBook) and MDX 1's (Docusaurus 1 and 2);
    # MDX 2 and later (Docusaurus 3) read it as text
    indented_code: bool = True


_CONFIG_NAMES = ("docusaurus.config.js", "docusaurus.config.ts", "docusaurus.config.mjs")


def _config_value(source: str, key: str) -> str | None:
    match = re.search(rf"\b{key}\s*:\s*(['\"`])([^'\"`]*)\1", source)
    return match.group(2) if match else None


def _config_bool(source: str, key: str) -> bool | None:
    match = re.search(rf"\b{key}\s*:\s*(true|false)\b", source)
    return None if not match else match.group(1) == "true"


def _config_locales(source: str) -> tuple[str, tuple[str, ...]]:
    """i18n.defaultLocale and i18n.locales, when written as literals."""
    block = re.search(r"\bi18n\s*:\s*\{(.*?)\blocales\s*:\s*\[([^\]]*)\]", source, re.DOTALL)
    default = _config_value(source, "defaultLocale") or "en"
    if not block:
        return default, (default,)
    locales = tuple(re.findall(r"['\"`]([^'\"`]+)['\"`]", block.group(2))) or (default,)
    return default, locales


_PLACEHOLDER = re.compile(r"\$\{\s*(?:[\w$]+\.)*([\w$]+)\s*\}")  # "${meta.shortTitle}": its last name
_LOCAL_IMPORT = re.compile(r"""(?:\bfrom\s+|\brequire\(\s*)["'](\.{1,2}/[^"']+)["']""")


def _modules(config: Path, source: str) -> Iterator[tuple[Path, str]]:
    """The modules of its own folder a config imports ("./config/i18n"), with their text, read as
    asked for: a config split into files states its i18n and its title there."""
    for spec in _LOCAL_IMPORT.findall(source):
        base = config.parent / spec
        candidates = [base, *(base.with_name(base.name + ext) for ext in (".ts", ".js", ".mjs", ".cjs")),
                      *(base / f"index{ext}" for ext in (".ts", ".js"))]
        module = next((c for c in candidates if c.is_file()), None)
        if module is not None:
            yield module, module.read_text(encoding="utf-8", errors="replace")


_SIDEBARS_PATH = re.compile(r"""["'`]([^"'`\n]*sidebars\.(?:js|ts|mjs|cjs|json))["'`]""")


def _sidebars_file(config: Path, source: str) -> Path | None:
    """The sidebars file the config names (`sidebarPath: require.resolve('./sidebars.js')`), in
    itself or in a module it imports, however deep: "./config/presets" imports "./docs", which
    names `path.resolve(__dirname, "../sidebars.ts")`."""
    seen: set[Path] = set()
    todo = [(config, source)]
    while todo and len(seen) < 30:
        path, text = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        for spec in _SIDEBARS_PATH.findall(text):
            found = next((base / spec for base in (path.parent, config.parent) if (base / spec).is_file()), None)
            if found is not None:
                return found.resolve()
        todo.extend(_modules(path, text))
    return None


def _imported(config: Path, source: str) -> str:
    return "\n".join(text for _, text in _modules(config, source))


def _title(config: Path | None, source: str) -> str | None:
    """The site's title: a literal in the config, else in a module it imports ("./config/site");
    a template's placeholders ("📚 ${meta.shortTitle}") read from literals in that module and the
    modules it imports. None when no title is written as text."""
    for path, text in chain([(config, source)], _modules(config, source) if config else ()):
        title = _config_value(text, "title")
        if title is None:
            continue
        known = f"{text}\n{_imported(path, text)}" if "${" in title and path else text
        resolved = _PLACEHOLDER.sub(lambda m: _config_value(known, m.group(1)) or "\0", title)
        if "\0" not in resolved:
            return resolved
    return None


def _imported_locales(config: Path, source: str) -> tuple[str, tuple[str, ...]] | None:
    """defaultLocale and locales written as literals in a module the config imports, if any."""
    text = _imported(config, source)
    default = _config_value(text, "defaultLocale")
    if default is None:
        return None
    listed = re.search(r"\blocales\s*:\s*\[([^\]]*)\]", text)
    locales = tuple(re.findall(r"['\"`]([^'\"`]+)['\"`]", listed.group(1))) if listed else ()
    return default, locales or (default,)


def _find_docusaurus_config(folder: Path) -> Path | None:
    for candidate_dir in (folder, folder.parent):
        for name in _CONFIG_NAMES:
            if (candidate_dir / name).is_file():
                return candidate_dir / name
    return None


def _docusaurus_site(root: Path, site_url: str | None, base_url: str | None, build_dir: Path | None) -> Site:
    config = _find_docusaurus_config(root)
    source = config.read_text(encoding="utf-8") if config else ""
    content_root = root / "docs" if config and config.parent == root and (root / "docs").is_dir() else root
    route_base = _config_value(source, "routeBasePath")
    url = site_url if site_url is not None else (_config_value(source, "url") or "")
    title = _title(config, source) or content_root.resolve().parent.name
    default_locale, locales = _config_locales(source)
    if config is not None and "defaultLocale" not in source:
        default_locale, locales = _imported_locales(config, source) or (default_locale, locales)
    site_dir = config.parent if config else None
    if build_dir is None and site_dir is not None and config.parent == root and (root / "build").is_dir():
        build_dir = root / "build"
    return Site(
        kind="docusaurus",
        content_root=content_root,
        title=title,
        site_url=url.rstrip("/"),
        base_url=base_url if base_url is not None else (_config_value(source, "baseUrl") or "/"),
        route_base_path=route_base if route_base is not None else "docs",
        site_dir=site_dir,
        project_name=_config_value(source, "projectName") or "",
        trailing_slash=_config_bool(source, "trailingSlash"),
        default_locale=default_locale,
        locales=locales,
        build_dir=build_dir,
        sidebars_file=_sidebars_file(config, source) if config else None,
        indented_code=_docusaurus_major(site_dir) < 3,
    )


def _docusaurus_major(site_dir: Path | None) -> int:
    """The Docusaurus major version the site's package.json asks for (3, the current one, when
    it says none)."""
    package = site_dir / "package.json" if site_dir else None
    text = package.read_text(encoding="utf-8") if package and package.is_file() else ""
    found = re.search(r'"@docusaurus/core"\s*:\s*"[^"\d]*(\d+)', text)
    return int(found.group(1)) if found else 3


def _mdbook_site(root: Path, site_url: str | None) -> Site:
    book_dir = root if (root / "book.toml").is_file() else root.parent
    content_root = root / "src" if (root / "src" / "SUMMARY.md").is_file() else root
    title = content_root.resolve().parent.name
    toml_path = book_dir / "book.toml"
    config: dict = {}
    if toml_path.is_file():
        try:
            config = tomllib.loads(toml_path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise BookError(f"{toml_path}: not valid TOML ({exc})") from exc
    html = config.get("output", {}).get("html", {})
    language = str(config.get("book", {}).get("language") or "en")
    return Site(kind="mdbook", content_root=content_root, title=config.get("book", {}).get("title", title),
                site_url=(site_url if site_url is not None else html.get("site-url", "")).rstrip("/"),
                base_url="/", route_base_path="", default_locale=language, locales=(language,),
                hidden_code_lines=_hidden_code_lines(html))


def _hidden_code_lines(html: dict) -> tuple[tuple[str, str], ...]:
    """(language, prefix) of the code lines an mdBook hides: Rust's `#` always, and the ones its
    book.toml sets (`output.html.code.hidelines`, or a playground's `boring-prefixes`)."""
    hidden = {"rust": "#"}  # mdBook hides these in every book
    for table in (html.get("playground", {}).get("boring-prefixes", {}), html.get("code", {}).get("hidelines", {})):
        if isinstance(table, dict):
            hidden.update({str(k).lower(): str(v) for k, v in table.items() if str(v).strip()})
    return tuple(sorted(hidden.items()))


def detect_site(path: str | Path, *, site_url: str | None = None, base_url: str | None = None,
                build_dir: str | Path | None = None) -> Site:
    """The book at PATH. A Docusaurus site folder with a `build/` (or an explicit `build_dir`) is
    read from its rendered pages; a docs folder, or a site without a build, from its sources."""
    root = Path(path)
    if not root.exists():
        raise BookError(f"{root}: no such folder")
    if not root.is_dir():
        raise BookError(f"{root}: not a folder (give the book's docs/ or src/ folder)")
    if (root / "SUMMARY.md").is_file() or (root / "src" / "SUMMARY.md").is_file():
        site = _mdbook_site(root, site_url)
    else:
        site = _docusaurus_site(root, site_url, base_url, Path(build_dir) if build_dir else None)
        if site.build_dir is not None and not site.build_dir.is_dir():
            raise BookError(f"{site.build_dir}: no such build folder")
    if not any(site.content_root.rglob("*.md")) and not any(site.content_root.rglob("*.mdx")):
        raise BookError(f"{root}: no .md or .mdx pages found")
    return site

"""The server's shape, read from its source: its import graph goes one way (from the program
down to the parts), it has no import circle, and no module grows past what one reader holds."""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SERVER = REPO / "server"
MAX_LINES = 300

# lowest first: a module imports from its own layer and the layers below it, never above
LAYERS = [
    ("base", ["server", "server.errors", "server.models", "server.outline", "server.citation", "server.batching",
              "server.pump", "server.index_size", "server.privacy", "server.page_urls"]),
    ("parts", ["server.settings", "server.embedding", "server.store", "server.sessions"]),
    ("domain", ["server.ingest", "server.rag", "server.course", "server.book", "server.insights"]),
    ("application", ["server.composition", "server.evaluation", "server.answer_measures", "server.demo",
                     "server.operations"]),
    ("program", ["server.api", "server.app", "server.wsgi", "server.workers", "server.startup", "server.mcp_server",
                 "server.__main__", "server.cli", "server.cli_eval", "server.cli_help", "server.cli_llms",
                 "server.cli_mcp", "server.cli_operations", "server.cli_shared", "server.checkbook"]),
]
# inside the question path, lowest first: what every stage uses, the generators, then the stages
# in the order a question passes them, and the pipeline that only sequences them
RAG_LAYERS = [
    ("rag parts", ["server.rag"]),
    ("generators", ["server.rag.generators"]),
    ("understand", ["server.rag.understand"]),
    ("gather", ["server.rag.gather"]),
    ("judge", ["server.rag.judge"]),
    ("compose", ["server.rag.compose"]),
    ("turn", ["server.rag.turn"]),
    ("record", ["server.rag.record"]),
    ("pipeline", ["server.rag.pipeline"]),
]


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in SERVER.rglob("*.py")}


def _imports(name: str) -> set[str]:
    """The server modules `name` imports, anywhere in it (also inside functions)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            submodules = {f"{module}.{alias.name}" for alias in node.names} & MODULES.keys()
            # `from . import x` names a module; `from .m import x` needs m (and so its package)
            found.update(submodules or {module})
    return {_owner(m) for m in found if _owner(m)} - {name}


def _owner(module: str) -> str | None:
    while module and module not in MODULES:
        module = module.rpartition(".")[0]
    return module if module.startswith("server") else None


GRAPH = {name: _imports(name) for name in MODULES}


def _place(name: str, layers) -> int | None:
    """The layer of a module: that of the longest prefix listed."""
    best, where = -1, None
    for rank, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            inside = name.startswith(prefix + ".") and prefix != "server"  # the package itself: only itself
            if (name == prefix or inside) and len(prefix) > best:
                best, where = len(prefix), rank
    return where


def test_every_module_has_a_layer():
    assert [name for name in MODULES if _place(name, LAYERS) is None] == []


def test_no_module_imports_from_a_higher_layer():
    upward = []
    for name, imported in GRAPH.items():
        for other in imported:
            if other == "server" or None in (_place(name, LAYERS), _place(other, LAYERS)):
                continue  # the package itself (its version); a module without a layer fails above
            if _place(other, LAYERS) > _place(name, LAYERS):
                upward.append(f"{name} ({LAYERS[_place(name, LAYERS)][0]}) imports {other} "
                              f"({LAYERS[_place(other, LAYERS)][0]})")
            both_rag = name.startswith("server.rag.") and other.startswith("server.rag.")
            if both_rag and _place(other, RAG_LAYERS) > _place(name, RAG_LAYERS):
                upward.append(f"{name} imports the later stage {other}")
    assert upward == []


def test_no_import_circle():
    circles, done, path = [], set(), []

    def visit(name: str) -> None:
        if name in path:
            circles.append(" → ".join(path[path.index(name):] + [name]))
            return
        if name in done:
            return
        path.append(name)
        for other in sorted(GRAPH[name]):
            if other != "server":
                visit(other)
        path.pop()
        done.add(name)

    for name in sorted(GRAPH):
        visit(name)
    assert circles == []


def test_the_layers_check_sees_what_they_forbid():
    """The checks read real edges: known imports are found, in and across layers."""
    assert "server.rag.judge" in GRAPH["server.rag.turn"]
    assert "server.rag.retrieval" in GRAPH["server.rag.gather"]
    assert "server.sessions" in GRAPH["server.rag.record"]
    assert "server.rag.markers" in GRAPH["server.rag.compose"]  # `from . import markers`
    assert _place("server.rag.generators.gemini.agent", RAG_LAYERS) == 1
    assert _place("server.api.routes", LAYERS) > _place("server.composition", LAYERS) > _place("server.rag.pipeline", LAYERS)


def test_the_pipeline_only_sequences_the_stages():
    stages = {f"server.rag.{s}" for s in ("understand", "gather", "judge", "compose", "record", "turn")}
    imported = GRAPH["server.rag.pipeline"]
    assert stages - {"server.rag.turn"} <= imported
    # besides the stages: the question in, the events out, and the error it raises
    assert imported - stages <= {"server.rag.question", "server.rag.events", "server.errors"}


def test_no_module_is_longer_than_one_reader_holds():
    long = {str(p.relative_to(REPO)): n for p in MODULES.values() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}

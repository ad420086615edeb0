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
    ("base", ["server", "server.errors", "server.book", "server.text", "server.batching", "server.pump",
              "server.index_size"]),
    ("parts", ["server.settings", "server.embedding", "server.store", "server.sessions"]),
    ("domain", ["server.ingest", "server.question", "server.course", "server.library", "server.insights"]),
    ("application", ["server.composition", "server.evaluation", "server.serving.demo", "server.operations"]),
    # the program, and each feature's own web pages and commands (a feature plugs in whole)
    ("program", ["server.api", "server.app", "server.serving", "server.mcp_server", "server.__main__", "server.cli",
                 "server.checkbook", "server.insights.web", "server.insights.commands", "server.library.web",
                 "server.library.commands", "server.operations.commands"]),
]
# inside the question path, lowest first: what every stage uses (the question, its sources and
# events, citation markers), then the stages in the order a question passes them (each with its
# own parts: compose holds the generators), and the pipeline that only sequences them
QUESTION_LAYERS = [
    ("question parts", ["server.question"]),
    ("understand", ["server.question.understand"]),
    ("gather", ["server.question.gather"]),
    ("judge", ["server.question.judge"]),
    ("compose", ["server.question.compose"]),
    ("route", ["server.question.route"]),
    ("record", ["server.question.record"]),
    ("pipeline", ["server.question.pipeline"]),
]
MAX_FILES = 20  # Python files directly in one folder of server/
MAX_TOP_FILES = 12  # in server/ itself


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
            both = name.startswith("server.question") and other.startswith("server.question")
            if both and _place(other, QUESTION_LAYERS) > _place(name, QUESTION_LAYERS):
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
    assert "server.question.judge" in GRAPH["server.question.record.turn"]
    assert "server.question.gather.retrieval" in GRAPH["server.question.gather"]
    assert "server.sessions" in GRAPH["server.question.record"]
    assert "server.question.markers" in GRAPH["server.question.compose"]  # `from server.question import markers`
    assert _place("server.question.compose.gemini.agent", QUESTION_LAYERS) == 4
    assert "server.question.route" in GRAPH["server.question.record.turn"]
    assert _place("server.question.context", QUESTION_LAYERS) == 0
    assert _place("server.api.routes", LAYERS) > _place("server.composition", LAYERS) > \
        _place("server.question.pipeline", LAYERS)


def test_the_pipeline_only_sequences_the_stages():
    stages = {f"server.question.{s}"
              for s in ("understand", "gather", "judge", "compose", "route", "record", "record.turn")}
    imported = GRAPH["server.question.pipeline"]
    # the routes bring gather, judge and compose: the pipeline names none of their parts
    assert {f"server.question.{s}" for s in ("understand", "route", "record", "record.turn")} <= imported
    # besides the stages: the question in, the events out, and the error it raises
    assert imported - stages <= {"server.question", "server.question.events", "server.errors"}


def test_no_module_is_longer_than_one_reader_holds():
    long = {str(p.relative_to(REPO)): n for p in MODULES.values() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_no_folder_is_a_flat_room():
    """A folder holds a few files with one job each; a larger concern is a package of its own."""
    folders = {p.parent for p in MODULES.values()}
    crowded = {str(f.relative_to(REPO)): n for f in folders
               if (n := len(list(f.glob("*.py")))) > (MAX_TOP_FILES if f == SERVER else MAX_FILES)}
    assert crowded == {}


def test_features_plug_into_the_question_path_it_does_not_know_them():
    """The insights keep what they need of a finished question through Record's `keep` (wired in
    composition); nothing on the question path imports a feature."""
    features = ("server.insights", "server.course", "server.mcp_server", "server.operations", "server.library")
    reaching = {name: sorted(o for o in imported if o.startswith(features))
                for name, imported in GRAPH.items() if name.startswith("server.question")}
    assert {name: found for name, found in reaching.items() if found} == {}


def test_a_feature_brings_its_own_pages_and_commands():
    """The insights, llms.txt, MCP and the operator's commands live in their packages, web pages and
    commands included: the readers' API (api/) uses none of them, and each registers itself."""
    features = ("server.insights", "server.library", "server.mcp_server", "server.operations", "server.checkbook")
    api = {name: sorted(o for o in imported if o.startswith(features))
           for name, imported in GRAPH.items() if name.startswith("server.api")}
    assert {name: found for name, found in api.items() if found} == {}
    for web in ("server.insights.web", "server.library.web", "server.mcp_server.web"):
        assert "def register(" in MODULES[web].read_text()
    for commands in ("server.insights.commands", "server.library.commands", "server.mcp_server.commands",
                     "server.operations.commands", "server.checkbook.command"):
        assert "COMMANDS = " in MODULES[commands].read_text()


def test_the_insights_read_the_sessions_through_their_methods():
    """The sessions package owns its tables: the insights ask SessionStore, never the schema."""
    reaching = {name: sorted(o for o in imported if o in ("server.sessions.schema", "server.sessions.statements"))
                for name, imported in GRAPH.items() if name.startswith("server.insights")}
    assert {name: found for name, found in reaching.items() if found} == {}

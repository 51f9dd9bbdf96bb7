"""The package layout's rules, checked on the source (every import statement, read with `ast`)
and on what a fresh interpreter really loads.

- Only `cli` (and `python -m session_kit`) imports `session_kit.cli`; the core never imports click.
- `transcript` (one file's bytes) knows nothing of sessions, queries or the edges above it.
- `base` is the ground floor both sides stand on: standard library only.
- `state`, `hooks`, `memory` and `archive` run inside hooks: standard library, `base` and each
  other only (the redactor loaded on first use), and a hook's import stays within its budget.
- A package's `__init__.py` is light, so importing one module drags in nothing else.
- No module grows past 500 lines, the benchmarks' included.
- The hook events agree everywhere they are named: `base.hook_events`, `install.settings`,
  `hooks.handlers` and the plugin's `hooks/hooks.json` and `hooks/run-hook`.
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"
PACKAGE = SRC / "session_kit"
MAX_LINES = 500


@dataclass(frozen=True)
class Import:
    module: str  # the dotted module imported (`from a.b import c` is `a.b.c` when c is a module)
    line: int
    in_function: bool  # a lazy import, run only when the function is called
    typing_only: bool = False  # under `if TYPE_CHECKING:`: read by type checkers, never run


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}
PACKAGES = sorted(module_name(p) for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)


class _ImportCollector(ast.NodeVisitor):
    def __init__(self, name: str, is_package: bool) -> None:
        self.package = name if is_package else name.rpartition(".")[0]
        self.depth = 0
        self.typing = 0
        self.found: list[Import] = []

    def _scope(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _scope

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if getattr(test, "id", None) == "TYPE_CHECKING" or getattr(test, "attr", None) == "TYPE_CHECKING":
            self.typing += 1
            for child in node.body:
                self.visit(child)
            self.typing -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append(Import(alias.name, node.lineno, self.depth > 0, self.typing > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".")
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            candidate = f"{base}.{alias.name}"
            module = candidate if candidate in MODULES else base
            self.found.append(Import(module, node.lineno, self.depth > 0, self.typing > 0))


def imports_of(name: str) -> list[Import]:
    path = MODULES[name]
    collector = _ImportCollector(name, path.name == "__init__.py")
    collector.visit(ast.parse(path.read_text(), str(path)))
    return collector.found


def within(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def is_stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def loaded_after(code: str, *, isolated: bool = False) -> set[str]:
    """Modules a fresh interpreter loads while running `code` (`isolated`: as a hook runs, `-I -S`)."""
    script = (
        f"import sys; sys.path.insert(0, {str(SRC)!r}); before = set(sys.modules)\n{code}\n"
        "loaded = sorted(set(sys.modules) - before)\nimport json; print(json.dumps(loaded))"
    )
    flags = ["-I", "-S"] if isolated else []
    out = subprocess.run([sys.executable, *flags, "-c", script], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out))


# The CLI's two entry points: the `session-kit` script (`session_kit.cli:run`) and `python -m session_kit`.
CLI_ENTRY = {"session_kit.__main__"}
CORE = sorted(n for n in MODULES if not within(n, "session_kit.cli") and n not in CLI_ENTRY)
# Importable without side effects: `hooks/run.py` is a script that runs a hook when loaded.
CORE_IMPORTABLE = [n for n in CORE if n != "session_kit.hooks.run"]
# The MCP server's face loads the SDK, which loads click (and much else) itself: guarded apart.
MCP_FACE = "session_kit.mcp_server.server"
CORE_WITHOUT_MCP = [n for n in CORE_IMPORTABLE if n != MCP_FACE]


# --- (a) only the CLI imports the CLI -------------------------------------------------------


def test_the_module_list_is_complete():
    assert {
        "session_kit.cli",
        "session_kit.state.ids",
        "session_kit.hooks.handlers",
        "session_kit.transcript.reader",
    } <= set(MODULES)


def test_no_module_outside_cli_imports_the_cli():
    offenders = [(n, i.module, i.line) for n in CORE for i in imports_of(n) if within(i.module, "session_kit.cli")]
    assert offenders == []


def test_the_cli_reaches_the_core_only_through_the_public_face():
    # `session_kit` itself is the version; `errors` the exit codes and the error kinds it words.
    # A type an annotation names comes from its home under `TYPE_CHECKING`: nothing runs it, and
    # the public face lists no result type (`tests/test_api.py`).
    allowed = ("session_kit.cli", "session_kit.api", "session_kit.errors")
    offenders = [
        (n, i.module, i.line)
        for n in MODULES
        if within(n, "session_kit.cli")
        for i in imports_of(n)
        if within(i.module, "session_kit")
        and i.module != "session_kit"
        and not within(i.module, *allowed)
        and not i.typing_only
    ]
    assert offenders == []


# --- (b) transcript stays below sessions ----------------------------------------------------


def test_transcript_imports_nothing_of_the_layers_above_it():
    above = ("sessions", "queries", "conversation", "preprocess", "view", "install", "hooks", "cli")
    offenders = [
        (n, i.module, i.line)
        for n in MODULES
        if within(n, "session_kit.transcript")
        for i in imports_of(n)
        if within(i.module, *(f"session_kit.{p}" for p in above))
    ]
    assert offenders == []


# --- (b2) the import graph has no cycle ------------------------------------------------------


def import_graph() -> dict[str, dict[str, list[int]]]:
    """Module -> the kit's modules it imports -> the lines: every import statement, at the top
    or inside a function (a lazy import is an arrow too, only a later one); `TYPE_CHECKING`
    blocks left out (nothing runs them)."""
    graph: dict[str, dict[str, list[int]]] = {name: {} for name in MODULES}
    for name in MODULES:
        for i in imports_of(name):
            if i.module in MODULES and i.module != name and not i.typing_only:
                graph[name].setdefault(i.module, []).append(i.line)
    return graph


def cycles(graph: dict[str, dict[str, list[int]]]) -> list[list[str]]:
    """The strongly connected parts of `graph` with more than one module (Tarjan's, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return found


def test_the_cycle_finder_finds_a_cycle_through_a_lazy_import():
    graph = {"a": {"b": [1]}, "b": {"c": [1]}, "c": {"a": [9]}, "d": {"a": [1]}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b": [1]}, "b": {}}) == []


def test_no_import_cycle_counting_the_imports_inside_functions():
    graph = import_graph()
    found = [[(a, b, graph[a][b]) for a in part for b in sorted(graph[a]) if b in part] for part in cycles(graph)]
    assert found == [], "modules that import each other (module, imports, at lines)"


# --- (b3) no arrow back up: the layers of docs/architecture.md ------------------------------

# docs/architecture.md's "Layers" table, bottom first: a module imports its own layer and the
# layers below, never one above (at the top or inside a function; `TYPE_CHECKING` left out).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("the ground floor", ("session_kit", "base")),
    (
        "leaves",
        (*("claude", "state", "redaction", "terminal", "errors", "forked", "documents", "extras"),),
    ),
    ("one file's bytes", ("transcript",)),
    ("the archive", ("archive",)),
    ("a session on disk", ("sessions",)),
    ("the conversation model", ("conversation",)),
    ("features", ("queries", "usage", "index", "team", "memory", "preprocess", "view", "install")),
    ("faces", ("cli", "api", "hooks", "mcp_server", "__main__")),
]
# The lazy imports that point up by design, each with why; nothing else may.
UPWARD_BY_DESIGN = {
    # A reader that skips a file warns with the kit's warning class, which the command line
    # shows as one line; loaded only when something is skipped, inside `fileio.skipped`.
    ("session_kit.base.fileio", "session_kit.errors"): "the warning class of a skipped file",
}


def layer_of(name: str) -> int:
    """The index in `LAYERS` of module `name` (the package `session_kit` alone is the ground floor)."""
    for number, (_title, packages) in enumerate(LAYERS):
        for package in packages:
            if name == "session_kit" if package == "session_kit" else within(name, f"session_kit.{package}"):
                return number
    raise LookupError(f"{name}: in no layer of LAYERS (add it there and to docs/architecture.md)")


def test_every_module_is_in_one_layer():
    unplaced = []
    for name in MODULES:
        try:
            layer_of(name)
        except LookupError:
            unplaced.append(name)
    assert unplaced == []


def test_no_module_imports_a_layer_above_its_own():
    upward = []
    for name in MODULES:
        for i in imports_of(name):
            if i.typing_only or i.module not in MODULES or layer_of(i.module) <= layer_of(name):
                continue
            if i.in_function and (name, i.module) in UPWARD_BY_DESIGN:
                continue
            upward.append((name, LAYERS[layer_of(name)][0], i.module, LAYERS[layer_of(i.module)][0], i.line))
    assert upward == []


def test_the_allowed_upward_imports_are_still_there_and_lazy():
    found = {(n, i.module) for n in MODULES for i in imports_of(n) if i.in_function and not i.typing_only}
    assert set(UPWARD_BY_DESIGN) <= found


def test_the_layers_table_of_the_architecture_names_each_layer_and_its_packages():
    text = (REPO / "docs" / "architecture.md").read_text()
    section = text.split("## Layers", 1)[1].split("\n## ", 1)[0]
    rows = {
        cells[0]: cells[1]
        for line in section.splitlines()
        if line.startswith("| ") and len(cells := [c.strip() for c in line.strip("|").split(" | ")]) == 3
    }
    assert [title for title, _packages in reversed(LAYERS)] == [r for r in rows if r != "layer"]
    for title, packages in LAYERS:
        named = [p for p in packages if p != "session_kit" and f"`{p}" not in rows[title]]
        assert named == [], f"docs/architecture.md's {title!r} row does not name {named}"


# --- (c) the hook side: the ground floor, state, hooks, memory, archive ---------------------

# The hook side is folders: the ground floor both sides stand on (`base`), the kit's own files
# (`state`), the hook entry points, the working memory and the archive; and the two modules of
# the index the hooks journal and fork through.
HOOK_SIDE = (
    "session_kit.base",
    "session_kit.state",
    "session_kit.hooks",
    "session_kit.memory",
    "session_kit.archive",
    "session_kit.index.journal",  # the hooks journal what they saw written, for the index
    "session_kit.index.background",
    "session_kit.redaction.screen",  # the secret guard's first look, without the rules
)
LAZY_THIRD_PARTY = {"session_kit.state.root": {"filelock", "platformdirs"}}
# The memory's texts go through the kit's one redactor (standard library, but `re`): loaded
# only when a capture has text to keep, never by the handlers' import.
# The memory also takes the one rule of what a request is from `transcript.entries`, loaded
# the same way: the capture runs beside the client, in a process no hook waits for.
# And what a line says about an agent from `transcript.agent_signals`, which the session
# model reads too.
LAZY_KIT = {
    # A reader that skips a file warns with the kit's warning class, loaded only then.
    "session_kit.base.fileio": {"session_kit.errors"},
    "session_kit.memory.text": {
        "session_kit.redaction.engine",
        "session_kit.transcript.entries",
        "session_kit.transcript.agent_signals",
    },
    # The secret guard loads the redactor only for an output its screen flagged (and reads the
    # output after its command: `redaction.printed`); the screen loads it only to write its copy
    # of the rules' anchors again.
    "session_kit.hooks.guard": {"session_kit.redaction.engine", "session_kit.redaction.printed"},
    "session_kit.redaction.screen": {"session_kit.redaction.table"},
    # The budget per subagent counts an agent's tokens the status line's way, only when a
    # budget is set and the call is a subagent's.
    "session_kit.hooks.live": {"session_kit.usage.filecount", "session_kit.usage.spend"},
    # The budget per session counts the session's spend, only when a budget is set.
    "session_kit.hooks.budget": {"session_kit.usage.spend"},
    # The index's update (SQLite and the parsers) loads only in the child a hook forks.
    "session_kit.index.background": {
        "session_kit.index.db",
        "session_kit.index.files",
        "session_kit.index.fresh",
        "session_kit.index.update",
    },
}
OUTER_PACKAGES = (
    "session_kit",
    "session_kit.redaction",
    "session_kit.claude",
    "session_kit.transcript",
    "session_kit.index",
)  # light `__init__`s


def test_state_and_hooks_import_only_the_standard_library_each_other_and_encoding():
    offenders = []
    for name in MODULES:
        if not within(name, *HOOK_SIDE):
            continue
        for i in imports_of(name):
            if is_stdlib(i.module) or within(i.module, *HOOK_SIDE) or i.module in OUTER_PACKAGES:
                continue
            if i.module in LAZY_THIRD_PARTY.get(name, set()) | LAZY_KIT.get(name, set()) and i.in_function:
                continue
            offenders.append((name, i.module, i.line, "in a function" if i.in_function else "at module level"))
    assert offenders == []


def test_the_ground_floor_imports_only_the_standard_library_and_itself():
    offenders = [
        (n, i.module)
        for n in MODULES
        if within(n, "session_kit.base")
        for i in imports_of(n)
        if not is_stdlib(i.module)
        and not within(i.module, "session_kit.base")
        and i.module != "session_kit"
        and not (i.in_function and i.module == "session_kit.errors")  # a skipped file's warning class
    ]
    assert offenders == []


def test_state_root_imports_filelock_and_platformdirs_only_inside_functions():
    lazy = {
        i.module
        for i in imports_of("session_kit.state.root")
        if not is_stdlib(i.module) and not within(i.module, "session_kit")
    }
    assert lazy == LAZY_THIRD_PARTY["session_kit.state.root"]
    assert all(i.in_function for i in imports_of("session_kit.state.root") if i.module in lazy)


HOOK_BUDGET_FORBIDDEN = {"json", "re", "typing", "pathlib", "dataclasses", "collections"}


@pytest.fixture(scope="module")
def loaded_by_the_handlers() -> set[str]:
    return loaded_after("import session_kit.hooks.handlers", isolated=True)


def test_the_hook_handlers_load_only_the_hook_side_of_the_kit(loaded_by_the_handlers: set[str]):
    ours = {m for m in loaded_by_the_handlers if within(m, "session_kit")}
    assert {m for m in ours if not within(m, *HOOK_SIDE)} == {"session_kit"}
    # the scratch dir's module and the session rules load only in the events that use them
    assert ours == HOOK_CORE | {"session_kit.hooks.handlers"}


# What every hook loads of the kit: the packages, the event's JSON and the state root.
HOOK_CORE = {
    "session_kit",
    "session_kit.hooks",
    "session_kit.hooks.hookio",
    "session_kit.state",
    "session_kit.base",
    "session_kit.base.fastjson",
    "session_kit.state.root",
}
# The live record of a session's agents, in its scratch dir (found without `state.scratch`).
LIVE_RECORD = {
    "session_kit.hooks.live",
    "session_kit.state.ids",
    "session_kit.base.fileio",
    "session_kit.state.live_agents",
    "session_kit.state.current",
    "session_kit.base.encoding",
}
SCRATCH = {
    "session_kit.hooks.handlers",
    "session_kit.state.ids",
    "session_kit.base.fileio",
    "session_kit.state.current",
    "session_kit.state.scratch",
    "session_kit.base.encoding",
}
INDEX_FRESH = {
    "session_kit.hooks.fresh",
    "session_kit.index",
    "session_kit.index.journal",
    "session_kit.index.background",
    "session_kit.archive",
    "session_kit.archive.background",
    "session_kit.base.detach",
    "session_kit.base.layout",  # where the transcript is: its Claude root
}
# The budget per session: where it is set, and the session's spend counted.
SESSION_BUDGET = {
    "session_kit.hooks.budget",
    "session_kit.state.budgets",
    "session_kit.state.ids",
    "session_kit.state.current",
    "session_kit.base.encoding",
    "session_kit.base.budget",
    "session_kit.base.fileio",
    "session_kit.base.layout",
    "session_kit.base.follow",
    "session_kit.base.timestamps",  # the follower's mtime, clamped
    "session_kit.base.tools",
    "session_kit.usage",
    "session_kit.usage.spend",
    "session_kit.usage.filecount",
    "session_kit.usage.pricerows",
    "session_kit.transcript",
    "session_kit.transcript.usagefields",
}
# The compaction hooks hand the working memory's capture to a child (`memory.capture`): the
# parent takes the memory file's lock and forks; the follower, the fold and the redactor load
# in the child alone.
CAPTURE_HANDOVER = {
    "session_kit.memory",
    "session_kit.memory.capture",
    "session_kit.memory.record",
    "session_kit.memory.settings",
    "session_kit.base.detach",
}
# What `run.py` loads before the event's own module.
STARTER = {"session_kit", "session_kit.hooks", "session_kit.hooks.start"}
# What the quick answer of PreToolUse and UserPromptSubmit loads (`hooks.quick`), and of the
# standard library past a bare interpreter: no JSON (not even its C accelerator), no lock.
QUICK = {"session_kit.state", "session_kit.state.root", "session_kit.hooks.quick"}
PROMPT_QUICK = {"session_kit.base", "session_kit.base.encoding", "session_kit.state.ids"}  # the scratch dir's path
QUICK_STDLIB = {"os", "posixpath", "genericpath", "stat", "_stat", "_collections_abc", "errno", "__future__"}
# Each event (and case) the client starts often, and all it may load of the kit: exactly.
HOOK_LOADS = {
    # before every tool call: the main thread's call ends in `hooks.start`, having only looked
    # for a budget per session in the config file
    "pre-tool-use": {"session_kit.state", "session_kit.state.root"},
    "pre-tool-use in a subagent": {"session_kit.state", "session_kit.state.root"},  # no budget of either kind
    "pre-tool-use in a subagent, a budget set": HOOK_CORE
    | LIVE_RECORD
    | {
        "session_kit.usage",
        "session_kit.usage.filecount",
        "session_kit.transcript",
        "session_kit.base.follow",
        "session_kit.base.timestamps",  # the follower's mtime, clamped
        "session_kit.transcript.usagefields",
        "session_kit.base.tools",  # which calls spawn an agent
        "session_kit.base.layout",  # where the agent's log is
        "session_kit.hooks.budget",
        "session_kit.state.budgets",
        "session_kit.base.budget",
        "session_kit.usage.spend",  # which logs are readable
    },
    # the budget per session, before every tool call and prompt: counted the first time (the
    # quick check has no summary yet), then proven below 80% from the summary alone, the
    # transcript grown by a message or not
    "pre-tool-use with a session budget set": HOOK_CORE | SESSION_BUDGET | QUICK | {"session_kit.hooks.live"},
    "user-prompt-submit with a session budget set": HOOK_CORE | SCRATCH | SESSION_BUDGET | QUICK,
    "pre-tool-use with a session budget set, counted before": QUICK,
    "pre-tool-use with a session budget set, counted before, a message added": QUICK,
    # no budget per subagent can apply (no variable, no `agents` in the config): the same proof
    "pre-tool-use in a subagent with a session budget set, counted before, a message added": QUICK,
    "user-prompt-submit after session-start": QUICK | PROMPT_QUICK,
    "user-prompt-submit after session-start with a session budget set, counted before, a message added": QUICK
    | PROMPT_QUICK,
    "subagent-start": HOOK_CORE | LIVE_RECORD,
    "subagent-stop": HOOK_CORE | LIVE_RECORD,
    "stop": HOOK_CORE | INDEX_FRESH,
    "session-end": HOOK_CORE | INDEX_FRESH | {"session_kit.archive.settings", "session_kit.base.fileio"},
    "session-start": HOOK_CORE | SCRATCH,
    "pre-compact": HOOK_CORE | SCRATCH | CAPTURE_HANDOVER | INDEX_FRESH,
    "post-compact": HOOK_CORE | SCRATCH | CAPTURE_HANDOVER,
    "user-prompt-submit": HOOK_CORE | SCRATCH | QUICK,  # no SessionStart seen: the full hook says so
}
# Of the standard library, past what `python -I -S -c pass` loads: `os`, the C accelerator of
# JSON, the lock's `fcntl`, the digest naming the index.
HOOK_STDLIB = {"os", "posixpath", "genericpath", "stat", "_stat", "_collections_abc", "errno", "__future__"}
HOOK_STDLIB |= {"_json", "fcntl", "_blake2"}


def _loaded_by_hook(case: str, tmp_path: Path) -> set[str]:
    """The modules `run.py` loads for `case`, read off `-X importtime` of the real command."""
    sid = "5e551011-0000-4000-8000-000000000001"
    transcript = tmp_path / "claude" / "projects" / "-w" / f"{sid}.jsonl"
    log = transcript.parent / sid / "subagents" / "agent-a1.jsonl"
    log.parent.mkdir(parents=True)
    transcript.write_text('{"type":"user","message":{"role":"user","content":"hi"}}\n')
    log.write_text('{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":5,"output_tokens":1}}}\n')
    state = tmp_path / "state"
    state.mkdir()
    event: dict[str, object] = {"session_id": sid, "cwd": "/w", "transcript_path": str(transcript)}
    argument = case.split()[0]
    if argument == "session-start":
        event["source"] = "startup"
    if argument.startswith("subagent") or "subagent" in case:
        event |= {"agent_id": "a1", "agent_type": "Explore", "agent_transcript_path": str(log)}
    if "session budget" in case:
        (state / "config.json").write_text(json.dumps({"session": {"budget": "$1000"}}))
    elif "budget" in case:
        (state / "config.json").write_text(json.dumps({"agents": {"budget": 10**12}}))
    env = {**os.environ, "SESSION_KIT_HOME": str(state), "CLAUDE_ENV_FILE": str(tmp_path / "env.sh")}
    env.pop("SESSION_KIT_SESSION_BUDGET", None)
    run = [sys.executable, "-I", "-S", "-X", "importtime", str(PACKAGE / "hooks" / "run.py"), argument]
    if "after session-start" in case:
        start = {**event, "hook_event_name": "SessionStart", "source": "startup"}
        subprocess.run([*run[:3], run[5], "session-start"], input=json.dumps(start).encode(), env=env, check=True)
    if "counted before" in case:
        subprocess.run([*run[:3], run[5], argument], input=json.dumps(event).encode(), env=env, check=True)
    if "a message added" in case:  # the message asking for the call, in the subagent's log for its call
        call = {"type": "tool_use", "id": "toolu_q1", "name": "Bash", "input": {}}
        message = {"id": "m2", "model": "claude-opus-5-5", "content": [call], "usage": {"input_tokens": 9}}
        with (log if "subagent" in case else transcript).open("a") as f:
            f.write(json.dumps({"type": "assistant", "message": message}) + "\n")
        if argument == "pre-tool-use":
            event["tool_use_id"] = "toolu_q1"
    proc = subprocess.run(run, input=json.dumps(event).encode(), capture_output=True, env=env, timeout=60)
    assert proc.returncode == 0
    names = [line.rsplit("|", 1)[1].strip() for line in proc.stderr.decode().splitlines() if "|" in line]
    assert not [line for line in proc.stderr.decode().splitlines() if not line.startswith("import time:")]
    return set(names) - {"imported package"}


@pytest.fixture(scope="module")
def loaded_by_a_bare_interpreter() -> set[str]:
    proc = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", "-c", "pass"], capture_output=True)
    return {line.rsplit("|", 1)[1].strip() for line in proc.stderr.decode().splitlines() if "|" in line}


@pytest.mark.parametrize("case", list(HOOK_LOADS))
def test_each_hook_loads_only_what_its_event_needs(case: str, tmp_path: Path, loaded_by_a_bare_interpreter: set[str]):
    loaded = _loaded_by_hook(case, tmp_path) - loaded_by_a_bare_interpreter
    assert {m for m in loaded if within(m, "session_kit")} == HOOK_LOADS[case] | STARTER
    assert {m for m in loaded if not within(m, "session_kit")} <= HOOK_STDLIB
    if HOOK_LOADS[case] <= QUICK | PROMPT_QUICK:
        assert {m for m in loaded if not within(m, "session_kit")} <= QUICK_STDLIB


def test_the_hook_handlers_load_nothing_but_the_standard_library_besides(loaded_by_the_handlers: set[str]):
    assert {m for m in loaded_by_the_handlers if not within(m, "session_kit") and not is_stdlib(m)} == set()


def test_the_hook_handlers_stay_within_the_hooks_import_budget(loaded_by_the_handlers: set[str]):
    assert HOOK_BUDGET_FORBIDDEN & loaded_by_the_handlers == set()


# --- (d) the core never imports click -------------------------------------------------------


def test_no_core_module_imports_click():
    offenders = [(n, i.line) for n in CORE for i in imports_of(n) if within(i.module, "click")]
    assert offenders == []


def test_importing_every_core_module_loads_neither_click_nor_the_cli():
    modules = loaded_after("\n".join(f"import {m}" for m in CORE_WITHOUT_MCP))
    assert "click" not in modules
    assert "session_kit.cli" not in modules


def test_the_cli_imports_core_modules_lazily():
    modules = loaded_after("import session_kit.cli")
    assert (
        not {
            "session_kit.queries.report",
            "session_kit.queries.search",
            "session_kit.sessions.agents",
            "session_kit.queries.plans",
            "session_kit.queries.card",
        }
        & modules
    )


# --- (e) light __init__ files ---------------------------------------------------------------

# `preprocess/__init__.py` declares the library's preprocessing face (re-exports of its own
# modules, like httpx's); `cli/__init__.py` is the command line itself (`session_kit.cli:run`).
REEXPORTING = {"session_kit.preprocess"}
NOT_A_FACE = {"session_kit.cli"}
LIGHT = [p for p in PACKAGES if p not in REEXPORTING | NOT_A_FACE]


def statements(name: str) -> list[ast.stmt]:
    return ast.parse(MODULES[name].read_text()).body


def is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def is_dunder_assignment(node: ast.stmt) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return bool(targets) and all(isinstance(t, ast.Name) and t.id in ("__version__", "__all__") for t in targets)


def is_future_import(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


@pytest.mark.parametrize("package", LIGHT)
def test_a_package_init_holds_a_docstring_and_nothing_that_runs(package: str):
    body = statements(package)
    assert body and is_docstring(body[0]), f"{package}: no docstring"
    heavy = [type(n).__name__ for n in body[1:] if not (is_future_import(n) or is_dunder_assignment(n))]
    assert heavy == []


@pytest.mark.parametrize("package", sorted(REEXPORTING))
def test_a_reexporting_init_reexports_only_its_own_modules(package: str):
    body = statements(package)
    assert is_docstring(body[0])
    for node in body[1:]:
        if isinstance(node, ast.ImportFrom) and not is_future_import(node):
            assert within(node.module or "", package), (package, node.module)
        else:
            assert is_future_import(node) or is_dunder_assignment(node), (package, type(node).__name__)


@pytest.mark.parametrize("package", LIGHT)
def test_importing_a_package_loads_nothing_else_of_the_kit(package: str):
    # The command line's packages need click, a site package: they load with the site on.
    isolated = not within(package, "session_kit.cli")

    def ours(name: str) -> set[str]:
        return {m for m in loaded_after(f"import {name}", isolated=isolated) if within(m, "session_kit")}

    parent = package.rpartition(".")[0]
    # A package inside another pays for its parent's __init__ (preprocess re-exports its API).
    expected = ours(parent) if parent.startswith("session_kit.") else {"session_kit"}
    assert ours(package) == expected | {package}


def test_importing_the_id_rule_loads_only_its_own_module():
    ours = {m for m in loaded_after("import session_kit.state.ids", isolated=True) if within(m, "session_kit")}
    assert ours == {"session_kit", "session_kit.state", "session_kit.state.ids"}


# --- (f) module size ------------------------------------------------------------------------


def test_no_module_is_longer_than_500_lines():
    benchmarks = [p for p in sorted((REPO / "benchmarks").rglob("*.py")) if "__pycache__" not in p.parts]
    too_long = {
        str(path.relative_to(REPO)): lines
        for path in [*MODULES.values(), *benchmarks]
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert too_long == {}, f"split these (lines > {MAX_LINES}): {too_long}"


# --- (g, h) the hook events agree, and the plugin runs the kit's hook script ------------------


def test_the_installer_hooks_the_events_the_hooks_handle():
    from session_kit.base.hook_events import HOOK_EVENTS
    from session_kit.install.settings import EVENTS

    assert EVENTS == HOOK_EVENTS


def test_the_events_the_kit_leaves_alone_are_never_hooked():
    from session_kit.base.hook_events import ALL_HOOK_EVENTS, UNREGISTERED_EVENTS

    assert "PreSkillShellCommand" in UNREGISTERED_EVENTS  # 2.1.332
    assert set(UNREGISTERED_EVENTS).isdisjoint(ALL_HOOK_EVENTS)
    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    assert set(UNREGISTERED_EVENTS).isdisjoint(plugin)


def test_every_hook_argument_has_a_handler_and_every_handler_an_event():
    import importlib

    from session_kit.base.hook_events import ALL_HOOK_EVENTS
    from session_kit.hooks.handlers import HANDLERS
    from session_kit.hooks.start import MODULES

    tables = {"handlers": set(HANDLERS)}
    for module in set(MODULES.values()):
        tables[module] = set(importlib.import_module(f"session_kit.hooks.{module}").HOOKS)
    # each argument is in the table of the one module `hooks.start` starts for it, and only there
    for argument in ALL_HOOK_EVENTS.values():
        assert [m for m, table in tables.items() if argument in table] == [MODULES.get(argument, "handlers")]
    assert set().union(*tables.values()) == set(ALL_HOOK_EVENTS.values())


def test_the_plugin_runs_run_hook_with_each_events_argument_and_nothing_else():
    from session_kit.base.hook_events import ALL_HOOK_EVENTS

    plugin = json.loads((REPO / "hooks" / "hooks.json").read_text())["hooks"]
    commands = {
        event: [
            shlex.split(hook["command"]) for group in groups for hook in group["hooks"] if hook.get("type") == "command"
        ]
        for event, groups in plugin.items()
    }
    assert commands == {
        event: [["${CLAUDE_PLUGIN_ROOT}/hooks/run-hook", argument]] for event, argument in ALL_HOOK_EVENTS.items()
    }


def test_the_plugins_run_hook_script_starts_the_kits_hook_runner():
    script = REPO / "hooks" / "run-hook"
    assert os.access(script, os.X_OK)
    [line] = [line for line in script.read_text().splitlines() if line.lstrip().startswith("exec ")]
    [target] = [word for word in shlex.split(line) if word.endswith("run.py")]
    runner = Path(target.replace("${0%/*}", str(script.parent))).resolve()
    assert runner == (PACKAGE / "hooks" / "run.py").resolve() and runner.is_file()


# --- (i) one home each: the non-blocking open, the atomic replace, the follower's checkpoint ---


def _code_nodes(name: str) -> list[ast.AST]:
    """The nodes of module `name`, its docstrings left out (they may name what they do not use)."""
    tree = ast.parse(MODULES[name].read_text())
    docstrings = {
        id(node.body[0])
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and is_docstring(node.body[0])
    }
    skipped = {id(n) for d in ast.walk(tree) if id(d) in docstrings for n in ast.walk(d)}
    return [n for n in ast.walk(tree) if id(n) not in skipped]


def _uses_os(name: str, attr: str) -> bool:
    """`os.<attr>`, `from os import <attr>` or `getattr(os, "<attr>", ...)` in module `name`."""
    for node in _code_nodes(name):
        if isinstance(node, ast.Attribute) and node.attr == attr and getattr(node.value, "id", None) == "os":
            return True
        if isinstance(node, ast.ImportFrom) and node.module == "os" and any(a.name == attr for a in node.names):
            return True
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "getattr"
            and len(node.args) >= 2
            and getattr(node.args[0], "id", None) == "os"
            and getattr(node.args[1], "value", None) == attr
        ):
            return True
    return False


def _reads_attribute(name: str, attr: str) -> bool:
    return any(isinstance(node, ast.Attribute) and node.attr == attr for node in _code_nodes(name))


def test_one_module_opens_files_without_blocking():
    # The budget's quick check (and the look for a budget in the config before it) opens its few
    # files by `fileio`'s rule without loading it: ~1.5 ms of every tool call.
    quick = {"session_kit.hooks.quick", "session_kit.hooks.start"}
    assert {n for n in MODULES if _uses_os(n, "O_NONBLOCK")} == {"session_kit.base.fileio"} | quick


def test_one_module_opens_the_kits_files_and_appends_to_them():
    # Every other open goes through `fileio.open_fd` (non-blocking, regular files only): a FIFO
    # planted at the journal, the hook log or a lock file must not hang a hook.
    devnull = {"session_kit.hooks.hookio", "session_kit.base.detach", "session_kit.cli.errors"}
    quick = {"session_kit.hooks.quick", "session_kit.hooks.start"}  # by fileio's rule, without it
    assert {n for n in MODULES if _uses_os(n, "open")} == {"session_kit.base.fileio"} | devnull | quick
    appends = {n for n in MODULES if _uses_os(n, "O_APPEND")}
    assert appends == {"session_kit.base.fileio", "session_kit.hooks.handlers"}  # the env file, through open_fd


def test_one_module_replaces_a_file_atomically():
    assert {n for n in MODULES if _uses_os(n, "replace") or _uses_os(n, "rename")} == {"session_kit.base.fileio"}


# Where a file's identity is read besides the follower's checkpoint, and why.
IDENTITY_ELSEWHERE = {
    # The compare-and-swap of a settings file the user owns: still the very file that was read?
    "session_kit.claude.settings": "a settings file is replaced only if nobody changed it since it was read",
    # Setting a damaged index aside: still the file found damaged, not one another process made since?
    "session_kit.index.db": "a damaged index is moved aside only if no other process has replaced it meanwhile",
    # The budget's quick check reads on from the count's offsets only in the very file counted.
    "session_kit.hooks.quick": "a file replaced since the count is left to the count, which reads it again",
}


def test_one_module_decides_what_a_followed_file_gained_since_its_checkpoint():
    assert {n for n in MODULES if "class Checkpoint" in MODULES[n].read_text()} == {"session_kit.base.follow"}
    identity = {n for n in MODULES if _reads_attribute(n, "st_ino") or _reads_attribute(n, "st_dev")}
    assert identity == {"session_kit.base.follow", *IDENTITY_ELSEWHERE}


def test_exit_codes_are_numbered_in_one_module():
    """An exit code (`EXIT_<NAME> = <int>`) is numbered in `session_kit.errors` alone; everything
    else imports it from there."""
    numbered = {
        (n, node.lineno)
        for n in MODULES
        for node in _code_nodes(n)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and type(node.value.value) is int
        and any(isinstance(target, ast.Name) and target.id.startswith("EXIT_") for target in node.targets)
    }
    assert {n for n, _line in numbered} == {"session_kit.errors"}


# --- (j) the team database's driver: one module loads it, inside its functions ------------------


def test_only_the_team_connection_imports_psycopg_and_only_inside_functions():
    importers = {(n, i.in_function) for n in MODULES for i in imports_of(n) if within(i.module, "psycopg")}
    assert importers == {("session_kit.team.connection", True)}


def test_importing_every_module_of_the_kit_loads_no_psycopg():
    # the hooks, the core, every command module (`sync` and the `--team` ones included): the
    # driver is loaded only when a command talks to the team database
    commands = [n for n in MODULES if within(n, "session_kit.cli")]
    modules = loaded_after("\n".join(f"import {m}" for m in [*CORE_IMPORTABLE, *commands]))
    assert {m for m in modules if within(m, "psycopg")} == set()
    hooks = loaded_after("import session_kit.hooks.handlers, session_kit.hooks.guard", isolated=True)
    assert {m for m in hooks if within(m, "psycopg", "session_kit.team")} == set()


# --- (j2) the MCP SDK: one module imports it; no hook, command or core module loads it ----------


def test_only_the_mcp_servers_face_imports_the_mcp_sdk():
    importers = {n for n in MODULES for i in imports_of(n) if within(i.module, "mcp", "mcp_types")}
    assert importers == {MCP_FACE}


def test_importing_every_module_of_the_kit_but_the_mcp_face_loads_no_mcp_sdk():
    # every command module too (`mcp` included: its module loads the server only when it runs)
    commands = [n for n in MODULES if within(n, "session_kit.cli")]
    modules = loaded_after("\n".join(f"import {m}" for m in [*CORE_WITHOUT_MCP, *commands]))
    assert {m for m in modules if within(m, "mcp", "mcp_types", "pydantic", "anyio")} == set()
    hooks = loaded_after("import session_kit.hooks.handlers, session_kit.hooks.guard", isolated=True)
    assert {m for m in hooks if within(m, "mcp", "mcp_types", "session_kit.mcp_server")} == set()


# --- (k) one walk of the Claude root, one reading of a path, one head reader, one tool table ----

# Who lists a folder (`os.scandir`, `os.listdir`, `os.walk`, `Path.iterdir`/`glob`), and why:
# the Claude root's `projects/` and a session's folder are listed by `base.layout` alone.
LISTERS = {
    "session_kit.base.layout": "the one walk of the Claude root: projects, sessions, agents, plans",
    "session_kit.base.fileio": "the temp files a killed write left beside a file of the kit's",
    "session_kit.state.root": "the kit's own state folders",
    "session_kit.state.current": "the kit's own state folders",
    "session_kit.state.scratch": "the kit's own state folders",
    "session_kit.archive.layout": "the archive's own folders and manifests",
    "session_kit.claude.live": "the client's registry of running processes (`<root>/sessions/`)",
    "session_kit.install.installer": "the kit's install backups and slash commands",
    "session_kit.install.kit_files": "the kit's slash commands",
    "session_kit.install.status": "the kit's slash commands, for doctor",
}
_LISTING_CALLS = {"scandir", "listdir", "walk", "fwalk"}


def _lists_folders(name: str) -> bool:
    for node in _code_nodes(name):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, getattr(node.func.value, "id", None)
            if (attr in _LISTING_CALLS and owner == "os") or attr in ("iterdir", "glob", "rglob"):
                return True
        if isinstance(node, ast.ImportFrom) and node.module == "os" and {a.name for a in node.names} & _LISTING_CALLS:
            return True
    return False


def _strings(name: str, *, fstrings: bool = False) -> list[ast.Constant]:
    """The module's str and bytes constants in code (not docstrings, keys of a dict or of a
    JSON value, `__slots__`, nor the text of an f-string unless asked)."""
    nodes = _code_nodes(name)
    keys = {id(k) for n in nodes if isinstance(n, ast.Dict) for k in n.keys if k is not None}
    keys |= {id(n.slice) for n in nodes if isinstance(n, ast.Subscript)}
    if not fstrings:
        keys |= {id(v) for n in nodes if isinstance(n, ast.JoinedStr) for v in n.values}
    slots = {
        id(c)
        for n in nodes
        if isinstance(n, ast.Assign) and any(getattr(t, "id", None) == "__slots__" for t in n.targets)
        for c in ast.walk(n.value)
    }
    return [
        n
        for n in nodes
        if isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) and id(n) not in keys | slots
    ]


def test_one_module_lists_the_claude_roots_folders():
    assert {n for n in MODULES if _lists_folders(n)} == set(LISTERS)


# The client's folder and file names: spelled where the layout is, once.
LAYOUT_NAMES = {"projects", "subagents", "workflows", "agent-", ".meta.json"}


def test_the_names_of_the_clients_layout_are_spelled_in_one_module():
    spelled = {
        (n, c.value)
        for n in MODULES
        for c in _strings(n)
        if c.value in LAYOUT_NAMES or (isinstance(c.value, str) and ".superseded-" in c.value)
    }
    # the kit's own state root has a `projects/` folder of its own (one per project key)
    assert {s for s in spelled if s[0] != "session_kit.base.layout"} == {("session_kit.state.root", "projects")}


def test_one_module_tells_where_a_path_sits_in_the_layout():
    """A path is read as (root, project, session, agent) by `base.layout.where` alone: no other
    module compares a part of a path with the projects folder's name."""
    offenders = set()
    for name in MODULES:
        if name == "session_kit.base.layout":
            continue
        for node in _code_nodes(name):
            if isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                if any(
                    getattr(o, "value", None) == "projects" or getattr(o, "attr", getattr(o, "id", None)) == "PROJECTS"
                    for o in operands
                ):
                    offenders.add(name)
    assert offenders == set()


def test_one_module_reads_a_field_in_a_files_head():
    """`base.headfield` (`head_field`, `field_in`, `field_needles`) alone knows how the client
    writes `"key":"value"`: no other module spells a field's joint or a field it looks for."""
    fields = ("sessionId", "cwd", "slug", "version")
    offenders = set()
    for name in MODULES:
        if name == "session_kit.base.headfield":
            continue
        for c in _strings(name, fstrings=True):
            text = c.value.decode("latin-1") if isinstance(c.value, bytes) else c.value
            if text in ('":"', '": "', '":') or any(f'"{f}"' in text or f'"{f}":' in text for f in fields):
                offenders.add(name)
        offenders |= {
            name
            for node in _code_nodes(name)
            if isinstance(node, ast.FunctionDef) and node.name in ("first_field", "head_field", "field_in")
        }
    assert offenders == set()


def _tool_names() -> set[str]:
    from session_kit.base import tools

    return {v for k, v in vars(tools).items() if k.isupper() and isinstance(v, str)}


def test_one_table_says_each_tools_role():
    """No module but `base.tools` spells a tool's name as a constant of its own, or a set,
    tuple or list of two or more tool names."""
    names = _tool_names()
    offenders = set()
    for name in MODULES:
        if name == "session_kit.base.tools":
            continue
        for node in _code_nodes(name):
            if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
                spelled = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                if sum(value in names for value in spelled) >= 2:
                    offenders.add((name, node.lineno))
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Constant)
                and node.value.value in names
                and any(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
            ):
                offenders.add((name, node.lineno))
    assert offenders == set()

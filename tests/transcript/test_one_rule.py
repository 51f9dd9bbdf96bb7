"""Each fact of a session is decided in one module: the title in `transcript.titles`, the span
(start and end) in `transcript.span`. A scan of the source keeps it so."""

from __future__ import annotations

import ast
from pathlib import Path

import session_kit

SRC = Path(session_kit.__file__).parent
TITLES = "transcript/titles.py"
SPAN = "transcript/span.py"
# The fields of title lines: `summary` (1.0.x–2.0.x), `customTitle`, `aiTitle`, and the
# `leafUuid` that says whose title a `summary` is.
TITLE_FIELDS = ("customTitle", "aiTitle", "leafUuid")
# `Entry.summary_text` reads a `summary` line's text as the seed docs' compaction (only in that
# dialect, `compactions`): the one reading of the field that is not a title's.
SUMMARY_READERS = {TITLES, "transcript/entries.py"}
# Every reader of a session's title, and of its start and end.
TITLE_READERS = (
    "transcript/glance.py",
    "queries/report.py",
    "index/rows.py",
    "preprocess/pipeline.py",
    "view/build.py",
)
SPAN_READERS = ("transcript/glance.py", "queries/report.py", "index/rows.py")


def _modules() -> dict[str, ast.Module]:
    return {p.relative_to(SRC).as_posix(): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(SRC.rglob("*.py"))}


def _imported(tree: ast.Module) -> set[tuple[str, str]]:
    return {
        (node.module or "", alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def _reads_summary_of_an_entry(node: ast.AST) -> bool:
    """`<…raw…>.get("summary")` or `<…raw…>["summary"]`: the field read from a raw entry."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        receiver, key = node.func.value, node.args[0] if node.args else None
    elif isinstance(node, ast.Subscript):
        receiver, key = node.value, node.slice
    else:
        return False
    return isinstance(key, ast.Constant) and key.value == "summary" and "raw" in ast.unparse(receiver)


def test_the_fields_of_title_lines_are_read_only_by_the_title_rule():
    found = sorted(
        (name, node.value)
        for name, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in TITLE_FIELDS
    )
    assert found and {name for name, _ in found} == {TITLES}, found
    summary = sorted(
        name for name, tree in _modules().items() if any(_reads_summary_of_an_entry(n) for n in ast.walk(tree))
    )
    assert set(summary) <= SUMMARY_READERS, summary


def test_every_reader_of_a_title_takes_it_from_the_title_rule():
    modules = _modules()
    rule = {("session_kit.transcript.titles", name) for name in ("choose_title", "title_line", "TitleScan")}
    rule.add(("session_kit.transcript.glance", "glance"))  # `choose_title` on a file's head and tail
    for name in TITLE_READERS:
        assert _imported(modules[name]) & rule, name
    choosers = sorted(
        (name, node.name)
        for name, tree in modules.items()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        and node.name in ("choose_title", "title_line", "TitleScan")
    )
    assert {name for name, _ in choosers} == {TITLES}, choosers


def test_every_reader_of_a_sessions_start_and_end_takes_them_from_the_span_rule():
    modules = _modules()
    rule = {("session_kit.transcript.span", name) for name in ("span_time", "Span", "SpanScan", "SPAN_KINDS")}
    for name in SPAN_READERS:
        assert _imported(modules[name]) & rule, name
    defined = sorted(
        name
        for name, tree in modules.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "span_time"
    )
    assert defined == [SPAN]

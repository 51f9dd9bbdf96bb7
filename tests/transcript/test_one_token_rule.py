"""The token rule lives in one module: only `transcript.usagefields` reads a `usage` object's
counts or a line's `requestId` (what makes lines one message); every other module counts
through it or through `transcript.tokens`, which builds on it. Checked on the source with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "session_kit"
HOME = PACKAGE / "transcript" / "usagefields.py"
# The client's names for the counts of a `usage` object, and the line's request id.
USAGE_NAMES = frozenset(
    {
        "input_tokens",
        "output_tokens",
        "cache_read_input_tokens",
        "cache_creation_input_tokens",
        "ephemeral_5m_input_tokens",
        "ephemeral_1h_input_tokens",
        "requestId",
    }
)


def reads_of_usage_names(tree: ast.AST) -> list[tuple[int, str]]:
    """`x.get("output_tokens")` and `x["output_tokens"]` (a column of the index that happens to
    share a name is no read of a usage object)."""
    found = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("get", "pop"):
            key = node.args[0] if node.args else None
        elif isinstance(node, ast.Subscript):
            key = node.slice
        if isinstance(key, ast.Constant) and key.value in USAGE_NAMES:
            found.append((node.lineno, key.value))
    return found


def test_only_usagefields_reads_the_counts_of_a_usage_object():
    offenders = {
        str(path.relative_to(PACKAGE)): reads
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != HOME and (reads := reads_of_usage_names(ast.parse(path.read_text(), str(path))))
    }
    assert offenders == {}


def test_the_scan_sees_the_reads_it_guards_against():
    tree = ast.parse('u.get("output_tokens"); u["input_tokens"]; raw.get("requestId"); row["id"]')
    assert [name for _, name in reads_of_usage_names(tree)] == ["output_tokens", "input_tokens", "requestId"]
    assert reads_of_usage_names(ast.parse(HOME.read_text()))  # the rule's home does read them

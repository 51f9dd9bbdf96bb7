"""The public face: every name it lists resolves, and importing it loads nothing else."""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

from session_kit import api

REAL_ROOT = Path(__file__).parent / "fixtures" / "real"


def test_every_public_name_is_the_object_its_home_module_defines():
    for name in api.__all__:
        module, _, attribute = api._HOMES[name].partition(":")
        assert getattr(api, name) is getattr(importlib.import_module(module), attribute or name), name


def test_the_names_for_type_checkers_are_the_public_names():
    source = Path(api.__file__).read_text()
    checked = source[source.index("if TYPE_CHECKING:") :]
    for name in api.__all__:
        assert re.search(rf"\b{name}\b", checked), f"{name} is missing under TYPE_CHECKING"


def annotations_of(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside `tree`'s annotations (an annotation runs nothing)."""
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = [
                *node.args.posonlyargs,
                *node.args.args,
                *node.args.kwonlyargs,
                node.args.vararg,
                node.args.kwarg,
            ]
            found += [a.annotation for a in arguments if a is not None and a.annotation is not None]
            found += [node.returns] if node.returns is not None else []
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return {id(inner) for annotation in found for inner in ast.walk(annotation)}


def api_names_used_by(source: str) -> set[str]:
    """The `api.<name>`s that code in `source` runs: not in a docstring, a comment or an annotation."""
    tree = ast.parse(source)
    skipped = annotations_of(tree)
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) == "api" and id(node) not in skipped
    }


def test_every_public_name_has_a_caller_the_command_line_or_the_documented_example():
    used = set().union(*(api_names_used_by(p.read_text()) for p in (Path(api.__file__).parent / "cli").rglob("*.py")))
    example = set(re.findall(r"\bapi\.(\w+)", (api.__doc__ or "").split("    from session_kit import api", 1)[1]))
    unused = [name for name in api.__all__ if name not in used | example]
    assert unused == [], f"no caller uses these: drop them from the api ({unused})"


def test_a_name_only_a_docstring_a_comment_or_an_annotation_names_is_no_use():
    source = '''"""Calls `api.in_docstring`."""
from session_kit import api


def f(x: api.InAnnotation) -> api.InReturn:  # api.in_comment
    y: list[api.InVariable] = []
    return api.called(x, y)
'''
    assert api_names_used_by(source) == {"called"}


def test_importing_the_api_loads_no_other_kit_module():
    code = "import session_kit.api, sys, json; print(json.dumps(sorted(m for m in sys.modules if m.startswith('session_kit'))))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert loaded == ["session_kit", "session_kit.api"]


def test_an_unknown_name_is_an_attribute_error():
    try:
        api.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def test_the_api_reads_a_real_client_session():
    ref = api.resolve_session("266f5872", REAL_ROOT)
    report = api.session_report(ref)
    assert report.as_dict()["tool_calls"] == 9
    assert [a.agent_type for a in report.agents] == ["Plan", "general-purpose"]

"""The public face: every name it lists resolves, and importing it loads nothing else."""

from __future__ import annotations

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


def test_every_public_name_has_a_caller_the_command_line_or_the_documented_example():
    cli = "\n".join(p.read_text() for p in (Path(api.__file__).parent / "cli").rglob("*.py"))
    callers = cli + (api.__doc__ or "")
    unused = [name for name in api.__all__ if not re.search(rf"\bapi\.{name}\b", callers)]
    assert unused == [], f"no caller uses these: drop them from the api ({unused})"


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

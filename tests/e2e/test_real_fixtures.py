"""The committed real-client samples in tests/fixtures/real/ are whole, valid and current.

With ``SESSION_KIT_UPDATE_REAL_FIXTURES=1`` the scenario is run and the samples are rewritten
first (then commit them); otherwise the committed files are only checked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from . import real_fixtures
from .client import pinned_version
from .transcript import read_entries

PROJECT = real_fixtures.FIXTURES / "projects" / "-tmp-real-fixture-project"


@pytest.fixture(scope="module")
def fixture_project(request: pytest.FixtureRequest) -> Path:
    if os.environ.get(real_fixtures.UPDATE_ENV) == "1":
        real_fixtures.export(request.getfixturevalue("scenario"))
    return PROJECT


def test_real_fixtures_hold_one_session_with_two_subagents(fixture_project: Path) -> None:
    (session,) = fixture_project.glob("*.jsonl")
    subagents = fixture_project / session.stem / "subagents"
    names = sorted(p.name for p in subagents.iterdir())
    assert len(names) == 4 and all(n.startswith("agent-") for n in names), names
    assert sum(n.endswith(".meta.json") for n in names) == 2


def test_real_fixtures_are_valid_json_with_placeholder_paths(fixture_project: Path) -> None:
    for path in fixture_project.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "pytest-of-" not in text, path
            if path.suffix == ".jsonl":
                cwds = {e["cwd"] for e in read_entries(path) if "cwd" in e}
                assert cwds == {f"{real_fixtures.PLACEHOLDER_ROOT}/project"}, path
            else:
                json.loads(text)


def test_real_fixtures_come_from_the_pinned_client(fixture_project: Path) -> None:
    (session,) = fixture_project.glob("*.jsonl")
    versions = {e["version"] for e in read_entries(session) if "version" in e}
    assert versions == {pinned_version()}, (
        f"tests/fixtures/real/ was made with {versions}; regenerate it: "
        f"{real_fixtures.UPDATE_ENV}=1 bash tests/run.sh tests/e2e/test_real_fixtures.py"
    )

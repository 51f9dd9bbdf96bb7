"""Fixtures for the end-to-end tests: the real client, an isolated home, the fake API, a runner.

Every test in this folder is marked ``e2e``. Under ``CI=true`` they must run: a missing
node/npm or a failed install fails them. Elsewhere they are skipped only when node or npm is
missing. See README.md beside this file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .client import Claude, ClaudeHome, ClientUnavailable, cache_root, install_client, wanted_version
from .fake_api import FakeMessagesAPI, Script
from .scenario import ScenarioRun, run_scenario

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _HERE in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def _under_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def claude_binary() -> Path:
    """The pinned client (or the one ``$CLAUDE_CODE_VERSION`` asks for), installed once into the
    shared cache (see ``client.install_client``)."""
    try:
        return install_client(wanted_version(), cache_root())
    except ValueError as error:  # a CLAUDE_CODE_VERSION that names no version
        pytest.fail(str(error), pytrace=False)
    except ClientUnavailable as error:
        if error.missing_tool and not _under_ci():
            pytest.skip(str(error))
        pytest.fail(f"{error}{' (CI=true: the end-to-end tests must run)' if _under_ci() else ''}", pytrace=False)


@pytest.fixture
def claude_home(tmp_path: Path) -> ClaudeHome:
    """HOME, CLAUDE_CONFIG_DIR (= HOME/.claude), XDG dirs and TMPDIR, all under tmp_path."""
    return ClaudeHome.create(tmp_path / "client")


@pytest.fixture
def fake_api() -> Iterator[FakeMessagesAPI]:
    """A running fake Messages API with an empty script; set ``fake_api.script = Script(...)``."""
    with FakeMessagesAPI(Script()) as fake:
        yield fake


@pytest.fixture
def claude(claude_binary: Path, claude_home: ClaudeHome, fake_api: FakeMessagesAPI, tmp_path: Path) -> Claude:
    """Runs ``claude -p`` against ``fake_api`` in ``claude_home``; the default cwd is ``tmp_path/project``."""
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return Claude(claude_binary, claude_home, fake_api, cwd=project)


@pytest.fixture(scope="session")
def scenario(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> ScenarioRun:
    """The shared scenario (``scenario.py``), run once per test session."""
    return run_scenario(claude_binary, tmp_path_factory.mktemp("scenario"))

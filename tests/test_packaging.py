"""The package as pip sees it: one version, and a wheel and sdist holding what an install needs."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from session_kit import __version__
from session_kit.cli.context import JSON_DOC
from tests.support.cli import invoke

REPO = Path(__file__).parents[1]
COMMANDS = sorted(p.name for p in (REPO / "commands").glob("*.md"))


def test_the_version_has_one_source_and_the_plugin_says_the_same():
    assert 'dynamic = ["version"]' in (REPO / "pyproject.toml").read_text()
    assert importlib.metadata.version("claude-session-kit") == __version__
    assert json.loads((REPO / ".claude-plugin" / "plugin.json").read_text())["version"] == __version__


def test_the_changelog_exists_and_names_the_version():
    assert f"## {__version__}" in (REPO / "CHANGELOG.md").read_text()


def test_json_help_points_at_a_file_installed_with_the_package():
    assert JSON_DOC.is_file() and "Every `--json` document" in JSON_DOC.read_text()
    assert str(JSON_DOC) in "".join(invoke("sessions", "--help").stdout.split())  # wrapped at will


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sdist")
    code = f"from setuptools import build_meta as b; print(b.build_sdist({str(out)!r}))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return out / proc.stdout.strip().splitlines()[-1]


def test_the_sdist_holds_the_commands_the_docs_and_the_changelog(sdist: Path):
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"CHANGELOG.md", "README.md", "src/session_kit/docs/reference/json.md"} <= names
    assert {f"src/session_kit/commands/{c}" for c in COMMANDS} <= names


def test_a_wheel_built_from_the_sdist_holds_what_a_plain_install_needs(sdist: Path, tmp_path: Path):
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(sdist)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {f"session_kit/commands/{c}" for c in COMMANDS} <= names
    assert {"session_kit/docs/reference/json.md", "session_kit/hooks/run.py", "session_kit/py.typed"} <= names
    assert wheel.name.startswith(f"claude_session_kit-{__version__}-")

"""The plugin's `bin/session-kit`: an installed kit of the same version is used at once,
instead of building a second environment on first use."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from session_kit import __version__

REPO = Path(__file__).parents[2]
BIN = REPO / "bin" / "session-kit"


def fake_kit(venv: Path, version: str) -> Path:
    """An installed kit's environment: an interpreter that says it ran, and the package's files."""
    python = venv / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text('#!/bin/sh\necho "REUSED $0 $*"\n')
    python.chmod(0o755)
    package = venv / "lib" / "python3.11" / "site-packages" / "session_kit"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(f'"""doc"""\n\n__version__ = "{version}"\n')
    return python


def plugin_command(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {
        "PATH": "/usr/bin:/bin",
        "HOME": os.environ["HOME"],
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "SESSION_KIT_PYTHON": "/bin/false",  # building an environment fails at once
        **env,
    }
    return subprocess.run([str(BIN), "--version"], capture_output=True, text=True, env=environ, timeout=60)


def test_the_install_sh_environment_of_the_same_version_is_used(tmp_path: Path):
    python = fake_kit(tmp_path / "venv", __version__)
    proc = plugin_command(tmp_path, SESSION_KIT_VENV=str(tmp_path / "venv"))
    assert proc.stdout == f"REUSED {python} -m session_kit --version\n" and "first use" not in proc.stderr
    assert not (tmp_path / "cache").exists()


def test_a_session_kit_on_path_of_the_same_version_is_used(tmp_path: Path):
    python = fake_kit(tmp_path / "pipx-venv", __version__)
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "session-kit").write_text(f"#!{python}\nimport sys\n")
    (scripts / "session-kit").chmod(0o755)
    proc = plugin_command(tmp_path, PATH=f"{scripts}:/usr/bin:/bin", SESSION_KIT_VENV=str(tmp_path / "none"))
    assert proc.stdout == f"REUSED {python} -m session_kit --version\n"


def test_an_installed_kit_of_another_version_is_not_used(tmp_path: Path):
    fake_kit(tmp_path / "venv", "0.0.0-other")
    proc = plugin_command(tmp_path, SESSION_KIT_VENV=str(tmp_path / "venv"))
    assert "REUSED" not in proc.stdout and proc.returncode == 1 and "could not prepare" in proc.stderr


def test_the_first_use_says_up_front_that_it_builds_an_environment_and_how_long_it_takes(tmp_path: Path):
    proc = plugin_command(tmp_path, SESSION_KIT_VENV=str(tmp_path / "none"))
    first = proc.stderr.splitlines()[0]
    assert first.startswith("session-kit: first use of the plugin: building") and "about 40 s" in first
    assert "once" in first and str(tmp_path / "cache" / "claude-session-kit" / "plugin-env-") in first


def test_an_editable_install_of_the_same_version_is_used(tmp_path: Path):
    """`pip install -e` leaves no package folder in site-packages, only its dist-info."""
    python = fake_kit(tmp_path / "venv", __version__)
    site = python.parents[1] / "lib" / "python3.11" / "site-packages"
    (site / "session_kit" / "__init__.py").unlink()
    (site / "session_kit").rmdir()
    (site / f"claude_session_kit-{__version__}.dist-info").mkdir()
    proc = plugin_command(tmp_path, SESSION_KIT_VENV=str(tmp_path / "venv"))
    assert proc.stdout == f"REUSED {python} -m session_kit --version\n" and "first use" not in proc.stderr

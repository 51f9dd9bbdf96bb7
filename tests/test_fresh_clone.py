"""A checkout anywhere: the docs checks pass from a copy of the checkout in a folder whose path
has hyphens and spaces (click wraps the paths `--help` prints at both), on a terminal of any
width."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[1]
# What a fresh clone does not hold: the environment, caches, what `./install.sh` builds.
LEFT_OUT = shutil.ignore_patterns(".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", "build", "*.egg-info")


def test_the_docs_checks_pass_from_a_checkout_under_a_path_with_hyphens_and_spaces(tmp_path: Path):
    # Spaces and hyphens all along, so that wherever the width cuts the path it is at one of them.
    copy = tmp_path / " - ".join(["my projects"] * 6) / "claude-session-kit"
    shutil.copytree(REPO, copy, symlinks=True, ignore=LEFT_OUT)
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), "COLUMNS": "80", "LINES": "24"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_docs.py", "-q", "-p", "no:cacheprovider"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and str(copy / "src") in _imported_from(copy, env)


def _imported_from(copy: Path, env: dict[str, str]) -> str:
    """Where the copy's interpreter finds the kit (the copy, not this checkout)."""
    return subprocess.run(
        [sys.executable, "-c", "import session_kit; print(session_kit.__file__)"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout

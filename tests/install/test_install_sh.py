"""`./install.sh`: its help, and what it refuses before it installs anything."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).parents[2]


def install_sh(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SESSION_KIT_VENV": str(cwd / "never-made-venv"), "SESSION_KIT_BIN": str(cwd / "bin")}
    return subprocess.run(
        ["bash", str(REPO / "install.sh"), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=60
    )


def test_help_is_the_header_comment_and_nothing_of_the_script(tmp_path: Path):
    proc = install_sh("--help", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("Install claude-session-kit")
    assert "set -euo" not in proc.stdout and proc.stdout.rstrip().endswith("as a plugin instead).")


def test_a_project_level_scope_from_the_kits_own_checkout_is_refused_before_anything_is_installed(tmp_path: Path):
    proc = install_sh("--scope", "local", cwd=REPO)
    assert proc.returncode == 2 and "from your project's folder" in proc.stderr
    assert not (REPO / "never-made-venv").exists() and not (REPO / ".claude" / "settings.local.json").exists()

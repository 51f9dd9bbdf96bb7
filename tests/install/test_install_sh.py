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


# A stand-in python3: `-c` (the version check) passes; `-m venv DIR` makes DIR/bin/{python,
# session-kit} that log their arguments, so no environment is really built.
STAND_IN = """#!/bin/sh
if [ "$1" = "-c" ]; then exit 0; fi
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    for tool in python session-kit; do
        printf '#!/bin/sh\\necho "%s $*" >> "%s/calls"\\n' "$tool" "$3" > "$3/bin/$tool"
        chmod +x "$3/bin/$tool"
    done
    exit 0
fi
exit 1
"""


def _installs(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    python = tmp_path / "python3"
    python.write_text(STAND_IN)
    python.chmod(0o755)
    venv = tmp_path / "venv"
    env = {**os.environ, "PYTHON": str(python), "SESSION_KIT_VENV": str(venv), "SESSION_KIT_BIN": str(tmp_path / "bin")}
    proc = subprocess.run(
        ["bash", str(REPO / "install.sh"), *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    calls = (venv / "calls").read_text().splitlines() if (venv / "calls").exists() else []
    return proc, [c for c in calls if "pip install" in c]


def test_with_an_extra_installs_it_and_every_later_run_keeps_it(tmp_path: Path):
    proc, pips = _installs(tmp_path, "--with", "team")
    assert proc.returncode == 0, proc.stderr
    assert pips[-1].endswith(f"--upgrade {REPO}[mcp,team]")
    proc, pips = _installs(tmp_path)  # a reinstall, as after `git pull`
    assert proc.returncode == 0 and pips[-1].endswith(f"--upgrade {REPO}[mcp,team]")
    proc, pips = _installs(tmp_path, "--with=parquet", "--scope", "user")
    assert proc.returncode == 0 and pips[-1].endswith(f"--upgrade {REPO}[mcp,parquet,team]")
    assert "session-kit install --scope user" in (tmp_path / "venv" / "calls").read_text()  # the rest goes on
    assert (tmp_path / "venv" / ".session-kit-source").read_text() == f"{REPO}\n"


def test_an_unknown_extra_is_refused_before_anything_is_installed(tmp_path: Path):
    proc, pips = _installs(tmp_path, "--with", "tea")
    assert proc.returncode == 2 and "unknown extra 'tea' (the kit has: team, parquet, mcp)" in proc.stderr
    assert pips == []


def test_the_project_scope_is_refused_before_anything_is_installed(tmp_path: Path):
    for args in (("--scope", "project"), ("--scope=project",)):
        proc, pips = _installs(tmp_path, *args)
        assert proc.returncode == 2 and "--scope project is refused" in proc.stderr
        assert pips == [] and not (tmp_path / "venv").exists()


def test_what_pip_builds_in_the_checkout_goes_again_so_the_plugin_copy_stays_small(tmp_path: Path):
    checkout = tmp_path / "claude-session-kit"
    (checkout / "src" / "kept.egg-info").mkdir(parents=True)  # there before: not this run's
    (checkout / "install.sh").write_bytes((REPO / "install.sh").read_bytes())
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    # pip, as it builds a local folder in place: build/ and src/<name>.egg-info in the checkout
    pip = f'#!/bin/sh\ncase "$*" in *"pip install"*) mkdir -p "{checkout}/build/lib" "{checkout}/src/claude_session_kit.egg-info";; esac\n'
    (venv / "bin" / "python").write_text(pip)
    (venv / "bin" / "session-kit").write_text("#!/bin/sh\nexit 0\n")
    python = tmp_path / "python3"
    python.write_text(STAND_IN)
    for exe in (venv / "bin" / "python", venv / "bin" / "session-kit", python):
        exe.chmod(0o755)
    env = {**os.environ, "PYTHON": str(python), "SESSION_KIT_VENV": str(venv), "SESSION_KIT_BIN": str(tmp_path / "bin")}
    proc = subprocess.run(
        ["bash", str(checkout / "install.sh")], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert not (checkout / "build").exists() and not (checkout / "src" / "claude_session_kit.egg-info").exists()
    assert (checkout / "src" / "kept.egg-info").is_dir()

"""`tests/run.sh`, the README's test command: where it keeps its environment. Driven with a
stand-in interpreter (its `-m venv` makes a folder of stand-ins that log their arguments), so
no environment is really built."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).parents[1]

STAND_IN = """#!/bin/sh
# a stand-in python3: `-m venv DIR` makes DIR/bin/{python,ruff} that log their arguments
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
    mkdir -p "$3/bin"
    for tool in python ruff; do
        printf '#!/bin/sh\\necho "%s $*" >> "%s/calls"\\n' "$tool" "$3" > "$3/bin/$tool"
        chmod +x "$3/bin/$tool"
    done
    exit 0
fi
exit 1
"""


def _checkout(tmp_path: Path) -> Path:
    """The files `tests/run.sh` reads, as a fresh checkout has them."""
    checkout = tmp_path / "claude-session-kit"
    (checkout / "tests").mkdir(parents=True)
    shutil.copy(REPO / "tests" / "run.sh", checkout / "tests" / "run.sh")
    shutil.copy(REPO / "pyproject.toml", checkout / "pyproject.toml")
    return checkout


def _run(checkout: Path, tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    python = tmp_path / "python3"
    python.write_text(STAND_IN)
    python.chmod(0o755)
    env = {
        **os.environ,
        "HOME": str(tmp_path / "home"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PYTHON": str(python),
        "SESSION_KIT_CHROMIUM": "/usr/bin/true",  # no browser install attempt
        **extra,
    }
    env.pop("SESSION_KIT_DEV_VENV", None)
    # what an outer run (this suite under tests/run.sh) exported is not the checkout's own
    for name in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "HYPOTHESIS_STORAGE_DIRECTORY", "RUFF_CACHE_DIR"):
        env.pop(name, None)
    env.update(extra)
    return subprocess.run(
        ["bash", str(checkout / "tests" / "run.sh"), *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_the_test_environment_lives_in_the_user_cache_not_in_the_checkout(tmp_path: Path):
    checkout = _checkout(tmp_path)
    done = _run(checkout, tmp_path, "-k", "encoding")
    assert done.returncode == 0, done.stderr
    (venv,) = (tmp_path / "cache" / "claude-session-kit" / "dev").glob("claude-session-kit-*/venv")
    calls = (venv / "calls").read_text().splitlines()
    assert calls[-1].startswith("python -m pytest -o cache_dir=") and calls[-1].endswith(" -k encoding")
    assert any(c.startswith("ruff check") for c in calls) and any(c.startswith("ruff format --check") for c in calls)
    # only a link named .venv is left in the checkout (a plugin copy of it leaves links out)
    assert (checkout / ".venv").is_symlink() and (checkout / ".venv").resolve() == venv.resolve()
    assert sorted(p.name for p in checkout.iterdir()) == [".venv", "pyproject.toml", "tests"]


def test_two_checkouts_get_two_environments(tmp_path: Path):
    one = _checkout(tmp_path / "one")
    two = _checkout(tmp_path / "two")
    assert _run(one, tmp_path).returncode == 0 and _run(two, tmp_path).returncode == 0
    assert (one / ".venv").resolve() != (two / ".venv").resolve()


def test_an_environment_folder_left_in_the_checkout_by_an_older_run_is_named_not_used(tmp_path: Path):
    checkout = _checkout(tmp_path)
    (checkout / ".venv" / "bin").mkdir(parents=True)
    done = _run(checkout, tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{checkout / '.venv'}" in done.stderr and "remove it" in done.stderr
    assert not (checkout / ".venv" / "calls").exists()


def test_git_ignores_the_environment_link_in_the_checkout():
    done = subprocess.run(["git", "check-ignore", "--no-index", ".venv"], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == ".venv"


def test_the_test_environment_gets_the_team_and_mcp_extras_for_the_postgresql_and_mcp_tests(tmp_path: Path):
    checkout = _checkout(tmp_path)
    assert _run(checkout, tmp_path).returncode == 0
    (venv,) = (tmp_path / "cache" / "claude-session-kit" / "dev").glob("claude-session-kit-*/venv")
    installs = [c for c in (venv / "calls").read_text().splitlines() if " pip install " in f" {c} "]
    assert installs and installs[0].endswith("-e .[test,team,mcp]")


def test_system_packages_come_without_recommends_and_with_apts_progress_shown():
    script = (REPO / "tests" / "run.sh").read_text()
    installs = [line for line in script.splitlines() if "apt-get install" in line and not line.lstrip().startswith("#")]
    assert installs and all("--no-install-recommends" in line for line in installs), installs
    assert all("/dev/null" not in line and "-qq" not in line for line in installs), installs
    readme = (REPO / "README.md").read_text()
    assert "`chromium`" in readme and "`postgresql`" in readme  # the README says what it installs as root


def test_bytecode_and_the_test_tools_caches_go_to_the_user_cache_not_the_checkout(tmp_path: Path):
    checkout = _checkout(tmp_path)
    assert _run(checkout, tmp_path).returncode == 0
    (venv,) = (tmp_path / "cache" / "claude-session-kit" / "dev").glob("claude-session-kit-*/venv")
    seen = tmp_path / "seen"
    # the environment's python now says where the run points Python's and the tools' caches
    (venv / "bin" / "python").write_text(
        "#!/bin/sh\n"
        f'printf "%s\\n" "$PYTHONPYCACHEPREFIX" "$HYPOTHESIS_STORAGE_DIRECTORY" "$RUFF_CACHE_DIR" "$*" > "{seen}"\n'
    )
    assert _run(checkout, tmp_path).returncode == 0
    pycache, hypothesis, ruff, args = seen.read_text().splitlines()
    cache_dir = args.split("cache_dir=", 1)[1].split()[0]
    for where in (pycache, hypothesis, ruff, cache_dir):
        assert Path(where).is_relative_to(venv.parent) and not Path(where).is_relative_to(checkout), where
    assert sorted(p.name for p in checkout.iterdir()) == [".venv", "pyproject.toml", "tests"]
    # Where Python writes no bytecode, no prefix either: under one it would not read the standard
    # library's and the packages' own bytecode, and every process would compile them again.
    assert _run(checkout, tmp_path, PYTHONDONTWRITEBYTECODE="1").returncode == 0
    assert seen.read_text().splitlines()[0] == ""

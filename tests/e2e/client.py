"""Installing and running the real Claude Code client, isolated, against the fake Messages API.

This module owns: the pinned client version (read from ``CLAUDE_CODE_VERSION`` beside it), the
version a run asks for instead (the ``CLAUDE_CODE_VERSION`` environment variable: a version, or
``latest`` for the newest release, asked of npm), the cached npm install of that version, the isolated home a run gets, the environment passed to the
client, and one run of ``claude -p``. It does not own the fake (``fake_api``) nor any scenario.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_api import FakeMessagesAPI

REPO = Path(__file__).resolve().parents[2]
# The environment as the run started, before the tests' fixtures point HOME at a temporary folder.
_OUTER_ENV = dict(os.environ)
VERSION_FILE = Path(__file__).with_name("CLAUDE_CODE_VERSION")
PACKAGE = "@anthropic-ai/claude-code"
CACHE_ENV = "SESSION_KIT_CLIENT_CACHE"
DEFAULT_TIMEOUT = 120.0

# The only variables of the outer environment a client run sees; anything else (CLAUDE_*,
# ANTHROPIC_*, proxies, NODE_OPTIONS, a developer's own settings) could change what it does.
_PASSED_THROUGH = ("LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME", "SHELL", "TERM")


class ClientUnavailable(Exception):
    """The client cannot be had here: node/npm missing (``missing_tool``) or install failed."""

    def __init__(self, message: str, *, missing_tool: bool) -> None:
        super().__init__(message)
        self.missing_tool = missing_tool


VERSION_ENV = "CLAUDE_CODE_VERSION"  # run the suite against another client: a version, or `latest`
LATEST = "latest"


def pinned_version() -> str:
    return VERSION_FILE.read_text(encoding="utf-8").strip()


def wanted_version(env: Mapping[str, str] | None = None, *, latest: Callable[[], str] | None = None) -> str:
    """The client version the suite runs against: ``$CLAUDE_CODE_VERSION`` (``latest``: the
    newest release on npm), else the pinned one."""
    asked = (os.environ if env is None else env).get(VERSION_ENV, "").strip()
    if not asked:
        return pinned_version()
    if asked == LATEST:
        return (latest or latest_version)()
    if not all(part.isalnum() or part in "-+" for part in asked.replace(".", "")):
        raise ValueError(f"{VERSION_ENV}={asked!r} is not a version or {LATEST!r}")
    return asked


def latest_version() -> str:
    """The newest release of the client, as npm names it (``npm view <package> version``)."""
    if shutil.which("npm") is None:
        raise ClientUnavailable(f"npm not found on PATH: {VERSION_ENV}={LATEST} asks npm", missing_tool=True)
    try:
        done = subprocess.run(
            ["npm", "view", PACKAGE, "version"],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise ClientUnavailable(f"npm view {PACKAGE} timed out", missing_tool=False) from error
    version = done.stdout.strip().splitlines()[-1].strip() if done.stdout.strip() else ""
    if done.returncode != 0 or not version:
        raise ClientUnavailable(
            f"npm view {PACKAGE} version failed (exit {done.returncode}): {done.stderr[-2000:]}", missing_tool=False
        )
    return version


def cache_root(env: Mapping[str, str] | None = None) -> Path:
    """The folder holding ``claude-code-<version>/``: ``$SESSION_KIT_CLIENT_CACHE``, else
    ``claude-session-kit/test-cache`` in the user cache, shared by every checkout and never
    inside one (a marketplace copy of a checkout would carry it)."""
    env = _OUTER_ENV if env is None else env
    override = env.get(CACHE_ENV)
    if override:
        return Path(override).expanduser()
    cache = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(cache) / "claude-session-kit" / "test-cache"


def _reports_version(binary: Path, version: str) -> bool:
    try:
        out = subprocess.run(
            [str(binary), "--version"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and out.stdout.strip().startswith(version)


def install_client(version: str, root: Path) -> Path:
    """The client binary of ``version`` under ``root``, installed with npm if it is not there yet.

    Concurrent test runs share the cache: a file lock serializes installs, and an install goes to
    a staging folder that is renamed into place only once its binary answers ``--version``.
    """
    from filelock import FileLock  # a dependency of the kit, so present in its venv

    target = root / f"claude-code-{version}"
    binary = target / "node_modules" / ".bin" / "claude"
    if _reports_version(binary, version):
        return binary
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise ClientUnavailable(
            f"{' and '.join(missing)} not found on PATH: the end-to-end tests install the real "
            f"Claude Code client ({PACKAGE}@{version}) with npm",
            missing_tool=True,
        )
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / f"claude-code-{version}.lock"), timeout=900):
        if _reports_version(binary, version):
            return binary  # another run installed it while we waited
        staging = Path(tempfile.mkdtemp(prefix=f".claude-code-{version}-", dir=root))
        try:
            npm = subprocess.run(
                [
                    "npm",
                    "install",
                    "--no-audit",
                    "--no-fund",
                    "--prefix",
                    str(staging),
                    f"{PACKAGE}@{version}",
                ],
                capture_output=True,
                text=True,
                timeout=600,
                stdin=subprocess.DEVNULL,
                check=False,
            )
            staged = staging / "node_modules" / ".bin" / "claude"
            if npm.returncode != 0 or not _reports_version(staged, version):
                raise ClientUnavailable(
                    f"npm install {PACKAGE}@{version} failed (exit {npm.returncode}) or its binary "
                    f"does not report {version}:\n{npm.stdout[-2000:]}\n{npm.stderr[-4000:]}",
                    missing_tool=False,
                )
            if target.exists():  # a broken earlier install
                shutil.rmtree(target)
            os.replace(staging, target)
        except subprocess.TimeoutExpired as error:
            raise ClientUnavailable(f"npm install timed out: {error}", missing_tool=False) from error
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return binary


@dataclass(frozen=True)
class ClaudeHome:
    """An isolated home for client runs: HOME, CLAUDE_CONFIG_DIR, XDG dirs and temp, under ``root``."""

    root: Path

    @classmethod
    def create(cls, root: Path) -> ClaudeHome:
        home = cls(root)
        for directory in (home.home, home.config_dir, home.tmp, home.runtime):
            directory.mkdir(parents=True, exist_ok=True)
        # The client refuses temp and runtime dirs that others can read.
        home.tmp.chmod(0o700)
        home.runtime.chmod(0o700)
        return home

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def config_dir(self) -> Path:
        return self.home / ".claude"

    @property
    def projects(self) -> Path:
        return self.config_dir / "projects"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @property
    def runtime(self) -> Path:
        return self.root / "run"

    def env(self) -> dict[str, str]:
        return {
            "HOME": str(self.home),
            "CLAUDE_CONFIG_DIR": str(self.config_dir),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_RUNTIME_DIR": str(self.runtime),
            # Without these the client keeps task output and probes under /tmp/claude-<uid>/.
            "TMPDIR": str(self.tmp),
            "CLAUDE_CODE_TMPDIR": str(self.tmp),
        }


def client_env(home: ClaudeHome, base_url: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The whole environment of a client run: nothing leaks in from the outer process."""
    env = {name: os.environ[name] for name in _PASSED_THROUGH if name in os.environ}
    # The test interpreter's bin first, so hooks that call `python3` or `session-kit` get the kit.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)])
    env.update(home.env())
    env.update(
        {
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "test-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_AUTOUPDATER": "1",
            "IS_SANDBOX": "1",  # --dangerously-skip-permissions is refused as root otherwise
        }
    )
    env.update(extra or {})
    return env


@dataclass(frozen=True)
class ClaudeRun:
    """One finished ``claude -p`` run."""

    args: tuple[str, ...]
    cwd: Path
    returncode: int | None
    stdout: str
    stderr: str
    duration: float
    timed_out: bool
    result: Mapping[str, Any] | None  # the --output-format json result, when it parsed
    session_id: str | None
    transcript_path: Path | None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def _tail(text: str, limit: int = 3000) -> str:
    return text if len(text) <= limit else "…" + text[-limit:]


@dataclass
class Claude:
    """Runs the real client in ``home`` against ``fake``; ``cwd`` is the default project folder."""

    binary: Path
    home: ClaudeHome
    fake: FakeMessagesAPI
    cwd: Path
    runs: list[ClaudeRun] = field(default_factory=list)

    def run(
        self,
        prompt: str,
        *,
        resume: str | None = None,
        cwd: Path | None = None,
        plugin_dirs: Sequence[Path] = (),
        args: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        check: bool = True,
        permission_mode: str | None = None,
    ) -> ClaudeRun:
        """``claude -p PROMPT --output-format json``; with ``check`` a failure fails the test.

        Permissions are bypassed unless ``permission_mode`` names one (e.g. ``plan``: the client
        then tells the model which plan file to write).
        """
        __tracebackhide__ = True
        command = [
            str(self.binary),
            "-p",
            prompt,
            "--output-format",
            "json",
            *(["--permission-mode", permission_mode] if permission_mode else ["--dangerously-skip-permissions"]),
        ]
        if resume:
            command += ["--resume", resume]
        for plugin in plugin_dirs:
            command += ["--plugin-dir", str(plugin)]
        command += list(args)
        workdir = Path(cwd or self.cwd)
        started = time.monotonic()
        # Own process group, so a timeout also ends the shells the client's tools started.
        process = subprocess.Popen(
            command,
            cwd=workdir,
            env=client_env(self.home, self.fake.base_url, env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        timed_out = False
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
        result = _parse_result(stdout)
        session_id = resume
        if result and isinstance(result.get("session_id"), str):
            session_id = result["session_id"]
        run = ClaudeRun(
            args=tuple(command[1:]),
            cwd=workdir,
            returncode=None if timed_out else process.returncode,
            stdout=stdout,
            stderr=stderr,
            duration=time.monotonic() - started,
            timed_out=timed_out,
            result=result,
            session_id=session_id,
            transcript_path=self.transcript_path(session_id) if session_id else None,
        )
        self.runs.append(run)
        if check and not run.ok:
            raise AssertionError(self.explain(run, "the client run failed"))
        return run

    def transcript_path(self, session_id: str) -> Path | None:
        found = sorted(self.home.projects.glob(f"*/{session_id}.jsonl"))
        return found[0] if found else None

    def explain(self, run: ClaudeRun, what: str) -> str:
        """An assertion message with what the client printed and what the fake saw."""
        status = f"timed out after {run.duration:.0f}s" if run.timed_out else f"exit {run.returncode}"
        return (
            f"{what}: claude {' '.join(run.args)} (cwd {run.cwd}) {status}\n"
            f"--- stderr ---\n{_tail(run.stderr)}\n--- stdout ---\n{_tail(run.stdout, 1500)}\n"
            f"--- {self.fake.log_tail()}"
        )


def _parse_result(stdout: str) -> Mapping[str, Any] | None:
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, Mapping):
            return value
    return None

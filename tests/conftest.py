"""Every test runs with its own HOME, Claude root and kit state root under tmp_path.

Looking up the real home any other way (the password database) fails loudly, so no test can
read or write the developer's real ~/.claude.
"""

from __future__ import annotations

import os
import pwd
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

# The redactor's compiled pass for every text, however short, unless the run asks for `re`
# alone (tests/run.sh runs the rule suites both ways); its database compiled once for the run
# (each test has its own cache folder otherwise).
os.environ.setdefault("SESSION_KIT_REDACT_ENGINE", "hyperscan")
os.environ.setdefault("SESSION_KIT_REDACT_CACHE", tempfile.mkdtemp(prefix="session-kit-redaction-"))

# One Chromium for every browser test (the view's and the end-to-end one), started on first use.
from tests.support.browser import browser  # noqa: F401  (a fixture, used by name)

# One PostgreSQL server for the team tests (`sync`, `--team`), started on first use; a database per test.
from tests.support.postgres import pg_server, team_db  # noqa: F401  (fixtures, used by name)


@pytest.fixture(autouse=True, scope="session")
def no_terminal_size() -> Iterator[None]:
    """The developer's `COLUMNS`/`LINES` are not the tests': a test that needs a width sets its
    own (session-wide, so that module fixtures starting the client do not see them either)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("COLUMNS", raising=False)
        patch.delenv("LINES", raising=False)
        yield


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    monkeypatch.setenv("SESSION_KIT_HOME", str(home / "session-kit-state"))
    for name in (
        "CLAUDE_CONFIG_DIR",
        "SESSION_CONTEXT",
        "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_ENV_FILE",
    ):
        monkeypatch.delenv(name, raising=False)

    def no_real_home(*_args: object) -> None:
        raise AssertionError("a test looked up the real home directory through the password database")

    monkeypatch.setattr(pwd, "getpwuid", no_real_home)
    monkeypatch.setattr(pwd, "getpwnam", no_real_home)
    return home


@pytest.fixture
def claude_root(isolated_home: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = isolated_home / ".claude"
    (root / "projects").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    return root

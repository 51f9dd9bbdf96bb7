"""The index kept fresh by the hooks inside the real client, by both routes: once a search has
made the index, a later session's words are in it as soon as the client's hooks (Stop after
each turn, SessionEnd) have run their background child, before any search reads a transcript;
the next search then reads nothing and finds them.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .fake_api import Script
from .routes import Route, installed_route, plugin_route

FIRST = "FRESH-FIRST: set up the build"
SECOND = "FRESH-SECOND: check the pangolin-ledger totals"


def script() -> Script:
    return Script(
        main={
            "FRESH-FIRST": ["The build is set up."],
            "FRESH-SECOND": ["The pangolin-ledger totals add up."],
        }
    )


def kit(route: Route, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**route.home.env(), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(route.home.config_dir)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=route.project)


def indexed_texts(route: Route, word: str) -> int:
    """How many indexed texts hold `word` (read from the database: no update runs)."""
    found = 0
    for path in (route.state_root / "index").glob("history-*.sqlite3"):
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            found += conn.execute("SELECT count(*) FROM texts WHERE text LIKE ?", (f"%{word}%",)).fetchone()[0]
    return found


@pytest.fixture(scope="module", params=["installed", "plugin"])
def fresh(request, claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp(f"index-{request.param}")
    make = installed_route if request.param == "installed" else plugin_route
    with make(claude_binary, tmp, script()) as route:
        route.run(FIRST)
        made = kit(route, "search", "build", "--all", "--json")
        assert made.returncode == 0, made.stderr
        second = route.run(SECOND)
        deadline = time.monotonic() + 60
        while indexed_texts(route, "pangolin-ledger") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        yield route, second.session_id


def test_the_hooks_index_a_later_session_before_any_search(fresh):
    route, _sid = fresh
    assert indexed_texts(route, "pangolin-ledger") >= 2  # the prompt and the answer
    journals = list((route.state_root / "index").glob("*.journal"))
    assert journals and journals[0].read_bytes(), "no hook journaled the session"


def test_the_next_search_finds_it_and_reads_nothing(fresh):
    route, sid = fresh
    done = kit(route, "search", "pangolin-ledger", "--all", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["scanned_files"] == 0
    assert {h["session_id"] for h in found["hits"]} == {sid}

"""The team database on what the real client writes: a session with a subagent, a failing
command and a secret in its prompt, pushed with `sync` into a real PostgreSQL server, is found
by `search --team` with its machine named, counted by `usage --team --by machine` as `usage`
counts it on the machine, shown by `show --team`, and its secret is nowhere in the database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.postgres import Server

from .client import Claude
from .fake_api import agent, bash, text

SECRET = "ghp_T3amE2eS3cr3tT0k3nAbCdEfGhIjKlMnOp12"


def kit(claude: Claude, url: str, *args: str) -> dict:
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(claude.home.config_dir), "--json"]
    env = {"PATH": "/usr/bin:/bin", **claude.home.env(), "SESSION_KIT_TEAM_URL": url, "USER": "carol"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_real_session_is_pushed_found_and_counted_in_the_team_database(
    claude: Claude, tmp_path: Path, pg_server: Server, team_db: str
):
    claude.fake.script.main = [
        [text("Checking."), bash("ls /no-such-dir-TEAMPROBE")],
        [agent("Explore", "AGENT-T: look for quokkafinder", background=False)],
        "Done.",
    ]
    claude.fake.script.agents = {"AGENT-T": [[bash("echo quokkafinder-found")], "found it"]}
    run = claude.run(f"TEAM-START: deploy with the token {SECRET} please")
    url = pg_server.url(team_db)
    pushed = kit(claude, url, "sync", "--machine", "e2e-box")
    assert pushed["files"] >= 2 and pushed["machine"] == "e2e-box"

    hits = kit(claude, url, "search", "quokkafinder", "--team")["hits"]
    assert hits and {h["machine"] for h in hits} == {"e2e-box"}
    assert any(h["agent_id"] for h in hits)  # the subagent's log was pushed too
    [row] = kit(claude, url, "usage", "--team", "--by", "machine")["rows"]
    own = kit(claude, url, "usage", "--by", "model")["total"]
    assert row["key"] == "e2e-box" and row["tokens"] == own["tokens"] and row["tokens"]["messages"] > 0
    card = kit(claude, url, "show", run.session_id, "--team")
    assert card["user"] == "carol" and any("TEAMPROBE" in (f["summary"] or "") for f in card["failures"])
    assert kit(claude, url, "sync", "--machine", "e2e-box")["files"] == 0
    assert SECRET not in pg_server.dump(team_db)

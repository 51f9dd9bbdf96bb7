"""`secrets` in the real client: a key typed into a real session (and printed by a Bash call) is
named by kind, session, file and line in the client's files and in the archive, never shown;
`--scrub` takes it out of the archive and `search` still finds the rest of the session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from .client import Claude
from .fake_api import FakeMessagesAPI, Script, bash

KEY = "sk-ant-api03-E2eTyp3dK3yXyZqQ9wE8rT7yU6iO5pA4sD3fGhJkLzXcVbNm-AA"


def _kit(claude: Claude, state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SESSION_KIT_HOME": str(state)}
    return subprocess.run(
        [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(claude.home.config_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _registered(transcript: Path) -> dict | None:
    """The registry record the session's Bash call printed (`claude.live` reads these)."""
    for line in transcript.read_text().splitlines():
        entry = json.loads(line)
        stdout = (
            (entry.get("toolUseResult") or {}).get("stdout") if isinstance(entry.get("toolUseResult"), dict) else None
        )
        if stdout and '"sessionId"' in stdout:
            return json.loads(stdout[stdout.index("{") : stdout.rindex("}") + 1])
    return None


def test_a_key_typed_into_a_real_session_is_found_never_shown_and_scrubbed_from_the_archive(
    claude: Claude, fake_api: FakeMessagesAPI, tmp_path: Path
):
    registry = 'cat "$CLAUDE_CONFIG_DIR"/sessions/*.json'  # the client's record of its live process
    fake_api.script = Script(
        main=[[bash(f"echo deploying with {KEY}; {registry}")], "Deployed the ZEPHYRCANARY build."]
    )
    run = claude.run(f"deploy the ZEPHYRCANARY build with {KEY}")
    assert run.transcript_path is not None and KEY in run.transcript_path.read_text()
    live = _registered(run.transcript_path)
    assert live is not None and live["sessionId"] == run.session_id and isinstance(live["pid"], int)
    assert not list((claude.home.config_dir / "sessions").glob("*.json")), "removed when the client exits"
    state = tmp_path / "kit-state"

    assert _kit(claude, state, "archive").returncode == 0
    found = _kit(claude, state, "secrets", "--all", "--json")
    assert found.returncode == 8, found.stderr
    assert KEY[12:40] not in found.stdout + found.stderr
    hits = json.loads(found.stdout)["hits"]
    mine = [h for h in hits if h["session"] == run.session_id and h["kind"] == "anthropic-api-key"]
    assert {h["where"] for h in mine} == {"client", "archive"}
    assert any(h["path"] == str(run.transcript_path) for h in mine)

    scrub = _kit(claude, state, "secrets", "--all", "--scrub", "--json")
    report = json.loads(scrub.stdout)
    assert scrub.returncode == 8 and report["left"] > 0  # the client's files, without --client
    assert not [
        h
        for h in json.loads(_kit(claude, state, "secrets", "--all", "--json").stdout)["hits"]
        if h["where"] == "archive"
    ]
    assert KEY in run.transcript_path.read_text(), "the client's files are left alone"
    searched = _kit(claude, state, "search", "ZEPHYRCANARY", "--all", "--json")
    assert searched.returncode == 0 and json.loads(searched.stdout)["total"] > 0

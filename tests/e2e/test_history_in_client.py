"""The archive and the index inside the real client: a session archived by the hooks, then
deleted as the client's clean-up deletes it, still answers `show`, `debug-agent` and `search`;
`restore` brings it back and `claude --resume` continues it.

One session through the plugin route: a failing command, a subagent whose command fails, an
answer. The SessionEnd hook archives it in the background; the test waits for that copy (a
bounded wait), removes the transcript and its `subagents/` folder, asks the kit, restores, and
resumes: the resumed request must carry the first prompt, so the client read the restored file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .fake_api import Script, agent, bash, text
from .routes import Route, plugin_route

START = "HIST-START: look for the quokka-lantern config and check it"
AGAIN = "HIST-AGAIN: where were we?"
AGENT_PROMPT = "HIST-AGENT: check the quokka-lantern config"
AGENT_FAILURE = "ls /nonexistent-hist-agent-dir"


def script() -> Script:
    return Script(
        main={
            "HIST-START": [
                [text("Looking."), bash("ls /nonexistent-hist-dir")],
                [agent("general-purpose", AGENT_PROMPT, background=False)],
                "The quokka-lantern config is missing.",
            ],
            "HIST-AGAIN": ["We were checking the quokka-lantern config."],
        },
        agents={"HIST-AGENT": [[bash(AGENT_FAILURE)], "The agent found nothing."]},
    )


def kit(route: Route, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**route.home.env(), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(route.home.config_dir)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=route.project)


def archived_size(route: Route, rel: str) -> int | None:
    """How much of `rel` the archive of the route's Claude root holds (each root has its own
    folder under `archive/roots/`)."""
    for manifest in (route.state_root / "archive" / "roots").glob(f"*/files/{rel}.gz.json"):
        try:
            return json.loads(manifest.read_text())["offset"]
        except (OSError, ValueError, KeyError):
            return None
    return None


@pytest.fixture(scope="module")
def deleted(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("history")
    with plugin_route(claude_binary, tmp, script()) as route:
        first = route.run(START)
        route.session_id = first.session_id
        transcript = first.transcript_path
        assert transcript is not None and transcript.is_file()
        rel = str(transcript.relative_to(route.home.config_dir))
        size = transcript.stat().st_size
        deadline = time.monotonic() + 60
        while archived_size(route, rel) != size and time.monotonic() < deadline:
            time.sleep(0.1)
        archived = archived_size(route, rel) == size
        original = transcript.read_bytes()
        # as the client's clean-up deletes an old session: the file and its folder
        transcript.unlink()
        shutil.rmtree(transcript.with_suffix(""), ignore_errors=True)
        yield route, transcript, original, archived


def test_the_hooks_archived_the_session_and_its_agent(deleted):
    route, transcript, _original, archived = deleted
    assert archived, "SessionEnd did not archive the whole transcript"
    agents = list((route.state_root / "archive" / "roots").rglob("agent-*.jsonl.gz"))
    assert agents, "the subagent's log was not archived"


def test_show_answers_from_the_archive(deleted):
    route, transcript, _original, _ = deleted
    assert not transcript.exists()
    done = kit(route, "show", route.session_id, "--json")
    assert done.returncode == 0, done.stderr
    assert "read from the kit's archive" in done.stderr
    report = json.loads(done.stdout)
    assert any("HIST-START" in r["text"] for r in report["requests"]), report["requests"]


def test_debug_agent_answers_from_the_archive(deleted):
    route, transcript, _original, _ = deleted
    done = kit(route, "debug-agent", route.session_id, "--all")
    assert done.returncode == 0, done.stderr
    assert "nonexistent-hist-agent-dir" in done.stdout and "HIST-AGENT" in done.stdout


def test_search_answers_from_the_archive_with_the_way_back(deleted):
    route, transcript, _original, _ = deleted
    done = kit(route, "search", "quokka-lantern", "--all", "--json")
    assert done.returncode == 0, done.stderr
    hits = json.loads(done.stdout)["hits"]
    assert hits and {h["session_id"] for h in hits} == {route.session_id}
    assert all(h["archived"] for h in hits)
    assert (
        hits[0]["resume"]
        == f"session-kit restore {route.session_id} && cd '{route.project}' && claude --resume {route.session_id}"
    )


def test_restore_brings_it_back_and_resume_continues_it(deleted):
    route, transcript, original, _ = deleted
    done = kit(route, "restore", route.session_id)
    assert done.returncode == 0, done.stderr
    assert transcript.read_bytes() == original
    again = route.run(AGAIN, resume=route.session_id)
    assert again.session_id == route.session_id
    request = route.fake.last_main_request().text()
    assert "HIST-START" in request and "HIST-AGAIN" in request, "the resumed conversation lost its start"

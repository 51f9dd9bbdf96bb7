"""History the client drops from a transcript, kept by the archive, in the real client.

A session runs with `CLAUDE_CODE_TRANSCRIPT_LOCAL_GC=1` (the client's option, since 2.1.287,
that drops the history before a compaction from a transcript it rewrites), is compacted with
`/compact` and goes on. The client drops pre-compaction history only from files over 5 MB
(`-p` and SDK sessions): a session of this size is never rewritten, which the test checks
(`test_the_client_kept_a_small_file_whole`). The rewrite is then done as the client does it,
after the real session: the file replaced by its lines from the last compaction boundary on.
The SessionEnd hook and `session-kit archive` archive before and after; then `search` finds the
dropped request, `show` counts it, and after the session is deleted `restore` brings it all back.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .fake_api import Script, bash, text
from .routes import Route, plugin_route

START = "GC-START: find the walrus-tangent settings"
AFTER = "GC-AFTER: and now the rest"
GC_ENV = {"CLAUDE_CODE_TRANSCRIPT_LOCAL_GC": "1"}


def script() -> Script:
    return Script(
        main={
            "GC-START": [[text("Looking."), bash("echo walrus-tangent-output")], "Found the walrus-tangent settings."],
            "GC-AFTER": ["Done with the rest."],
        },
        compact_summary="Summary: some settings were looked at.",
    )


def kit(route: Route, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**route.home.env(), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(route.home.config_dir)]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, cwd=route.project)


def rewrite_as_the_client_gc_does(transcript: Path) -> None:
    lines = transcript.read_bytes().splitlines(keepends=True)
    start = max(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    tmp = transcript.with_name(transcript.name + ".tmp")
    tmp.write_bytes(b"".join(lines[start:]))
    tmp.replace(transcript)


@pytest.fixture(scope="module")
def collected(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("gc")
    with plugin_route(claude_binary, tmp, script()) as route:
        first = route.run(START, env=GC_ENV)
        route.session_id = first.session_id
        route.run("/compact", resume=first.session_id, env=GC_ENV)
        route.run(AFTER, resume=first.session_id, env=GC_ENV)
        transcript = first.transcript_path
        assert transcript is not None and transcript.is_file()
        whole = transcript.read_bytes()
        time.sleep(1)  # the SessionEnd hook's archive child
        assert kit(route, "archive").returncode == 0
        rewrite_as_the_client_gc_does(transcript)
        rewritten = transcript.read_bytes()
        archived = kit(route, "archive", "--verify")
        yield route, transcript, whole, rewritten, archived


def test_the_client_kept_a_small_file_whole(collected):
    _route, _transcript, whole, _rewritten, _archived = collected
    assert b"GC-START" in whole and b'"compact_boundary"' in whole, "the client dropped history itself"


def _first_request(data: bytes) -> str | None:
    """The uuid of the entry holding the person's first request, if the file has it."""
    for line in data.splitlines():
        entry = json.loads(line) if line.strip() else {}
        content = (entry.get("message") or {}).get("content") if entry.get("type") == "user" else None
        if isinstance(content, str) and content.startswith("GC-START"):
            return entry.get("uuid")
    return None


def test_the_archive_verifies_after_the_rewrite(collected):
    _route, _transcript, whole, rewritten, archived = collected
    assert _first_request(whole) and _first_request(rewritten) is None
    assert archived.returncode == 0, archived.stderr
    assert "every byte is there" in archived.stdout


def test_search_finds_the_dropped_request_and_show_counts_it(collected):
    route, _transcript, _whole, _rewritten, _archived = collected
    found = kit(route, "search", "walrus-tangent", "--all", "--json")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["total"] >= 1
    shown = kit(route, "show", route.session_id, "--json")
    assert shown.returncode == 0, shown.stderr
    assert "earlier entries" in shown.stderr
    texts = [r["text"] for r in json.loads(shown.stdout)["requests"]]
    assert any("GC-START" in t for t in texts) and any("GC-AFTER" in t for t in texts), texts


def test_restore_after_deletion_brings_back_the_whole_history(collected):
    route, transcript, whole, _rewritten, _archived = collected
    transcript.unlink()
    shutil.rmtree(transcript.with_suffix(""), ignore_errors=True)
    done = kit(route, "restore", route.session_id, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["earlier_entries"] > 0
    back = transcript.read_bytes()
    uuids = {json.loads(line).get("uuid") for line in whole.splitlines() if line.strip()}
    assert uuids <= {json.loads(line).get("uuid") for line in back.splitlines() if line.strip()}
    assert b"GC-START" in back and b"GC-AFTER" in back

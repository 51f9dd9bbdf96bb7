"""The index the hooks keep fresh: SessionEnd, PreCompact and Stop journal the transcript and
index what it gained in the background; an update then looks only at what may have changed
(the sessions journaled, new or changed project folders, files written to lately), and at
every file where no hook keeps a journal."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from session_kit.index import db, fresh, journal
from session_kit.queries.indexed import search_history
from tests.hooks.test_handlers import hook
from tests.support.sessions import build
from tests.support.transcripts import Transcript

DAY_AGO = time.time() - 86400


def _state() -> str:
    return os.environ["SESSION_KIT_HOME"]


def _line(sid: str, text: str) -> bytes:
    entry = {
        "type": "user",
        "uuid": f"0f0f0f0f-0000-4000-8000-{abs(hash(text)) % 10**12:012d}",
        "sessionId": sid,
        "timestamp": "2026-11-20T10:00:00.000Z",
        "message": {"role": "user", "content": text},
    }
    return json.dumps(entry).encode() + b"\n"


def _age(root: Path) -> None:
    """Every transcript last written a day ago (none is a session running now)."""
    for path in (root / "projects").rglob("*.jsonl"):
        os.utime(path, (DAY_AGO, DAY_AGO))


def _found(root: Path, word: str, *, refresh: bool = True) -> set[str]:
    return {h.session_id for h in search_history(word, root, _state(), limit=None, refresh=refresh).hits}


def _looked_at(root: Path) -> set[str] | None:
    conn = db.connect(_state(), claude_root=root)
    try:
        files = fresh.plan(conn, root).files
    finally:
        conn.close()
    return None if files is None else {os.path.relpath(f.path, root) for f in files}


def _journal(root: Path) -> Path:
    return Path(journal.journal_path(journal.index_path(_state(), root)))


def _second_session(root: Path) -> Path:
    t = Transcript("2e000000-0000-4000-8000-000000000002", cwd="/work/other")
    t.user("Other work")
    t.say("ok")
    return t.write_session(root)


def _settled(root: Path, word: str, sid: str) -> bool:
    """Whether the hook's child indexed `word` within a bounded wait (no search reads a file)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if sid in _found(root, word, refresh=False):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("event", ["stop", "session-end", "pre-compact"])
def test_the_hooks_index_what_a_session_wrote_before_any_search_reads_it(claude_root: Path, event: str):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    assert sid in _found(claude_root, "Please build")  # the index exists
    with transcript.open("ab") as f:
        f.write(_line(sid, "ZEBRAFINCH migration"))
    payload = {"session_id": sid, "cwd": "/work/proj", "transcript_path": str(transcript), "trigger": "auto"}
    done = hook(event, payload)
    assert (done.returncode, done.stderr) == (0, b"")
    assert _settled(claude_root, "ZEBRAFINCH", sid)
    assert _journal(claude_root).read_bytes() == os.fsencode(str(transcript)) + b"\n"


def test_after_a_hook_journaled_a_session_an_update_looks_at_its_files_alone(claude_root: Path):
    built = build(claude_root)
    _second_session(claude_root)
    _age(claude_root)
    journal.note(_state(), str(claude_root), "/nowhere")  # no index folder yet: nothing journaled
    assert not _journal(claude_root).exists()
    _found(claude_root, "Please build")  # the index made, every file looked at
    assert _looked_at(claude_root) is None  # no hook keeps a journal yet: every file each time
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    assert journal.note(_state(), str(claude_root), str(transcript))
    _found(claude_root, "Please build")  # every file looked at once more, from where the journal is
    assert _looked_at(claude_root) == set()
    with transcript.open("ab") as f:
        f.write(_line(sid, "OSPREY rollout"))
    assert journal.note(_state(), str(claude_root), str(transcript))
    looked = _looked_at(claude_root)
    assert f"projects/-work-proj/{sid}.jsonl" in looked
    assert f"projects/-work-proj/{sid}/subagents/agent-{built.worker_agent}.jsonl" in looked
    assert not [p for p in looked if "-work-other" in p]
    assert _found(claude_root, "OSPREY") == {sid}
    assert _looked_at(claude_root) == {f"projects/-work-proj/{sid}.jsonl"}  # written to lately: a running session


def test_a_session_made_without_the_hooks_is_found_through_its_project_folder(claude_root: Path):
    build(claude_root)
    _age(claude_root)
    _found(claude_root, "Please build")
    _journal(claude_root).touch()
    _found(claude_root, "Please build")
    t = Transcript("3f000000-0000-4000-8000-000000000003", cwd="/work/proj")
    t.user("PELICAN deployment")
    t.say("ok")
    path = t.write_session(claude_root)
    os.utime(path, (DAY_AGO, DAY_AGO))
    assert _found(claude_root, "PELICAN") == {t.session_id}


def test_a_file_written_to_lately_is_looked_at_without_a_hook(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    _found(claude_root, "Please build")
    _journal(claude_root).touch()
    _found(claude_root, "Please build")
    with (claude_root / "projects" / "-work-proj" / f"{sid}.jsonl").open("ab") as f:
        f.write(_line(sid, "HERON cutover"))
    assert _found(claude_root, "HERON") == {sid}


def test_without_a_journal_every_file_is_looked_at(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    _age(claude_root)
    _found(claude_root, "Please build")
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    with transcript.open("ab") as f:
        f.write(_line(sid, "KESTREL rollback"))
    os.utime(transcript, (DAY_AGO, DAY_AGO))
    assert _found(claude_root, "KESTREL") == {sid}


def test_a_journal_made_again_or_a_path_outside_the_projects_makes_the_next_update_look_at_every_file(
    claude_root: Path,
):
    build(claude_root)
    _found(claude_root, "Please build")
    _journal(claude_root).write_bytes(b"")
    _found(claude_root, "Please build")
    assert _looked_at(claude_root) is not None
    _journal(claude_root).unlink()
    _journal(claude_root).write_bytes(b"/elsewhere/x.jsonl\n")
    assert _looked_at(claude_root) is None
    _found(claude_root, "Please build")
    with _journal(claude_root).open("ab") as f:
        f.write(b"/elsewhere/y.jsonl\n")
    assert _looked_at(claude_root) is None


def test_a_hook_on_a_root_without_an_index_makes_none(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    done = hook("stop", {"session_id": sid, "cwd": "/work/proj", "transcript_path": str(transcript)})
    assert (done.returncode, done.stderr) == (0, b"")
    time.sleep(0.3)
    assert not os.path.exists(journal.index_path(_state(), claude_root))
    assert not _journal(claude_root).exists()


@pytest.mark.parametrize("event", ["stop", "session-end", "pre-compact"])
def test_a_fifo_in_the_journals_place_never_blocks_a_hook(claude_root: Path, event: str):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    assert sid in _found(claude_root, "Please build")  # the index exists: the hooks journal
    os.mkfifo(_journal(claude_root))
    payload = {"session_id": sid, "cwd": "/work/proj", "transcript_path": str(transcript), "trigger": "auto"}
    done = hook(event, payload)  # a hook waiting on the FIFO times out here
    assert done.returncode == 0 and done.stderr.count(b"\n") == 1
    assert b"not a regular file (a FIFO)" in done.stderr
    log = Path(_state()) / "logs" / "hooks.log"
    assert b"not a regular file (a FIFO)" in log.read_bytes()


def test_a_fifo_in_the_hook_logs_place_never_blocks_a_hook(claude_root: Path):
    built = build(claude_root)
    sid = built.current.session_id
    transcript = claude_root / "projects" / "-work-proj" / f"{sid}.jsonl"
    _found(claude_root, "Please build")
    os.mkfifo(_journal(claude_root))
    (Path(_state()) / "logs").mkdir(exist_ok=True)
    os.mkfifo(Path(_state()) / "logs" / "hooks.log")
    done = hook("stop", {"session_id": sid, "cwd": "/work/proj", "transcript_path": str(transcript)})
    assert done.returncode == 0 and b"not a regular file" in done.stderr

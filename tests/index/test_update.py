"""The index kept current per file: appends, truncation, replacement, a half-written last
line, no FTS5, concurrent updates and a kill during indexing."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from session_kit.index import db
from session_kit.index.query import Filters, search_index
from session_kit.index.update import update
from tests.support.sessions import build
from tests.support.transcripts import Transcript

SID = "1d0e0000-0000-4000-8000-000000000001"


@pytest.fixture
def state(tmp_path: Path) -> str:
    return str(tmp_path / "state")


def _texts(conn: sqlite3.Connection, word: str) -> list[tuple]:
    hits, _, _ = search_index(conn, word, limit=None)
    return [(h.session_id, h.agent_id, h.line, h.where) for h in hits]


def _session(root: Path, *lines: str) -> tuple[Transcript, Path]:
    t = Transcript(SID, cwd="/work/proj")
    for text in lines:
        t.user(text)
        t.say("ok")
    return t, t.write_session(root)


@pytest.mark.parametrize("fts", [True, False], ids=["fts5", "no-fts5"])
def test_the_index_finds_messages_tool_io_and_agent_logs(claude_root: Path, state: str, fts: bool):
    built = build(claude_root)
    conn = db.connect(state, fts=fts)
    assert db.has_fts(conn) is fts
    update(conn, claude_root)
    assert _texts(conn, "SENTINEL_FAILURE") == [(built.current.session_id, built.worker_agent, 3, "tool_output")]
    assert {h[0] for h in _texts(conn, "Please build")} == {built.current.session_id}
    row = conn.execute(
        "SELECT project, cwd, branch, first_request, compactions FROM sessions WHERE id=?", (built.current.session_id,)
    ).fetchone()
    assert row == ("-work-proj", "/work/proj", "feat/kit", "Please build the feature", 1)
    [failed] = conn.execute("SELECT tool, exit_code, status FROM calls WHERE error LIKE '%SENTINEL%'").fetchall()
    assert failed == ("Bash", 3, "error")
    agents = dict(conn.execute("SELECT agent_id, type FROM agents WHERE session=?", (built.current.session_id,)))
    assert agents == {built.plan_agent: "Plan", built.worker_agent: "general-purpose"}
    errors, _, _ = search_index(conn, "SENTINEL", Filters(errors_only=True))
    assert [h.status for h in errors] == ["error"]


def test_noise_is_not_indexed(claude_root: Path, state: str):
    t = Transcript(SID)
    t.noise("attachment", size=2000, note="NOISEWORD")
    t.user("hello")
    t.write_session(claude_root)
    conn = db.connect(state)
    update(conn, claude_root)
    assert _texts(conn, "NOISEWORD") == [] and len(_texts(conn, "hello")) == 1


def test_appended_lines_are_indexed_and_nothing_twice(claude_root: Path, state: str):
    t, path = _session(claude_root, "alphaword")
    conn = db.connect(state)
    update(conn, claude_root)
    first = conn.execute("SELECT count(*) FROM texts").fetchone()[0]
    t.lines.clear()
    t.user("betaword")
    with path.open("a") as f:
        f.write(t.text())
    result = update(conn, claude_root)
    assert result.files == 1 and result.reindexed == 0
    assert len(_texts(conn, "alphaword")) == 1 and len(_texts(conn, "betaword")) == 1
    assert conn.execute("SELECT count(*) FROM texts").fetchone()[0] == first + 1
    assert update(conn, claude_root).files == 0


def test_a_half_written_last_line_waits_for_the_next_update(claude_root: Path, state: str):
    _t, path = _session(claude_root, "firstword")
    whole = path.read_bytes()
    line = b'{"type":"user","sessionId":"' + SID.encode() + b'","message":{"role":"user","content":"secondword"}}\n'
    path.write_bytes(whole + line[:30])
    conn = db.connect(state)
    update(conn, claude_root)
    assert _texts(conn, "secondword") == []
    path.write_bytes(whole + line)
    update(conn, claude_root)
    assert len(_texts(conn, "secondword")) == 1 and len(_texts(conn, "firstword")) == 1


def test_a_truncated_or_replaced_file_is_indexed_again(claude_root: Path, state: str):
    _t, path = _session(claude_root, "oldword", "moreword")
    conn = db.connect(state)
    update(conn, claude_root)
    _t2, _ = _session(claude_root, "newword")  # the same path, shorter: truncated
    assert update(conn, claude_root).reindexed == 1
    assert _texts(conn, "oldword") == [] and len(_texts(conn, "newword")) == 1
    t3 = Transcript(SID, cwd="/work/proj")
    t3.user("replacedword " + "x" * 5000)  # longer, another start: replaced
    tmp = path.with_suffix(".tmp")
    t3.write(tmp)
    os.replace(tmp, path)
    assert update(conn, claude_root).reindexed == 1
    assert _texts(conn, "newword") == [] and len(_texts(conn, "replacedword")) == 1


def test_a_deleted_session_stays_in_the_index(claude_root: Path, state: str):
    _t, path = _session(claude_root, "keptword")
    conn = db.connect(state)
    update(conn, claude_root)
    path.unlink()
    update(conn, claude_root)
    [hit], _, _ = search_index(conn, "keptword")
    assert hit.archived and hit.resume == f"session-kit restore {SID} && cd /work/proj && claude --resume {SID}"


def test_secrets_are_redacted_before_they_are_indexed(claude_root: Path, state: str):
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    _session(claude_root, f"push with {secret} please")
    conn = db.connect(state)
    update(conn, claude_root)
    stored = " ".join(r[0] for r in conn.execute("SELECT text FROM texts"))
    assert secret not in stored and "[REDACTED:" in stored
    assert secret.encode() not in Path(db.index_path(state)).read_bytes()


UPDATER = """
import sys
from pathlib import Path
from session_kit.index import db
from session_kit.index.update import update
conn = db.connect(sys.argv[1])
for _ in range(5):
    update(conn, Path(sys.argv[2]))
"""


def _python(code: str, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(Path(db.__file__).parents[2])}
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env)


def test_concurrent_updates_index_each_line_once(claude_root: Path, state: str):
    build(claude_root)
    for i in range(20):
        _session_at(claude_root, i)
    procs = [_python(UPDATER, state, str(claude_root)) for _ in range(3)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    conn = db.connect(state)
    assert conn.execute("SELECT count(*) FROM texts WHERE text LIKE 'manyword%'").fetchone()[0] == 20
    dupes = conn.execute(
        "SELECT count(*) FROM (SELECT file_id, line, kind, text, count(*) c FROM texts GROUP BY 1,2,3,4 HAVING c > 1)"
    )
    assert dupes.fetchone()[0] == 0


def _session_at(root: Path, i: int) -> None:
    t = Transcript(f"1d0e0000-0000-4000-8000-{i:012d}", cwd=f"/work/p{i % 3}")
    t.user(f"manyword {i}")
    t.write_session(root)


def test_a_kill_during_indexing_leaves_a_usable_database(claude_root: Path, state: str):
    for i in range(300):
        t = Transcript(f"1d0e0000-0000-4000-8000-{i:012d}", cwd="/work/proj")
        for j in range(20):
            t.user(f"killword {i} {j} " + "filler text " * 50)
        t.write_session(claude_root)
    proc = _python(UPDATER, state, str(claude_root))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not os.path.exists(db.index_path(state) + "-wal"):
        time.sleep(0.01)
    time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    conn = db.connect(state)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    update(conn, claude_root)
    counted = conn.execute("SELECT count(*) FROM texts WHERE text LIKE 'killword%'").fetchone()[0]
    assert counted == 300 * 20
    hits, total, _ = search_index(conn, "killword")
    assert total == 6000 and len(hits) == 20


def test_a_fifo_named_like_a_transcript_is_never_read(claude_root: Path, state: str):
    _session(claude_root, "fifoword")
    os.mkfifo(claude_root / "projects" / "-work-proj" / "1d0e0000-0000-4000-8000-00000000f1f0.jsonl")
    conn = db.connect(state)
    update(conn, claude_root)  # returns: a FIFO with no writer would block a reader forever
    assert len(_texts(conn, "fifoword")) == 1


def test_the_first_line_of_a_transcript_that_starts_with_a_bom_is_indexed(claude_root: Path, state: str):
    _t, path = _session(claude_root, "bomfirstword", "secondword")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    conn = db.connect(state)
    update(conn, claude_root)
    assert [h[2] for h in _texts(conn, "bomfirstword")] == [1]
    assert len(_texts(conn, "secondword")) == 1


def test_a_file_rewritten_in_place_to_the_same_size_is_indexed_again(claude_root: Path, state: str):
    _t, path = _session(claude_root, "earlyword", "filler " * 1000, "keptword")  # far from the end
    conn = db.connect(state)
    update(conn, claude_root)
    data = path.read_bytes()
    with path.open("r+b") as f:  # same size, same inode, the same end
        f.write(data.replace(b"earlyword", b"laterword"))
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert update(conn, claude_root).reindexed == 1
    assert _texts(conn, "earlyword") == [] and len(_texts(conn, "laterword")) == 1


def test_a_file_whose_first_line_was_rewritten_is_indexed_again(claude_root: Path, state: str):
    """The client drops a large file's history before its compaction: the file that remains
    starts with another line, and may have grown past the old end meanwhile."""
    _t, path = _session(claude_root, "droppedword", "filler " * 1000, "keptword")
    conn = db.connect(state)
    update(conn, claude_root)
    old = path.read_bytes()
    first, rest = old.split(b"\n", 1)
    more = Transcript(SID, cwd="/work/proj")
    more.user("grownword")
    with path.open("r+b") as f:  # same inode, the old end where it was, and grown past it
        f.write(first.replace(b"droppedword", b"summaryword") + b"\n" + rest + more.text().encode())
    assert update(conn, claude_root).reindexed == 1
    assert _texts(conn, "droppedword") == [] and len(_texts(conn, "summaryword")) == 1
    assert len(_texts(conn, "keptword")) == 1 and len(_texts(conn, "grownword")) == 1

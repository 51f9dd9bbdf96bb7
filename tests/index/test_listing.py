"""What `sessions` remembers of each file in the index: a second listing opens only the files
that changed, and says exactly what a listing that reads every file says."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from session_kit.index.db import index_path
from session_kit.index.listing import ListingMemory
from session_kit.index.listing import latest_first as remembering_listing
from session_kit.redaction.engine import showing_secrets
from session_kit.sessions.listing import MEMORY_FROM, latest_first
from tests.support import dialects
from tests.support.audit import opened
from tests.support.sessions import build, build_leaky
from tests.support.transcripts import Transcript

REAL = Path(__file__).parent.parent / "fixtures" / "real" / "projects"
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape


def _rows(listing) -> list[dict]:
    return [{**row.as_dict(), "shown": row.shown} for row in listing]


def _titled(root: Path) -> None:
    """Sessions named by each title rule, one written at another UTC offset, one with no time."""
    renamed = Transcript("7171e000-0000-0000-0000-000000000001", cwd="/work/titles")
    renamed.user("Name this one")
    renamed.say("Named.")
    renamed.raw({"type": "ai-title", "aiTitle": "A generated title", "sessionId": renamed.session_id})
    renamed.raw({"type": "custom-title", "customTitle": "Renamed by hand", "sessionId": renamed.session_id})
    renamed.write_session(root)
    generated = Transcript("7171e000-0000-0000-0000-000000000002", cwd="/work/titles")
    generated.user("Generate a title")
    generated.say("Done." * 3000)  # the title line past the head
    generated.raw({"type": "ai-title", "aiTitle": "Only generated", "sessionId": generated.session_id})
    generated.write_session(root)
    summed = Transcript("7171e000-0000-0000-0000-000000000003", cwd="/work/titles")
    first = summed.user("Summarise me")
    summed.say("Summarised.")
    summed.lines.insert(0, {"type": "summary", "summary": "The summary of this one", "leafUuid": first["uuid"]})
    summed.write_session(root)
    offset = Transcript(
        "7171e000-0000-0000-0000-000000000004",
        cwd="/work/titles",
        start=datetime(2026, 11, 2, 9, 0, tzinfo=timezone(timedelta(hours=2))),
    )
    offset.user("Written two hours east")
    offset.say("Noted.")
    path = offset.write_session(root)
    path.write_text(path.read_text().replace('Z"', '+02:00"'))
    timeless = root / "projects" / "-work-titles" / "7171e000-0000-0000-0000-000000000005.jsonl"
    timeless.write_text('{"type":"summary","summary":"no times here","leafUuid":"x"}\n')


@pytest.fixture
def every_dialect(claude_root: Path, tmp_path: Path) -> Path:
    dialects.every_dialect(claude_root, tmp_path / "elsewhere")
    build(claude_root)
    build_leaky(claude_root)
    _titled(claude_root)
    shutil.copytree(REAL, claude_root / "projects", dirs_exist_ok=True)
    return claude_root


def _listing(root: Path, state: Path | None):
    memory = ListingMemory(str(state), root) if state is not None else None
    return latest_first(root, all_projects=True, memory=memory, memory_from=0)


def test_a_listing_from_memory_says_what_reading_every_file_says_in_every_dialect(every_dialect: Path, tmp_path):
    read = _rows(_listing(every_dialect, None))
    first = _rows(_listing(every_dialect, tmp_path / "state"))
    again = _rows(_listing(every_dialect, tmp_path / "state"))
    assert len(read) >= 12 and any(r["end"] is None for r in read)
    assert {"Renamed by hand", "Only generated", "The summary of this one"} <= {r["title"] for r in read}
    assert first == read and again == read


def test_a_second_listing_opens_only_the_files_that_changed(every_dialect: Path, tmp_path):
    state = tmp_path / "state"
    rows = _rows(_listing(every_dialect, state))
    changed = Path(rows[-3]["path"])
    with changed.open("a") as f:
        f.write(json.dumps({"type": "user", "message": {"role": "user", "content": "one more"}}) + "\n")
    with opened() as seen:
        again = _rows(_listing(every_dialect, state))
    # (agent logs are counted each time: `store.AgentLogs`)
    transcripts = {p for p in seen if p.endswith(".jsonl") and not os.path.basename(p).startswith("agent-")}
    assert transcripts == {str(changed)}
    assert again == _rows(_listing(every_dialect, None))


def test_a_file_rewritten_at_its_size_with_its_mtime_set_back_is_read_again(claude_root: Path, tmp_path):
    t = Transcript("5a5e0000-0000-0000-0000-000000000001")
    t.user("Before the rewrite")
    t.say("ok")
    path = t.write_session(claude_root)
    state = tmp_path / "state"
    assert _rows(_listing(claude_root, state))[0]["first_prompt"] == "Before the rewrite"
    before = path.stat()
    path.write_text(path.read_text().replace("Before the rewrite", "Changed in place!!"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns - 10**9))
    assert path.stat().st_size == before.st_size
    assert _rows(_listing(claude_root, state))[0]["first_prompt"] == "Changed in place!!"


def test_rows_made_by_other_rules_are_read_again(claude_root: Path, tmp_path):
    t = Transcript("5a5e0000-0000-0000-0000-000000000002")
    t.user("Under the old rules")
    t.say("ok")
    t.write_session(claude_root)
    state = tmp_path / "state"
    _listing(claude_root, state).__iter__().__next__()
    with sqlite3.connect(index_path(str(state), claude_root)) as conn:
        conn.execute("UPDATE listing SET prompt = 'stale', rules = 'an older kit'")
    assert _rows(_listing(claude_root, state))[0]["first_prompt"] == "Under the old rules"


def test_the_rules_fingerprint_reads_every_redaction_rule_module():
    """A row is made by the redactor's rules: each module the fingerprint names is a file, and
    every module of the rule table is among them, so a change to any rule reads every file again."""
    from session_kit.index import listing

    package = Path(listing.__file__).parent.parent
    assert [name for name in listing.RULE_MODULES if not (package / name).is_file()] == []
    rules = {
        f"redaction/rules/{p.name}" for p in (package / "redaction" / "rules").glob("*.py") if p.stem != "__init__"
    }
    assert rules <= set(listing.RULE_MODULES)


def test_a_damaged_index_leaves_the_listing_to_read_the_files(every_dialect: Path, tmp_path):
    state = tmp_path / "state"
    db = Path(index_path(str(state), every_dialect))
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database, " * 1000)
    assert _rows(_listing(every_dialect, state)) == _rows(_listing(every_dialect, None))
    assert db.read_bytes() == b"not a database, " * 1000  # a listing never sets the index aside


def _many(root: Path, count: int) -> None:
    """`count` small sessions; every tenth asks with a secret in its prompt."""
    for n in range(count):
        t = Transcript(f"{n:08d}-0000-0000-0000-000000000000", cwd=f"/work/p{n % 3}")
        t.tick(n * 60)
        t.user(f"Task {n}" + (f": use the token {SECRET}" if n % 10 == 0 else ""))
        t.say("Done.")
        t.write_session(root)


def test_a_listing_with_secrets_shown_neither_reads_nor_keeps_the_memory(claude_root: Path, tmp_path):
    _many(claude_root, MEMORY_FROM)
    state = str(tmp_path / "state")
    prompts = [r.first_prompt for r in remembering_listing(claude_root, all_projects=True, state_root=state)]
    assert not any(SECRET in p for p in prompts) and sum("token" in p for p in prompts) == MEMORY_FROM // 10
    with showing_secrets():
        shown = [r.first_prompt for r in remembering_listing(claude_root, all_projects=True, state_root=state)]
    assert sum(SECRET in p for p in shown) == MEMORY_FROM // 10
    with sqlite3.connect(index_path(state, claude_root)) as conn:
        assert not conn.execute("SELECT count(*) FROM listing WHERE prompt LIKE ?", (f"%{SECRET}%",)).fetchone()[0]


def test_sessions_lists_alike_from_its_memory_and_from_the_files(claude_root: Path, tmp_path):
    _many(claude_root, MEMORY_FROM)
    _titled(claude_root)
    run = [sys.executable, "-m", "session_kit", "sessions", "--all", "--claude-dir", str(claude_root), "--json"]
    first = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    again = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    elsewhere = {**os.environ, "SESSION_KIT_HOME": str(tmp_path / "another-state")}
    fresh = subprocess.run(run, capture_output=True, text=True, check=True, env=elsewhere).stdout
    assert first == again == fresh
    assert len(json.loads(again)["sessions"]) == MEMORY_FROM + 5 and SECRET not in again
    with sqlite3.connect(index_path(os.environ["SESSION_KIT_HOME"], claude_root)) as conn:
        assert conn.execute("SELECT count(*) FROM listing").fetchone()[0] == MEMORY_FROM + 5


def test_a_listing_from_memory_keeps_to_since_until_and_limit(every_dialect: Path, tmp_path):
    state = tmp_path / "state"
    _rows(_listing(every_dialect, state))
    since = datetime(2026, 11, 1, 9, 0, 30, tzinfo=timezone.utc)
    until = datetime(2026, 11, 2, 0, 0, tzinfo=timezone.utc)
    for scope in ({"since": since}, {"until": until}, {"limit": 3}, {"since": since, "until": until, "limit": 2}):
        memory = ListingMemory(str(state), every_dialect)
        remembered = _rows(latest_first(every_dialect, all_projects=True, memory=memory, memory_from=0, **scope))
        read = _rows(latest_first(every_dialect, all_projects=True, **scope))
        assert remembered == read, scope
    some = _rows(latest_first(every_dialect, all_projects=True, since=since))
    assert 0 < len(some) < len(_rows(_listing(every_dialect, None)))  # `since` leaves some out


def test_a_listing_while_an_index_update_writes_keeps_nothing_and_says_the_same(every_dialect: Path, tmp_path):
    state = tmp_path / "state"
    _rows(_listing(every_dialect, state))  # the index and its table exist
    path = index_path(str(state), every_dialect)
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("DELETE FROM listing")
        conn.execute("BEGIN IMMEDIATE")  # as an update holds it
        try:
            assert _rows(_listing(every_dialect, state)) == _rows(_listing(every_dialect, None))
        finally:
            conn.execute("ROLLBACK")
        assert conn.execute("SELECT count(*) FROM listing").fetchone()[0] == 0

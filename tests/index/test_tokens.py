"""The index's tokens: one rule with `show`, `usage` and `sessions --tokens` (the last line of
each API message wins, across updates too), input defined alike everywhere, rewritten files
and warmup logs, and an index of an older schema made again rather than trusted."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from session_kit.errors import Rebuilt
from session_kit.index import db
from session_kit.index.query import search_index
from session_kit.index.update import update
from tests.support import dialects
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

# How clients 2.1.17-2.1.58 and 1.0.x/2.0.x wrote one streamed response: a line per block,
# each repeating the usage so far; only the last carries the final output count.
GROWING = (36, 400, 996)
# The index's first schema, whose sessions counted each message's first line.
SCHEMA_1 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE files(
    id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, session TEXT, agent TEXT, offset INTEGER NOT NULL,
    size INTEGER NOT NULL, ino INTEGER, mtime REAL, lines INTEGER NOT NULL, last_message TEXT, tail TEXT);
CREATE TABLE sessions(
    id TEXT PRIMARY KEY, project TEXT, cwd TEXT, path TEXT, title TEXT, first_request TEXT, started TEXT,
    ended TEXT, branch TEXT, version TEXT, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0,
    agents INTEGER DEFAULT 0, compactions INTEGER DEFAULT 0);
CREATE TABLE texts(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session TEXT NOT NULL, agent TEXT, line INTEGER,
    ts TEXT, kind TEXT, tool TEXT, status TEXT, text TEXT NOT NULL);
CREATE TABLE calls(
    id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session TEXT NOT NULL, agent TEXT, tool_use_id TEXT,
    tool TEXT, summary TEXT, status TEXT, exit_code INTEGER, error TEXT, started TEXT, duration_s REAL,
    line INTEGER);
CREATE TABLE agents(
    session TEXT NOT NULL, agent_id TEXT NOT NULL, type TEXT, description TEXT, path TEXT,
    PRIMARY KEY(session, agent_id));
"""


def streamed_session(root: Path) -> tuple[Transcript, Path, int]:
    """A session whose one message is written as three lines with growing `output_tokens`;
    returns the byte offset in the middle of that message (after its first line)."""
    t = Transcript()
    t.user("explain the parser")
    lines = t.assistant(*({"type": "text", "text": f"part {n}"} for n in range(len(GROWING))))
    for line, output in zip(lines, GROWING):
        line["message"]["usage"] = {"input_tokens": 7, "output_tokens": output, "cache_read_input_tokens": 1000}
    path = t.write_session(root)
    head = t.text().split("\n")
    middle = len("\n".join(head[:2]).encode()) + 1  # the user line and the message's first line
    return t, path, middle


def exported_sessions(folder: Path) -> dict[str, dict]:
    invoke("export", "--output-dir", str(folder))
    rows = [json.loads(line) for line in (folder / "sessions.jsonl").read_text().splitlines()]
    return {row["id"]: row for row in rows}


def figures(doc: dict) -> tuple[int, int, int, int]:
    return doc["input"], doc["output"], doc["cache_read"], doc["cache_creation"]


def test_export_counts_the_last_line_of_a_message_indexed_in_two_updates(claude_root: Path, tmp_path: Path):
    t, path, middle = streamed_session(claude_root)
    whole = path.read_bytes()
    path.write_bytes(whole[:middle])  # the client has written the message's first line only
    first = exported_sessions(tmp_path / "first")[t.session_id]
    assert first["output_tokens"] == GROWING[0]
    path.write_bytes(whole)  # the rest of the message: its final count REPLACES the first
    row = exported_sessions(tmp_path / "again")[t.session_id]
    show = invoke_json("show", t.session_id)["usage"]["total"]["tokens"]
    usage = invoke_json("usage", "--by", "session")["rows"][0]["tokens"]
    [listed] = invoke_json("sessions", "--all", "--tokens")["sessions"]
    assert row["output_tokens"] == show["output"] == GROWING[-1]
    exported = (row["input_tokens"], row["output_tokens"], row["cache_read_tokens"], row["cache_write_tokens"])
    assert exported == figures(show) == figures(usage) == figures(listed["tokens"])


def test_input_tokens_leave_cache_reads_to_their_own_column(claude_root: Path, tmp_path: Path):
    t, _path, _middle = streamed_session(claude_root)
    row = exported_sessions(tmp_path / "out")[t.session_id]
    assert (row["input_tokens"], row["cache_read_tokens"]) == (7, 1000)


def test_an_index_of_the_older_schema_is_made_again_not_trusted(claude_root: Path, tmp_path: Path):
    t, _path, _middle = streamed_session(claude_root)
    state = str(tmp_path / "state")
    path = db.index_path(state, claude_root)
    Path(path).parent.mkdir(parents=True)
    old = sqlite3.connect(path)
    old.executescript(SCHEMA_1)
    old.execute("INSERT INTO meta VALUES('schema', '1'), ('fts', '0')")
    old.execute("INSERT INTO sessions(id, input_tokens, output_tokens) VALUES(?, 1007, 36)", (t.session_id,))
    old.commit()
    old.close()
    with pytest.warns(Rebuilt, match="another version"):
        conn = db.connect(state, claude_root=claude_root)
    update(conn, claude_root)
    [(output,)] = conn.execute("SELECT output_tokens FROM sessions WHERE id=?", (t.session_id,)).fetchall()
    assert output == GROWING[-1]


def test_a_rewritten_file_leaves_none_of_its_old_messages_in_the_sessions_tokens(claude_root: Path, tmp_path: Path):
    t, path, _middle = streamed_session(claude_root)
    conn = db.connect(str(tmp_path / "state"), claude_root=claude_root)
    update(conn, claude_root)
    again = Transcript(t.session_id)
    again.user("short")
    [line] = again.say("ok")
    line["message"]["usage"] = {"input_tokens": 1, "output_tokens": 7}
    again.write_session(claude_root)  # smaller than before: the client rewrote it
    update(conn, claude_root)
    row = conn.execute("SELECT input_tokens, output_tokens FROM sessions WHERE id=?", (t.session_id,)).fetchone()
    assert row == (1, 7) and path.exists()


def test_warmup_logs_are_billed_but_neither_agents_nor_searched(claude_root: Path, tmp_path: Path):
    built = dialects.legacy_2_0(claude_root)
    conn = db.connect(str(tmp_path / "state"), claude_root=claude_root)
    update(conn, claude_root)
    agents = {row[0] for row in conn.execute("SELECT agent_id FROM agents")}
    assert agents == {built.agent}
    hits, _, _ = search_index(conn, "ready", limit=None)
    assert [h.agent_id for h in hits if h.agent_id in built.warmups] == []
    billed = {row[0] for row in conn.execute("SELECT DISTINCT agent FROM messages WHERE agent IS NOT NULL")}
    assert billed == {built.agent, *built.warmups}
    show = invoke_json("show", str(built.path))["usage"]["total"]["tokens"]
    [(output,)] = conn.execute("SELECT output_tokens FROM sessions WHERE id=?", (built.session.session_id,))
    assert output == show["output"]


def test_the_real_clients_session_is_exported_with_shows_figures(tmp_path: Path):
    real = Path(__file__).resolve().parents[1] / "fixtures" / "real"
    session = "266f5872-b716-4df1-b42b-7ca857a257ae"
    conn = db.connect(str(tmp_path / "state"), claude_root=real)
    update(conn, real)
    row = conn.execute(
        "SELECT input_tokens, output_tokens, cache_read_tokens, cache_write_tokens FROM sessions WHERE id=?", (session,)
    ).fetchone()
    show = invoke_json("show", str(real / "projects" / "-tmp-real-fixture-project" / f"{session}.jsonl"))
    assert row == figures(show["usage"]["total"]["tokens"])

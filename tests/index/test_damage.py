"""The index is a cache: whatever happened to its file, `search` and `export` work. A damaged
index (cut short, garbled, another program's database, a folder or a link in its place, its
full-text table dropped or its rows deleted under it) is moved aside and made again from the
transcripts, said once on stderr; two searches at once on a new or stale index both succeed;
`doctor` says how the index is."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from session_kit.index import db
from tests.support.sessions import build
from tests.support.transcripts import Transcript

EXE = Path(sys.executable).with_name("session-kit")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=120)


def search(word: str = "SENTINEL_FAILURE") -> subprocess.CompletedProcess[str]:
    return run("search", word, "--all", "--json")


def hits(proc: subprocess.CompletedProcess[str]) -> int:
    return json.loads(proc.stdout)["total"]


def _sessions(root: Path, count: int, word: str = "manyword") -> None:
    for i in range(count):
        t = Transcript(f"1d0e0000-0000-4000-8000-{i:012d}", cwd=f"/work/p{i % 3}")
        for j in range(5):
            t.user(f"{word} {i} {j} " + "filler text to make pages " * 20)
            t.say("ok")
        t.write_session(root)


@pytest.fixture
def index(claude_root: Path) -> Path:
    """A Claude root with a session to find, indexed by a first search."""
    build(claude_root)
    _sessions(claude_root, 40)
    first = search()
    assert first.returncode == 0 and hits(first) == 1, first.stderr
    return Path(db.index_path(os.environ["SESSION_KIT_HOME"], claude_root))


def _checkpoint(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _cut(size: Callable[[int], int]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        _checkpoint(path)
        with open(path, "r+b") as f:
            f.truncate(size(path.stat().st_size))

    return damage


def _garble(offset: Callable[[int], int], length: int) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        _checkpoint(path)
        rng = random.Random(26)
        with open(path, "r+b") as f:
            f.seek(offset(path.stat().st_size))
            f.write(bytes(rng.randrange(256) for _ in range(length)))

    return damage


def _replace_with(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        make(path)

    return damage


def _sql(*statements: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        conn = sqlite3.connect(path)
        for statement in statements:
            conn.execute(statement)
        conn.commit()
        conn.close()

    return damage


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes(body) VALUES('another program')")
    conn.commit()
    conn.close()


def _foreign_same_names(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE files(name TEXT)")
    conn.execute("CREATE TABLE texts(body TEXT)")
    conn.commit()
    conn.close()


def _symlink_to_elsewhere(path: Path) -> None:
    elsewhere = path.parent.parent / "elsewhere.sqlite3"
    elsewhere.write_bytes(b"someone else's file")
    path.symlink_to(elsewhere)


def _garbage_wal(path: Path) -> None:
    _checkpoint(path)
    Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(range(256)) * 64)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "emptied": _cut(lambda size: 0),
    "cut-in-half": _cut(lambda size: size // 2),
    "cut-to-one-page": _cut(lambda size: 4096),
    "cut-mid-page": _cut(lambda size: size - 1000),
    "garbled-header": _garble(lambda size: 0, 100),
    "garbled-pages": _garble(lambda size: size // 3, 3 * 4096),
    "not-a-database": _replace_with(lambda path: path.write_text("just some text\n" * 100)),
    "foreign-schema": _replace_with(_foreign),
    "foreign-schema-same-table-names": _replace_with(_foreign_same_names),
    "newer-schema": _sql("UPDATE meta SET value='99' WHERE key='schema'"),
    "folder-in-its-place": _replace_with(lambda path: (path.mkdir(), (path / "x").write_text("x"))),
    "symlink-in-its-place": _replace_with(_symlink_to_elsewhere),
    "dangling-symlink": _replace_with(lambda path: path.symlink_to(path.parent / "nowhere")),
    "fts-table-dropped": _sql("DROP TABLE texts_fts"),
    "rows-deleted-under-fts": _sql("DELETE FROM texts"),
    "fts-index-rows-deleted": _sql("DELETE FROM texts_fts_data WHERE id > 10"),
    "garbage-wal": _garbage_wal,
}


# SQLite itself reads an empty file as a new database, a file cut inside its last page as its
# whole pages, and passes over a WAL file not its own: nothing to rebuild, nothing to say.
UNHARMED = {"emptied", "cut-mid-page", "garbage-wal"}


@pytest.mark.parametrize("kind", list(DAMAGE))
def test_search_works_after_the_index_is_damaged_and_says_so_once(index: Path, kind: str):
    DAMAGE[kind](index)
    after = search()
    assert after.returncode == 0 and hits(after) == 1, (after.returncode, after.stderr)
    notes = after.stderr.splitlines()
    if kind in UNHARMED:
        assert notes == []
    else:
        assert len(notes) == 1 and "rebuilt" in notes[0] and str(index) in notes[0], notes
    again = search()
    assert again.returncode == 0 and hits(again) == 1 and again.stderr == "", again.stderr
    assert index.is_file() and not index.is_symlink()


@pytest.mark.parametrize("kind", ["cut-in-half", "garbled-pages", "folder-in-its-place", "fts-table-dropped"])
def test_export_works_after_the_index_is_damaged(index: Path, kind: str, tmp_path: Path):
    DAMAGE[kind](index)
    proc = run("export", "--output-dir", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    texts = (tmp_path / "out" / "texts.jsonl").read_text()
    assert "SENTINEL_FAILURE" in texts


def test_a_damaged_index_is_moved_aside_and_its_place_named(index: Path):
    DAMAGE["garbled-pages"](index)
    proc = search()
    [note] = proc.stderr.splitlines()
    assert str(index) in note and "rebuilt" in note
    aside = [p for p in index.parent.iterdir() if p.name.startswith(index.name + ".damaged")]
    assert aside and str(aside[0]) in note


def test_a_symlink_in_the_index_place_is_never_written_through(index: Path):
    DAMAGE["symlink-in-its-place"](index)
    elsewhere = index.parent.parent / "elsewhere.sqlite3"
    assert search().returncode == 0
    assert elsewhere.read_bytes() == b"someone else's file"


@pytest.mark.parametrize("stale", [False, True], ids=["new-index", "stale-index"])
def test_two_searches_at_once_both_succeed(claude_root: Path, stale: bool):
    build(claude_root)
    if stale:
        assert search().returncode == 0
    _sessions(claude_root, 60, word="racedword")
    for _ in range(3):
        procs = [
            subprocess.Popen(
                [str(EXE), "search", "racedword", "--all", "--json"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        outs = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0, 0], [err for _, err in outs]
        assert [json.loads(out)["total"] for out, _ in outs] == [300, 300]
        home = os.environ["SESSION_KIT_HOME"]
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db.index_path(home, claude_root)}{suffix}").unlink(missing_ok=True)


def test_doctor_reports_the_index_health(index: Path):
    healthy = json.loads(run("doctor", "--json").stdout)["index"]
    assert healthy["state"] == "ok" and healthy["path"] == str(index)
    DAMAGE["fts-table-dropped"](index)
    damaged = json.loads(run("doctor", "--json").stdout)["index"]
    assert damaged["state"] == "damaged" and "texts_fts" in damaged["problem"]
    assert "index" in run("doctor").stdout


def test_a_search_while_another_update_commits_counts_each_hit_once(claude_root: Path, monkeypatch):
    """The race of two first searches, made to happen every time: this search finds another
    update running (its lock held), so it scans what is not indexed; the other update commits
    every file between this search's look at what is behind and its query of the index."""
    from session_kit.index import query, update
    from session_kit.queries.indexed import search_history
    from session_kit.state.root import state_root

    _sessions(claude_root, 12, word="racedword")
    home = state_root()
    other = db.connect(home, claude_root=claude_root)
    held = db.writer(other, timeout=0)
    held.__enter__()
    real = query.search_index

    def after_the_other_commits(conn, *args, **kwargs):
        update._update(other, claude_root, None, None, home, True)  # the other update, to the end
        return real(conn, *args, **kwargs)

    monkeypatch.setattr(query, "search_index", after_the_other_commits)
    try:
        found = search_history("racedword", claude_root, home, limit=None)
    finally:
        held.__exit__()
        other.close()
    assert found.total == 60 and found.scanned_files == 12


@pytest.mark.parametrize("writing", [False, True], ids=["intact", "while-another-update-writes"])
def test_malformed_seen_on_a_sound_index_is_read_again_never_set_aside(index: Path, monkeypatch, writing: bool):
    """A reader that sees "malformed" on an index `PRAGMA integrity_check` finds whole, or
    while another process holds the update lock, reads again: nothing is moved or rebuilt."""
    import threading

    from session_kit.state.root import locked

    tries = []

    def work(conn: sqlite3.Connection) -> int:
        tries.append(1)
        if len(tries) == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return conn.execute("SELECT count(*) FROM files").fetchone()[0]

    held = locked(str(index) + ".update", timeout=0)
    if writing:
        held.__enter__()
        threading.Timer(0.3, held.__exit__).start()
    files = db.use(os.environ["SESSION_KIT_HOME"], work, claude_root=os.environ["CLAUDE_CONFIG_DIR"])
    assert files > 0 and len(tries) == 2
    assert not [p for p in index.parent.iterdir() if ".damaged" in p.name]

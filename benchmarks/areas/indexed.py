"""Indexed search on 4,000 sessions of ~150 KB (~680 MB; `--quick`: 1,000): the index build,
the first search (no wait for the build), warm searches with and without the hooks' journal,
and a search after the hooks saw a session gain a line.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import BUILD_INDEX, build_index, count_json
from benchmarks.harness.measure import Command, Measurement
from benchmarks.harness.report import Row

SESSIONS, QUICK_SESSIONS, SESSION_KB = 4_000, 1_000, 150


def _index_file(state: Path) -> Path:
    [found] = (state / "index").glob("history-*.sqlite3")
    return found


def _wait_for_build(state: Path) -> None:
    """Until the build a first search started has ended (its child holds the update lock)."""
    [lock] = (state / "index").glob("*.update.lock")
    with open(lock, "a") as f:
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:  # the child takes the lock a moment after the search
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                break
            fcntl.flock(f, fcntl.LOCK_UN)
            time.sleep(0.02)
        fcntl.flock(f, fcntl.LOCK_EX)


def _timed(argv: list[str]) -> tuple[float, bytes]:
    began = time.perf_counter()
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True).stdout
    return time.perf_counter() - began, out


def _measurement(label: str, argv: list[str], seconds: list[float], out: bytes) -> Measurement:
    return Measurement(label, tuple(argv), tuple(seconds), tuple(0 for _ in seconds), 0, len(out), count_json(out))


@benchmark("indexed")
def bench_indexed(ctx: Context) -> list[Row]:
    """The index (issue 30) on 4,000 sessions of ~150 KB. The build itself (the update a first
    search starts in the background) against one `search --scan` of the same files (at most
    3x); the first search on an empty index, answered by a scan while the build starts (at most
    1.5x the scan); warm searches with the hooks' journal (rare word at most 0.1x `grep -ric
    -r`, common at most 0.2x) and without it (every file's stat, for the record); after the
    Stop hook saw a session gain a line and its child indexed it, a search (at most 1.2x the
    warm one)."""
    sessions = QUICK_SESSIONS if ctx.scale.sessions < SESSIONS else SESSIONS
    root, manifest = ctx.root(f"indexed-s{sessions}-kb{SESSION_KB}", sessions=sessions, session_kb=SESSION_KB)
    rare = manifest.get("rare_query", generator.RARE_QUERY)
    common = manifest.get("common_query", generator.COMMON_QUERY)
    mb = manifest.get("total_bytes", 0) / 1e6
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-indexed-") as tmp:
        state = Path(tmp) / "state"
        kit = ["env", f"SESSION_KIT_HOME={state}", *ctx.kit]
        search = [*kit, "search", rare, "--all", "--claude-dir", str(root), "--json"]
        scan_cmd = Command.of(f"search --scan {rare}", [*kit, "search", rare, "--all", "--scan", "--claude-dir", root])
        build_cmd = Command.of(
            "index build (the update itself)",
            ["sh", "-c", f'rm -rf {state}/index && exec "$@"', "sh", sys.executable, "-c", BUILD_INDEX, state, root],
        )
        scan, build = ctx.measure(scan_cmd, build_cmd, slow=True)
        rows.append(
            Row.ratio_row("indexed", f"index build, {sessions} sessions ({mb:.0f} MB)", build, scan, max_ratio=3)
        )
        # The first search: timed to its answer; the build it starts is waited for, untimed.
        firsts, scans, out = [], [], b""
        for _ in range(ctx.scale.slow_repeat):
            scans.append(_timed(list(scan_cmd.argv))[0])
            shutil.rmtree(state / "index", ignore_errors=True)
            took, out = _timed(search)
            firsts.append(took)
            _wait_for_build(state)
        first = _measurement("first search (empty index)", search, firsts, out)
        rows.append(
            Row.ratio_row(
                "indexed",
                "first search, empty index (no wait for the build)",
                first,
                _base(scan_cmd, scans),
                max_ratio=1.5,
            )
        )
        # Warm: every file's stat (no hook has written a journal), then with the journal.
        build_index(state, root)
        for query, what, limit in ((rare, "rare", 0.1), (common, "common", 0.2)):
            grep_cmd = Command.of(
                f"grep -ric -r {query}", ["grep", "-ric", "-r", query, "projects/"], cwd=root, ok_codes=(0, 1)
            )
            argv = [*kit, "search", query, "--all", "--claude-dir", root, "--json"]
            journal = Path(str(_index_file(state)) + ".journal")
            journal.unlink(missing_ok=True)
            grep, stat_all = ctx.measure(grep_cmd, Command.of(f"search {query} (no journal)", argv, inspect=count_json))
            rows.append(Row.ratio_row("indexed", f"warm, {what} word, no hooks (a stat per file)", stat_all, grep))
            journal.touch(mode=0o600)  # as the hooks leave it
            grep, warm = ctx.measure(grep_cmd, Command.of(f"search {query} (warm)", argv, inspect=count_json))
            rows.append(Row.ratio_row("indexed", f"indexed search, warm, {what} word", warm, grep, max_ratio=limit))
            if what == "rare":
                rows.append(_after_a_line(ctx, state, root, argv, warm))
    return rows


def _base(command: Command, seconds: list[float]) -> Measurement:
    return Measurement(command.label, command.argv, tuple(seconds), tuple(0 for _ in seconds), 0, 0)


def _after_a_line(ctx: Context, state: Path, root: Path, argv: list[str], warm: Measurement) -> Row:
    """A line appended to a session, the Stop hook run on it (its child indexes the line,
    waited for, untimed), then the search timed; against the warm search."""
    import session_kit

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    transcript = next((root / "projects").glob("*/*.jsonl"))
    original = transcript.read_bytes()  # put back after: the generated root stays as generated
    env = {**os.environ, "SESSION_KIT_HOME": str(state)}
    db = _index_file(state)
    seconds: list[float] = []
    out = b""
    try:
        for n in range(ctx.scale.repeat):
            line = {"type": "user", "sessionId": transcript.stem, "message": {"role": "user", "content": f"line {n}"}}
            with transcript.open("ab") as f:
                f.write(json.dumps(line).encode() + b"\n")
            event = {"session_id": transcript.stem, "transcript_path": str(transcript), "hook_event_name": "Stop"}
            subprocess.run(
                [sys.executable, "-I", "-S", run_py, "stop"], input=json.dumps(event).encode(), env=env, check=True
            )
            size = transcript.stat().st_size
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with sqlite3.connect(db) as conn:
                    row = conn.execute("SELECT size FROM files WHERE path=?", (str(transcript),)).fetchone()
                if row and row[0] == size:
                    break
                time.sleep(0.02)
            took, out = _timed([str(a) for a in argv])
            seconds.append(took)
    finally:
        transcript.write_bytes(original)
    m = _measurement("search after the Stop hook indexed a new line", [str(a) for a in argv], seconds, out)
    return Row.ratio_row("indexed", "search after the hooks saw a session gain a line", m, warm, max_ratio=1.2)

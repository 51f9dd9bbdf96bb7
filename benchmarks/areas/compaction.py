"""Compaction: the working memory's hooks on the big session (the first capture, a capture
after 1 MB more, putting the memory back after a compaction).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import HOOK_EVENT, JSON_LINES, MB, big_session, hook_environment
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

# Runs a hook (argv[2:], stdin passed through), then waits for the memory's lock (argv[1]):
# the time until the capture the hook handed to a child process is saved.
HOOK_THEN_LOCK = (
    "import fcntl, os, subprocess, sys\n"
    "subprocess.run(sys.argv[2:], check=True)\n"
    "fd = os.open(sys.argv[1] + '.lock', os.O_RDWR | os.O_CREAT, 0o600)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
)


# The first capture as the client sees it: PreCompact (argv[3:], stdin passed through), the
# wait for the capture it handed to a child process (the memory's lock, argv[1]), then
# SessionStart putting the memory back (its input read from the file argv[2]).
PRE_THEN_START = (
    "import fcntl, os, subprocess, sys\n"
    "subprocess.run([*sys.argv[3:], 'pre-compact'], check=True)\n"
    "fd = os.open(sys.argv[1] + '.lock', os.O_RDWR | os.O_CREAT, 0o600)\n"
    "fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "os.close(fd)\n"
    "with open(sys.argv[2], 'rb') as start:\n"
    "    subprocess.run([*sys.argv[3:], 'session-start'], stdin=start, stdout=subprocess.DEVNULL, check=True)\n"
)


# The baseline the hooks are held to: the interpreter as the hook runs it, doing nothing.
PASS = (sys.executable, "-I", "-S", "-c", "pass")


def _run_hook(run_py: Path, event: str, payload: dict) -> None:
    subprocess.run(
        [sys.executable, "-I", "-S", str(run_py), event], input=json.dumps(payload).encode(), check=True, timeout=600
    )


@benchmark("compaction")
def bench_compaction(ctx: Context) -> list[Row]:
    """The working memory's hooks on the big session. PreCompact's first capture (no memory
    yet) against json.loads of every line of the same file: at most 1x; the whole first
    capture as the client waits for it (PreCompact, the capture it hands over, SessionStart
    putting the block back) against the same: at most 2x. PreCompact after 1 MB
    was appended since the last capture (at most 2x), and SessionStart putting the memory back
    after a compaction (at most 3x: it reads the memory and fits the block), against
    `python -I -S -c pass` given the same stdin and the same shell wrapper (which resets the
    memory file before each run). The hook hands the capture to
    a child process and returns; the rows "capture finished" time the hook and then the wait
    for that child's lock (what the next SessionStart waits for at most), for the record."""
    import session_kit

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    _, big, _, mb = big_session(ctx)
    with tempfile.TemporaryDirectory() as tmp, hook_environment(Path(tmp)):
        work = Path(tmp)
        # The big session as it was 1 MB before its end (cut at a line), captured; then the last
        # MB appended to the same file, as the client appends (another file, another inode, is
        # a transcript the memory has not read: it would be read whole).
        data = big.read_bytes()
        cut = data.rfind(b"\n", 0, len(data) - MB) + 1
        whole = work / "session.jsonl"
        whole.write_bytes(data[:cut])
        sid = "bench-compaction"
        event = {**HOOK_EVENT, "session_id": sid, "hook_event_name": "PreCompact", "trigger": "auto"}
        _run_hook(run_py, "pre-compact", {**event, "transcript_path": str(whole)})
        subprocess.run(
            [
                sys.executable,
                "-c",
                HOOK_THEN_LOCK,
                str(next((work / "state").glob(f"projects/*/sessions/{sid}")) / "memory.json"),
                "true",
            ],
            check=True,
        )
        (memory_file,) = (work / "state").glob(f"projects/*/sessions/{sid}/memory.json")
        appended_state = work / "memory-1mb-before.json"
        appended_state.write_bytes(memory_file.read_bytes())  # the memory as captured 1 MB before
        with whole.open("ab") as grown:
            grown.write(data[cut:])
        del data
        pre = json.dumps({**event, "transcript_path": str(whole)}).encode()
        start = json.dumps({**HOOK_EVENT, "session_id": sid, "source": "compact"}).encode()
        fresh = f"rm -f '{memory_file}'; exec \"$@\""
        resume = f"cp '{appended_state}' '{memory_file}'; exec \"$@\""

        def wrapped(label: str, script: str, argv: list, stdin: bytes) -> Command:
            return Command.of(label, ["sh", "-c", script, "sh", *argv], stdin=stdin)

        hook = [sys.executable, "-I", "-S", run_py]
        # The hook, then the wait for the capture it left running (the memory's lock).
        finished = [sys.executable, "-c", HOOK_THEN_LOCK, str(memory_file), *map(str, hook), "pre-compact"]
        start_file = work / "session-start.json"
        start_file.write_bytes(json.dumps({**HOOK_EVENT, "session_id": sid, "source": "compact"}).encode())
        both = [sys.executable, "-c", PRE_THEN_START, str(memory_file), str(start_file), *map(str, hook)]
        first, done_first, whole_first, lines = ctx.measure(
            wrapped("hook pre-compact, first capture", fresh, [*hook, "pre-compact"], pre),
            wrapped("  capture finished", fresh, finished, pre),
            wrapped("  pre-compact, capture finished, session-start", fresh, both, pre),
            wrapped("json.loads every line (same file)", fresh, [sys.executable, "-c", JSON_LINES, whole], b""),
            slow=True,
        )
        root, _, big_id, _ = big_session(ctx)
        [cli] = ctx.measure(
            wrapped(
                "session-kit memory <big> --json (first capture)",
                f"rm -rf '{work / 'state' / 'projects'}'/*/sessions/{big_id}; exec \"$@\"",
                [*ctx.kit, "memory", big_id, "--claude-dir", root, "--json"],
                b"",
            ),
            slow=True,
        )
        later, done_later, base_later, restored, base = ctx.measure(
            wrapped("hook pre-compact, 1 MB appended", resume, [*hook, "pre-compact"], pre),
            wrapped("  capture finished", resume, finished, pre),
            wrapped("python -I -S -c pass (same stdin, same wrapper)", resume, [*PASS], pre),
            Command.of("hook session-start (compact)", [*hook, "session-start"], stdin=start),
            Command.of("python -I -S -c pass (same stdin)", [*PASS], stdin=start),
        )
        _run_hook(run_py, "pre-compact", {**event, "transcript_path": str(whole)})
        subprocess.run([sys.executable, "-c", HOOK_THEN_LOCK, str(memory_file), "true"], check=True)
        shown = subprocess.run([*map(str, hook), "session-start"], input=start, capture_output=True, check=True).stdout
        size = len(json.loads(shown)["hookSpecificOutput"]["additionalContext"]) if shown.strip() else 0
    return [
        Row.ratio_row("compaction", f"pre-compact, first capture ({mb:.0f} MB session)", first, lines, max_ratio=1),
        Row.ratio_row("compaction", "  capture finished (hook, then wait for its child)", done_first, lines, note="-"),
        Row.ratio_row(
            "compaction",
            "first capture and restore (pre-compact, its capture, session-start)",
            whole_first,
            lines,
            max_ratio=2,
        ),
        Row.ratio_row("compaction", "  session-kit memory <big> (same capture, in the command)", cli, lines, note="-"),
        Row.memory_row("compaction", "  same, peak RSS", cli, ctx.python_pass(), max_mb=64, note="-"),
        Row.ratio_row(
            "compaction", "pre-compact, 1 MB appended since the last capture", later, base_later, max_ratio=2
        ),
        Row.ratio_row(
            "compaction", "  capture finished (hook, then wait for its child)", done_later, base_later, note="-"
        ),
        Row.ratio_row(
            "compaction",
            "session-start after a compaction (restore)",
            restored,
            base,
            max_ratio=3,
            note=f"{size} characters put back",
        ),
    ]

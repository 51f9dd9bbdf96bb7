"""Usage: `usage` over the whole root once its index exists and with no index yet (a first
run: each file read for its usage alone), and the status-line script on a session it has
counted once.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import MB, big_session, state_root
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


@benchmark("usage")
def bench_usage(ctx: Context) -> list[Row]:
    """`usage --json` over the whole root once its index exists (the first run builds it, in a
    throw-away state root) against `sessions --all --json`: at most 1.5x; and a first run,
    with no index (each round in a state root just emptied): at most 3x."""
    root, manifest = ctx.main_root()
    n = manifest.get("sessions", 0) + (1 if manifest.get("big_session_id") else 0)
    with tempfile.TemporaryDirectory() as tmp, state_root(Path(tmp) / "state"):
        built = subprocess.run([*ctx.kit, "usage", "--claude-dir", root, "--json"], capture_output=True)
        if built.returncode != 0:
            ctx.log(f"  usage failed: {built.stderr.decode(errors='replace')[-300:]}")
        cold_state = Path(tmp) / "cold"  # emptied before every run: the index is never there
        first = ["sh", "-c", 'rm -rf "$0" && SESSION_KIT_HOME="$0" exec "$@"', cold_state]
        listing, usage, cold = ctx.measure(
            Command.of("sessions --all", [*ctx.kit, "sessions", "--all", "--claude-dir", root, "--json"]),
            Command.of(
                "usage (index)",
                [*ctx.kit, "usage", "--claude-dir", root, "--json", "--by", "day"],
                inspect=lambda d: f"{len(json.loads(d)['rows'])} rows",
            ),
            Command.of(
                "usage (no index)",
                [*first, *ctx.kit, "usage", "--claude-dir", root, "--json", "--by", "day"],
                inspect=lambda d: f"{json.loads(d)['files_read']:,} files read",
            ),
        )
    return [
        Row.ratio_row("usage", f"usage --json, index built ({n:,} sessions)", usage, listing, max_ratio=1.5),
        Row.ratio_row(
            "usage",
            f"  first run, no index: every file read for its usage alone ({(manifest.get('total_bytes') or 0) / 1e6:.0f} MB)",
            cold,
            listing,
            max_ratio=3.0,
        ),
    ]


STATUSLINE_MB = 10


@benchmark("statusline")
def bench_statusline(ctx: Context) -> list[Row]:
    """The status-line script on a 10 MB session (the first 10 MB of the big session, in a
    throw-away root) once it has counted the file, against `python -I -S -c pass` with the
    same stdin: at most 2x. Each run re-reads its remembered offset and the session's agents."""
    import session_kit

    script = Path(session_kit.__file__).parent / "usage" / "statusline_main.py"
    _, big, sid, _ = big_session(ctx)
    with tempfile.TemporaryDirectory() as tmp, state_root(Path(tmp) / "state"):
        session = Path(tmp) / "projects" / "-bench" / f"{sid}.jsonl"
        session.parent.mkdir(parents=True)
        with open(big, "rb") as f:
            head = f.read(STATUSLINE_MB * MB)
        session.write_bytes(head[: head.rfind(b"\n") + 1])
        stdin = json.dumps({"session_id": sid, "transcript_path": str(session), "cwd": "/bench"}).encode()
        started = time.monotonic()
        subprocess.run([sys.executable, "-I", "-S", script], input=stdin, capture_output=True)
        first_s = time.monotonic() - started
        base, line = ctx.measure(
            Command.of("python -I -S -c pass (same stdin)", [sys.executable, "-I", "-S", "-c", "pass"], stdin=stdin),
            Command.of(
                "statusline (counted)",
                [sys.executable, "-I", "-S", script],
                stdin=stdin,
                inspect=lambda d: d.decode(errors="replace").strip(),
            ),
        )
    return [
        Row.ratio_row(
            "statusline", f"statusline, {STATUSLINE_MB} MB session, offset remembered", line, base, max_ratio=2
        ),
        Row("statusline", "  first run: counting the whole file", first_s, "s", note="once"),
    ]

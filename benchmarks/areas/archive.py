"""The archive on 4,000 sessions: time and size of a first run and of a run with nothing new,
against `cat | gzip -1` of the same files.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import MB
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

SESSIONS = 4_000
QUICK_SESSIONS = 1_000
# Every file the archive keeps: sessions' folders (agent logs, meta files, tool results) and plans.
EVERY_FILE = "find projects plans -type f 2>/dev/null | sort | xargs cat | gzip -1"


def _dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@benchmark("archive")
def bench_archive(ctx: Context) -> list[Row]:
    """`session-kit archive` over a root of 4,000 sessions (1,000 with `--quick`), into a
    throw-away state root: the first run (everything copied) against `cat | gzip -1` of the
    same files (at most 2x); a second run with nothing new against the same baseline (at most
    0.25x) and against `find` of the same files (at most 3x: a stat per file, the manifests
    answered by the catalogue); the archive's size against the gzip output's
    (at most 1.2: a manifest per file and a gzip member per copy cost a little)."""
    sessions = QUICK_SESSIONS if ctx.scale.sessions < 4_000 else SESSIONS
    root, _manifest = ctx.root(f"archive-s{sessions}", sessions=sessions, big_mb=0.0)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-archive-") as tmp:
        state = Path(tmp) / "state"
        kit = ["env", f"SESSION_KIT_HOME={state}", *ctx.kit]
        archive = [*kit, "archive", "--claude-dir", root]
        gz_out = Path(tmp) / "all.gz"
        gz, first = ctx.measure(
            Command.of("cat | gzip -1 (every file)", ["sh", "-c", f"{EVERY_FILE} > {gz_out}"], cwd=root),
            Command.of("archive (first run)", ["sh", "-c", f'rm -rf {state}/archive && exec "$@"', "sh", *archive]),
            slow=True,
        )
        rows.append(Row.ratio_row("archive", f"archive, first run, {sessions} sessions", first, gz, max_ratio=2.0))
        subprocess.run(archive, check=True, capture_output=True)
        find, again, version = ctx.measure(
            Command.of(
                "find projects plans -type f",
                ["sh", "-c", "find projects plans -type f 2>/dev/null; true"],
                cwd=root,
                inspect=lambda d: f"{len(d.splitlines())} files",
            ),
            Command.of("archive (nothing new)", archive),
            Command.of("session-kit --version", [*ctx.kit, "--version"]),
        )
        rows.append(Row.ratio_row("archive", f"archive, unchanged run, {sessions} sessions", again, gz, max_ratio=0.25))
        rows.append(Row.ratio_row("archive", "  same, against find of the same files", again, find, max_ratio=3.0))
        rows.append(
            Row.ratio_row(
                "archive", "  session-kit --version (start-up) against the same find", version, find, note="-"
            )
        )
        archived = _dir_bytes(state / "archive")
        subprocess.run(["sh", "-c", f"{EVERY_FILE} > {gz_out}"], cwd=root, check=True)
        gz_bytes = gz_out.stat().st_size
        ratio = archived / gz_bytes if gz_bytes else None
        rows.append(
            Row(
                "archive",
                "archive size / cat | gzip -1 size",
                archived / MB,
                "MB",
                "gzip -1",
                gz_bytes / MB,
                ratio,
                "ratio <= 1.2",
                Row._status(ratio is not None and ratio <= 1.2),
            )  # fmt: skip
        )
    return rows

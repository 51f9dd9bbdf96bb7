"""History: the index and the archive on the main root (index size, archive, and the work
after 1 MB is appended; the index's build and searches are `indexed`'s).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import MB, build_index
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

# Appends about 1 MB of conversation lines naming a fresh word (argv[2]) to a session (argv[1]).
APPEND_MB = (
    "import json, sys, uuid\n"
    "word = sys.argv[2]\n"
    "line = json.dumps({'type': 'user', 'uuid': str(uuid.uuid4()), 'timestamp': '2026-11-20T10:00:00Z',"
    " 'message': {'role': 'user', 'content': word + ' ' + 'lorem ipsum dolor sit amet ' * 40}}) + '\\n'\n"
    "with open(sys.argv[1], 'a') as f:\n"
    "    f.write(line * (1024 * 1024 // len(line)))\n"
)


def _linked_copy(root: Path, into: Path) -> Path:
    """A copy of `root` made of hard links (seconds, no bytes), for benchmarks that append."""
    subprocess.run(["cp", "-al", str(root), str(into)], check=True)
    return into


def _unlinked(path: Path) -> None:
    """Give `path` its own bytes, so appending to it never touches the shared root."""
    tmp = path.with_name(path.name + ".own")
    shutil.copyfile(path, tmp)
    os.replace(tmp, path)


def _dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


@benchmark("history")
def bench_history(ctx: Context) -> list[Row]:
    """The index and the archive (issue 12) on the main root, into a throw-away state root
    (the index's build and warm searches are timed in `indexed`). Archive from nothing
    against `cat | gzip -1` of the same files (at most 2x); index update plus query after 1 MB
    was appended to one session (under 100 ms is the target; the command's start is in it);
    archive update after 1 MB appended to the big session against gzip -1 of that 1 MB; index
    size against the transcripts' bytes (at most 0.3)."""
    root, manifest = ctx.main_root()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-history-") as tmp:
        state = Path(tmp) / "state"
        env = {"SESSION_KIT_HOME": str(state)}
        kit = ["env", *(f"{k}={v}" for k, v in env.items()), *ctx.kit]
        build_index(state, root)  # timed in `indexed`, with the searches
        index_bytes = _dir_bytes(state / "index")
        text_bytes = manifest.get("total_bytes") or _dir_bytes(root / "projects")
        ratio = index_bytes / text_bytes if text_bytes else None
        rows.append(
            Row(
                "history",
                "index size / transcript bytes",
                index_bytes / MB,
                "MB",
                "transcripts",
                text_bytes / MB,
                ratio,
                "ratio <= 0.3",
                Row._status(ratio is not None and ratio <= 0.3),
            )  # fmt: skip
        )
        files = "find projects -name '*.jsonl' -o -name '*.meta.json' | xargs cat | gzip -1 > /dev/null"
        gz, archived = ctx.measure(
            Command.of("cat | gzip -1", ["sh", "-c", files], cwd=root),
            Command.of(
                "archive (from nothing)",
                ["sh", "-c", f'rm -rf {state}/archive && exec "$@"', "sh", *kit, "archive", "--claude-dir", root],
            ),
            slow=True,
        )
        rows.append(Row.ratio_row("history", "archive from nothing", archived, gz, max_ratio=2.0))
        # Appends: into a hard-linked copy whose appended files got their own bytes first.
        copy = _linked_copy(root, Path(tmp) / "root")
        big = copy / manifest["big_session_path"]
        _unlinked(big)
        build_index(state, copy)
        one_mb = Path(tmp) / "one-mb"
        one_mb.write_bytes(b"lorem ipsum dolor sit amet " * 40000)

        def appended(label: str, *then: str) -> Command:
            script = f'{sys.executable} -c "$0" {big} appendword && exec "$@"'
            return Command.of(label, ["sh", "-c", script, APPEND_MB, *then])

        session_archive = (
            "import sys\n"
            "from session_kit.archive.background import archive_session_now\n"
            "archive_session_now(sys.argv[1], sys.argv[2], sys.argv[3])\n"
        )
        hook_work = [sys.executable, "-c", session_archive, str(state), str(copy), str(big)]
        subprocess.run(hook_work, check=True, capture_output=True)  # archived once, whole
        base_gz, archive_update, index_update = ctx.measure(
            Command.of("gzip -1 of 1 MB", ["sh", "-c", f"gzip -1 < {one_mb} > /dev/null"]),
            appended("archive of the session after 1 MB appended (the hooks' work)", *hook_work),
            appended(
                "index update + query after 1 MB",
                *kit,
                "search",
                "appendword",
                "--all",
                "--claude-dir",
                str(copy),
                "--json",
            ),
        )
        rows.append(
            Row.ratio_row(
                "history",
                f"archive of a {big.stat().st_size / MB:.0f} MB session after 1 MB appended (append, start included)",
                archive_update,
                base_gz,
            )
        )
        rows.append(
            Row.ratio_row(
                "history",
                "index update + query after 1 MB appended (append and CLI start included)",
                index_update,
                ctx.python_pass(),
                max_seconds=0.1,
            )
        )
    return rows

"""Start-up: every read command on one small session, where start-up is nearly all the time."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import small_root, state_root
from benchmarks.harness.measure import Command, Measurement
from benchmarks.harness.report import Row

# The commands whose start-up has a target (issue: a small session's show, info, memory,
# sessions and preprocess at most `import click` + 1x `python -c pass`).
TARGETED = {"show", "info", "memory", "sessions --all", "preprocess --stdout"}


@benchmark("startup")
def bench_startup(ctx: Context) -> list[Row]:
    """Every read command on one small session (a throw-away root: a generated 28 KB
    transcript and its 8 KB subagent log), where start-up is nearly all of the time, against
    `python -c pass` in the same rounds: show, info, memory, sessions and preprocess at most
    click's import plus one `python -c pass` (both measured in these rounds). For reference, in the same rounds:
    `session-kit --version` (the command line alone) and `python -c 'import click'` (the floor
    of any command click parses); each command's note splits its ratio into the command
    line's fixed part (`--version`: click and the group) and the command's own."""
    with tempfile.TemporaryDirectory(prefix="kit-startup-") as tmp, state_root(Path(tmp) / "state"):
        root = Path(tmp) / "claude"
        _, sid = small_root(root)
        kb = sum(p.stat().st_size for p in root.rglob("*.jsonl")) / 1000
        on = ["--claude-dir", root]
        reads = [
            ("preprocess --stdout", ["preprocess", sid, "--stdout"]),
            ("show", ["show", sid]),
            ("info", ["info", sid]),
            ("events", ["events", sid]),
            ("plan", ["plan", sid]),
            ("debug-agent", ["debug-agent", sid]),
            ("memory", ["memory", sid]),
            ("sessions --all", ["sessions", "--all"]),
            (f"search {generator.COMMON_QUERY} --scan", ["search", generator.COMMON_QUERY, "--all", "--scan"]),
            ("usage (its index built)", ["usage"]),
        ]
        # The usage index is made by the first run; the timed runs read it, as any later run does.
        subprocess.run([*ctx.kit, "usage", *on], capture_output=True)
        base = Command.of("python -c pass", [sys.executable, "-c", "pass"])
        version = Command.of("session-kit --version", [*ctx.kit, "--version"])
        click_only = Command.of("python -c 'import click'", [sys.executable, "-c", "import click"])
        commands = [Command.of(label, [*ctx.kit, *argv, *on]) for label, argv in reads]
        m_base, m_version, m_click, *m_reads = ctx.measure(base, version, click_only, *commands)
    floor = m_version.best / m_base.best if m_version.ok and m_base.ok and m_base.best else None
    # The target: click's import (the floor of any command click parses) and one more bare
    # interpreter's start, both as measured in these rounds.
    click = m_click.best / m_base.best if m_click.ok and m_base.ok and m_base.best else None
    rows = [
        Row.ratio_row(
            "startup",
            f"{m.label} ({kb:.0f} KB session)",
            m,
            m_base,
            max_ratio=click + 1 if click is not None and m.label in TARGETED else None,
            note=_share(m, m_base, floor),
        )
        for m in m_reads
    ]
    rows.append(Row.ratio_row("startup", "session-kit --version (reference)", m_version, m_base))
    rows.append(Row.ratio_row("startup", "python -c 'import click' (reference: click's floor)", m_click, m_base))
    return rows


def _share(m: Measurement, base: Measurement, floor: float | None) -> str:
    """`3.10x the command line + 2.37x the command; <what it printed>`: how much of a command's
    ratio is the fixed part every command pays (`--version`), before the notes of its output."""
    if floor is None or not m.ok or not base.best:
        return m.note
    share = f"{floor:.2f}x the command line + {m.best / base.best - floor:.2f}x the command"
    return f"{share}; {m.note}" if m.note else share

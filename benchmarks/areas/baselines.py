"""Baselines: reading the big session with json.loads of every line (what preprocessing is
measured against) and with `cat` (the floor).
"""

from __future__ import annotations

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import big_session, json_lines
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


@benchmark("baselines")
def bench_baselines(ctx: Context) -> list[Row]:
    """Reading the big session: json.loads of every line (what preprocessing is measured
    against), and `cat` (the floor)."""
    _, path, _, mb = big_session(ctx)
    lines = json_lines(ctx)
    [cat] = ctx.measure(Command.of("cat big", ["cat", path]))
    return [
        Row.ratio_row("baselines", f"json.loads every line ({mb:.0f} MB session)", lines, cat),
        Row.ratio_row("baselines", f"cat ({mb:.0f} MB session)", cat, ctx.python_pass()),
    ]

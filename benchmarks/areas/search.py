"""Search: the exact scan (`search --all --scan`) against `grep -ric -r` over the same files."""

from __future__ import annotations

from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import count_json, grep_total
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


def _search_row(ctx: Context, root: Path, query: str, what: str) -> Row:
    grep, kit = ctx.measure(
        Command.of(
            f"grep -ric -r {query}",
            ["grep", "-ric", "-r", query, "projects/"],
            cwd=root,
            inspect=grep_total,
            ok_codes=(0, 1),
        ),  # grep: 1 = no match
        Command.of(
            f"search --scan {query}",
            [*ctx.kit, "search", query, "--all", "--scan", "--claude-dir", root, "--json"],
            inspect=count_json,
        ),
        slow=True,
    )
    note = f"kit: {kit.note}; grep: {grep.note}" if kit.ok else ""
    return Row.ratio_row("search", what, kit, grep, max_ratio=1.5, note=note)


@benchmark("search")
def bench_search(ctx: Context) -> list[Row]:
    """`search --all --scan` (the exact scan) against `grep -ric -r` over the same files (grep
    writing to a pipe, so it counts every match): at most 1.5x."""
    root, manifest = ctx.main_root()
    mb = manifest.get("total_bytes", 0) / 1e6
    common, rare = (
        manifest.get("common_query", generator.COMMON_QUERY),
        manifest.get("rare_query", generator.RARE_QUERY),
    )
    return [
        _search_row(ctx, root, common, f'search "{common}" --all ({mb:.0f} MB, common)'),
        _search_row(ctx, root, rare, f'search "{rare}" --all ({mb:.0f} MB, rare)'),
    ]

"""The read commands' peak memory: `show` on the big session, and every read command on one
large session, as a transcript and as an agent log.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import big_session, count_json, json_lines
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


@benchmark("memory")
def bench_memory(ctx: Context) -> list[Row]:
    """Peak RSS of `show <big> --json`: under 64 MB, next to a bare interpreter's."""
    root, _, sid, mb = big_session(ctx)
    base = ctx.python_pass()
    lines = json_lines(ctx)
    [kit] = ctx.measure(
        Command.of(
            "show big --json",
            [*ctx.kit, "show", sid, "--claude-dir", root, "--json"],
            inspect=lambda d: f"{len(d) / 1000:.1f} KB of output",
        ),
        slow=True,
    )
    return [
        Row.memory_row("memory", f"show <big> --json, peak RSS ({mb:.0f} MB session)", kit, base, max_mb=64),
        Row.memory_row("memory", "  same, against json.loads line by line", kit, lines, note="-"),
        Row.ratio_row("memory", f"  show <big> --json, time ({mb:.0f} MB session)", kit, lines, note="-"),
    ]


READS_MAX_MB = 100


def _host_of_agent_log(ctx: Context, big: Path) -> tuple[Path, str]:
    """A Claude root whose one small session has the big session's file as its agent log (a
    symlink, made afresh): `debug-agent` and `events` read an agent log that large."""
    root = ctx.data / "reads-host"
    shutil.rmtree(root, ignore_errors=True)
    project = root / "projects" / "-host"
    subagents = project / "host-session" / "subagents"
    subagents.mkdir(parents=True)
    (project / "host-session.jsonl").write_text(
        '{"type":"user","uuid":"h1","sessionId":"host-session","timestamp":"2026-01-01T00:00:00Z",'
        '"message":{"role":"user","content":"spawn the big agent"}}\n'
    )
    (subagents / "agent-abig.jsonl").symlink_to(big)
    return root, "host-session"


@benchmark("reads")
def bench_reads(ctx: Context) -> list[Row]:
    """Peak RSS of every read command on one large session (200 MB; quick: 40 MB), as a
    transcript and as an agent log: each under 100 MB, whatever the input size (they stream)."""
    mb = ctx.scale.reads_mb
    root, manifest = ctx.root(f"reads-b{mb}", sessions=1, big_mb=mb, subagents=False)
    big = root / manifest["big_session_path"]
    sid = manifest["big_session_id"]
    host, host_sid = _host_of_agent_log(ctx, big)
    size = big.stat().st_size / 1e6
    on_big = ["--claude-dir", root]
    commands = [
        Command.of("sessions --all --json", [*ctx.kit, "sessions", "--all", "--json", *on_big]),
        Command.of("show --json", [*ctx.kit, "show", sid, "--json", *on_big]),
        Command.of("events --json", [*ctx.kit, "events", sid, "--json", *on_big]),
        Command.of("events (text)", [*ctx.kit, "events", sid, *on_big]),
        Command.of("plan --all --json", [*ctx.kit, "plan", sid, "--all", "--json", *on_big]),
        Command.of("info --json", [*ctx.kit, "info", sid, "--json", *on_big]),
        Command.of(
            f"search {generator.COMMON_QUERY} --limit 5",
            [*ctx.kit, "search", generator.COMMON_QUERY, "--all", "--limit", "5", "--json", *on_big],
        ),
        Command.of(
            f"search {generator.COMMON_QUERY} (every hit)",
            [*ctx.kit, "search", generator.COMMON_QUERY, "--all", "--json", *on_big],
            inspect=count_json,
        ),
        Command.of("preprocess --stdout", [*ctx.kit, "preprocess", sid, "--stdout", *on_big]),
        Command.of(
            "debug-agent --all --json (agent log)",
            [*ctx.kit, "debug-agent", host_sid, "--all", "--json", "--claude-dir", host],
        ),
        Command.of("events --json (agent log)", [*ctx.kit, "events", host_sid, "--json", "--claude-dir", host]),
    ]
    base = ctx.python_pass()
    rows = []
    for command in commands:
        [m] = ctx.measure(command, slow=True)
        rows.append(Row.memory_row("reads", f"{command.label}, peak RSS ({size:.0f} MB)", m, base, max_mb=READS_MAX_MB))
    return rows

"""Listing: `sessions --all` against `find`, whatever the sessions weigh, and its memory at few
and at many sessions.

Each listing runs with a throw-away state folder: the listing remembers what it read of each
file in the index there (`index.listing`). The second listing of an unchanged root (what a
person waits for, day to day) opens no transcript; the first (each round in a state folder
just emptied) reads every file's head and tail.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import count_json
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row


@benchmark("listing")
def bench_listing(ctx: Context) -> list[Row]:
    """`sessions --all` over every session: within 10x `find` of the session files once it
    has listed them (within 20x the first time), whatever the sessions weigh, in the same
    memory at 1,000 sessions as at 30,000."""
    root, manifest = ctx.main_root()
    n = manifest.get("sessions", 0) + (1 if manifest.get("big_session_id") else 0)
    base = ctx.python_pass()
    with tempfile.TemporaryDirectory(prefix="kit-listing-") as tmp:
        listing = [
            "env",
            f"SESSION_KIT_HOME={tmp}/state",
            *ctx.kit,
            "sessions",
            "--all",
            "--claude-dir",
            root,
            "--json",
        ]
        first = ["sh", "-c", f'rm -rf {tmp}/state && exec "$@"', "sh", *listing]
        find, kit, cold, version = ctx.measure(
            Command.of(
                "find projects -name '*.jsonl'",
                ["find", "projects", "-name", "*.jsonl"],
                cwd=root,
                inspect=lambda d: f"{len(d.splitlines())} files",
            ),
            Command.of("sessions --all", listing, inspect=count_json),
            Command.of("sessions --all (first)", first, inspect=count_json),
            Command.of("session-kit --version", [*ctx.kit, "--version"]),
        )
    rows = [
        Row.ratio_row("listing", f"sessions --all --json ({n:,} sessions)", kit, find, max_ratio=10),
        Row.ratio_row("listing", "  same, against python -c pass", kit, base, max_seconds=1.0, note="-"),
        Row.ratio_row("listing", "  same, the first listing (nothing remembered)", cold, find, max_ratio=20),
        Row.ratio_row("listing", "  session-kit --version (start-up) against the same find", version, find, note="-"),
    ]

    s = ctx.scale
    small, sm = ctx.root(
        f"listing-small-{s.listing_sessions}-{s.small_kb:g}kb",
        sessions=s.listing_sessions,
        projects=20,
        session_kb=s.small_kb,
        subagents=False,
    )
    large, lm = ctx.root(
        f"listing-large-{s.listing_sessions}-{s.large_kb:g}kb",
        sessions=s.listing_sessions,
        projects=20,
        session_kb=s.large_kb,
        subagents=False,
    )
    m_small, m_large = ctx.measure(
        Command.of(
            "sessions --all (small files)",
            _first_listing(ctx, small),
            inspect=count_json,
        ),
        Command.of(
            "sessions --all (large files)",
            _first_listing(ctx, large),
            inspect=count_json,
        ),
    )
    weight = lm.get("total_bytes", 0) / max(1, sm.get("total_bytes", 1))
    per_small = sm.get("total_bytes", 0) / max(1, s.listing_sessions) / 1000
    per_large = lm.get("total_bytes", 0) / max(1, s.listing_sessions) / 1000
    rows.append(
        Row.ratio_row(
            "listing",
            f"size independence: {s.listing_sessions:,} x {per_large:.0f} KB vs {s.listing_sessions:,} x "
            f"{per_small:.0f} KB ({weight:.0f}x the bytes)",
            m_large,
            m_small,
            max_ratio=1.5,
        )
    )
    rows.append(_flat_listing_row(ctx))
    return rows


def _first_listing(ctx: Context, root: str) -> list[str]:
    """`sessions --all --json` of `root` with nothing remembered: each run in a state folder
    just emptied (the file reads and the memory's writes are what is measured)."""
    state = Path(tempfile.gettempdir()) / f"kit-listing-first-{os.getpid()}-{Path(root).name}"
    listing = ["env", f"SESSION_KIT_HOME={state}", *ctx.kit, "sessions", "--all", "--claude-dir", root, "--json"]
    return ["sh", "-c", f'rm -rf "{state}" && "$@"; s=$?; rm -rf "{state}"; exit $s', "sh", *listing]


FLAT_RATIO = 1.15  # "flat": the peak RSS at 30x the sessions is at most 15% above


def _flat_listing_row(ctx: Context) -> Row:
    """Peak RSS of `sessions --all --json` over few and over many small sessions (~14 KB each,
    no subagents): the listing streams, so the count of sessions must not show."""
    few, many = ctx.scale.flat_sessions
    commands = []
    for count in (few, many):
        root, _ = ctx.root(
            f"listing-flat-{count}", sessions=count, projects=20, session_kb=ctx.scale.small_kb, subagents=False
        )
        commands.append(
            Command.of(
                f"sessions --all --json ({count:,} sessions)",
                _first_listing(ctx, root),
                inspect=count_json,
            )
        )
    m_few, m_many = ctx.measure(*commands, slow=True)
    return Row.memory_row(
        "listing",
        f"memory: sessions --all --json, {many:,} vs {few:,} sessions, peak RSS",
        m_many,
        m_few,
        max_ratio=FLAT_RATIO,
    )

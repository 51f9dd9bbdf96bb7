"""The generator's command line: writes a generated Claude root (`benchmarks/generator/`).

.venv/bin/python benchmarks/generate.py --out /tmp/root --sessions 10000 --big-mb 60
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script
from benchmarks.generator import generate

DESCRIPTION = "Deterministic generator of large, realistic Claude Code histories for the benchmarks."


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=DESCRIPTION)
    ap.add_argument("--out", required=True, help="the Claude root to write (created)")
    ap.add_argument("--sessions", type=int, default=10_000)
    ap.add_argument("--big-mb", type=float, default=0.0, help="also write one session of about M MB")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--projects", type=int, default=None, help="default: sessions / 50")
    ap.add_argument(
        "--session-kb",
        type=float,
        default=None,
        help="make every session about this size (default: a realistic spread)",
    )
    ap.add_argument("--no-subagents", action="store_true")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: cpu count)")
    args = ap.parse_args(argv)
    m = generate(
        args.out,
        sessions=args.sessions,
        big_mb=args.big_mb,
        seed=args.seed,
        projects=args.projects,
        session_kb=args.session_kb,
        subagents=not args.no_subagents,
        workers=args.workers,
    )
    share = m.noise_bytes / m.total_bytes if m.total_bytes else 0
    print(
        f"wrote {m.files} files, {m.total_bytes / 1e6:.1f} MB ({share:.0%} noise) in {m.seconds:.1f}s to {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Speed and memory benchmarks for claude-session-kit, as ratios against baselines of the same run.

Owns the command line: it loads every area (`benchmarks/areas/`, a module per area of the
kit), runs the ones asked for with one context (`harness.context`: the generated roots under
the data dir, the kit's command, the repeat counts), and prints the report (`harness.report`)
or its JSON. Does not generate transcripts (`generator/`) or define a benchmark (`areas/`),
and asserts nothing in the test suite: machines here are small and noisy, so a target is a
ratio against a baseline timed in the same run, or a generous absolute limit.

    .venv/bin/python benchmarks/run.py            # full run: 10,000 sessions + a 60 MB session
    .venv/bin/python benchmarks/run.py --quick    # smaller data, fewer repeats
    .venv/bin/python benchmarks/run.py --json     # machine-readable results on stdout

Adding a target: write a function `def bench_x(ctx: Context) -> list[Row]` in the area's
module under `benchmarks/areas/` that calls `ctx.measure(Command.of(...), Command.of(...))`
for the kit command and its baseline (they run interleaved), decorate it with
`@benchmark("x")`, and return rows made with `Row.ratio_row` (times) or `Row.memory_row`
(peak RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run as a script: `benchmarks` is a package of the checkout
from benchmarks import areas  # noqa: E402
from benchmarks.harness.context import BENCHMARKS, Context, find_kit, scale_for  # noqa: E402
from benchmarks.harness.measure import TIME_BIN  # noqa: E402
from benchmarks.harness.report import Row, render  # noqa: E402


def _kit_source() -> str:
    import session_kit

    return str(Path(session_kit.__file__).parent)


def cache_bytecode(log: Callable[[str], None]) -> None:
    """Compile the kit's modules, so every timed run starts from cached bytecode as an installed
    kit does (an editable install run under PYTHONDONTWRITEBYTECODE=1 would compile its
    modules afresh on every run and time the compiler)."""
    import compileall

    import session_kit

    package = Path(session_kit.__file__).parent
    if not compileall.compile_dir(str(package), quiet=1, force=False):
        log(f"warning: could not compile every module under {package}")


def main(argv: list[str] | None = None) -> int:
    areas.load()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=HERE / "data", help="where generated roots are kept")
    ap.add_argument("--quick", action="store_true", help="1,000 sessions and a 10 MB session, fewer repeats")
    ap.add_argument("--json", action="store_true", help="print results as JSON on stdout")
    ap.add_argument("--repeat", type=int, help="timed runs per command (default 5, quick 3)")
    ap.add_argument("--only", action="append", choices=sorted(BENCHMARKS), help="run only these (repeatable)")
    ap.add_argument("--strict", action="store_true", help="exit 1 when a target is missed or a command fails")
    ap.add_argument(
        "--kit",
        help="the command that runs the kit, split on spaces (default: the session-kit next to this python); "
        "with PYTHONPATH set, e.g. --kit 'python -m session_kit' times another checkout",
    )
    args = ap.parse_args(argv)

    scale = scale_for(quick=args.quick, repeat=args.repeat)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    args.data.mkdir(parents=True, exist_ok=True)
    cache_bytecode(log)
    ctx = Context(data=args.data, scale=scale, kit=tuple(args.kit.split()) if args.kit else find_kit(), log=log)
    rows: list[Row] = []
    for name, fn in BENCHMARKS.items():
        if args.only and name not in args.only:
            continue
        log(f"[{name}]")
        rows += fn(ctx)

    cpus_usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    header = {
        "mode": "quick" if args.quick else "full",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "cpus": os.cpu_count(),
        "cpus_usable": cpus_usable,
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "kit": list(ctx.kit),
        "kit_source": _kit_source(),
        "rss_via": TIME_BIN or "python wrapper",
        "repeat": scale.repeat,
        "slow_repeat": scale.slow_repeat,
        "data": {
            name: {k: m.get(k) for k in ("sessions", "files", "total_bytes", "noise_bytes", "seconds")}
            for name, (_, m) in ctx.roots.items()
        },
    }
    if args.json:
        doc = {
            "header": header,
            "results": [asdict(r) for r in rows],
            "measurements": [
                {**asdict(m), "best": m.best, "median": m.median, "rss_mb": m.rss_mb} for m in ctx.measurements
            ],
        }
        print(json.dumps(doc, indent=2))
    else:
        print(render(rows, header))
    bad = any(r.status in ("MISS", "ERROR") for r in rows)
    return 1 if args.strict and bad else 0


if __name__ == "__main__":
    sys.exit(main())

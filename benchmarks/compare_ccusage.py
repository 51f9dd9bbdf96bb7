"""Per-project token totals of the kit against ccusage (npm `ccusage`), on the same Claude root.

Owns: installing the pinned ccusage into the tests' client cache (outside the checkout; npm, once), running `ccusage session
--json --offline` and `session-kit usage --by project --json` on one root, and printing where
they agree and where they differ. ccusage 18 groups its "sessions" by project folder (a
`subagents/` folder is its own row, named after `<project>/<session>`), so the comparison is
per project, agents included. Not part of the test suite: it needs node, npm and the
registry once.

    .venv/bin/python benchmarks/compare_ccusage.py --root ~/.claude
    .venv/bin/python benchmarks/compare_ccusage.py --root /tmp/benchdata/listing-small-1000-8kb

Known, explained differences: on a message written as several lines whose usage differs (older
clients wrote each block as it streamed), ccusage keeps the first line's partial
`output_tokens`, the kit the last line's final count; a model ccusage has no price for costs
$0 there, and is named as unpriced by the kit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # run as a script: `tests` is the checkout's

from tests.e2e.client import cache_root  # noqa: E402

CCUSAGE_VERSION = "18.0.11"  # the last release that runs on node alone (20.x needs a native binary)
KINDS = (
    ("inputTokens", "input"),
    ("outputTokens", "output"),
    ("cacheCreationTokens", "cache_creation"),
    ("cacheReadTokens", "cache_read"),
)


def ccusage_binary() -> Path:
    prefix = cache_root() / f"ccusage-{CCUSAGE_VERSION}"  # beside the tests' client, outside the checkout
    binary = prefix / "node_modules" / ".bin" / "ccusage"
    if not binary.exists():
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(prefix), f"ccusage@{CCUSAGE_VERSION}"],
            check=True,
            capture_output=True,
        )
    return binary


def ccusage_by_project(root: Path) -> dict[str, list[int]]:
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(root)}
    out = subprocess.run(
        [str(ccusage_binary()), "session", "--json", "--offline"], capture_output=True, env=env, check=True, timeout=600
    ).stdout
    totals: dict[str, list[int]] = {}
    for row in json.loads(out)["sessions"]:
        project = row["sessionId"] if row["sessionId"] != "subagents" else row["projectPath"].split("/")[0]
        total = totals.setdefault(project, [0] * len(KINDS))
        for i, (theirs, _) in enumerate(KINDS):
            total[i] += row[theirs]
    return totals


def kit_by_project(root: Path) -> dict[str, list[int]]:
    with tempfile.TemporaryDirectory() as state:
        env = {**os.environ, "SESSION_KIT_HOME": state}
        command = [sys.executable, "-m", "session_kit", "usage", "--by", "project", "--claude-dir", str(root), "--json"]
        out = subprocess.run(command, capture_output=True, env=env, check=True, timeout=600).stdout
    return {row["key"]: [row["tokens"][ours] for _, ours in KINDS] for row in json.loads(out)["rows"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, required=True, help="the Claude root (the folder holding projects/)")
    args = ap.parse_args(argv)
    theirs, ours = ccusage_by_project(args.root), kit_by_project(args.root)
    equal = 0
    for project in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(project), ours.get(project)
        if a == b:
            equal += 1
            continue
        print(f"{project}\n  ccusage  {a}\n  kit      {b}   (input, output, cache write, cache read)")
    print(f"{equal} of {len(set(theirs) | set(ours))} projects equal (ccusage {CCUSAGE_VERSION})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

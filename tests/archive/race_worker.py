"""One party to the archive race (`test_race`), run as its own process:
`python -m tests.archive.race_worker ROLE CLAUDE_ROOT STATE_ROOT TRANSCRIPT SECONDS`.

client: appends lines (every third holds a token) as the client does; archive: what
`session-kit archive` runs, again and again; hook: what the SessionEnd/PreCompact/SessionStart
hooks' child runs; scrub: `secrets --all --scrub`'s rewrite; reader: `archive --verify`'s check
of every generation, printing each problem it sees."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

TOKEN = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"


def line(sid: str, n: int) -> bytes:
    text = f"step {n}: push with {TOKEN} now" if n % 3 == 0 else f"step {n}: " + "x" * (n % 200)
    entry = {"type": "user", "uuid": f"u-{n}", "sessionId": sid, "n": n, "message": {"role": "user", "content": text}}
    return json.dumps(entry).encode() + b"\n"


def main(role: str, root: str, state: str, transcript: str, seconds: float) -> int:
    from session_kit.archive import layout

    sid = os.path.basename(transcript)[: -len(".jsonl")]
    base = layout.base_dir(state, root, create=True)
    until = time.monotonic() + seconds
    rounds = 0
    while time.monotonic() < until:
        rounds += 1
        if role == "client":
            with open(transcript, "ab") as f:
                f.write(b"".join(line(sid, rounds * 5 + k) for k in range(5)))
            time.sleep(0.002)
        elif role == "archive":
            from session_kit.archive import catalogue

            catalogue.archive_everything(base, root)
        elif role == "hook":
            from session_kit.archive.background import archive_session_now

            archive_session_now(state, root, transcript)
        elif role == "scrub":
            from session_kit.queries.scrub import scrub
            from session_kit.queries.secrets import Scope

            scrub(Path(root), state, Scope())
        elif role == "reader":
            from session_kit.archive.verify import verify

            for problem in verify(base, None).problems:
                print(problem, flush=True)
    print(f"{role}: {rounds} rounds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])))

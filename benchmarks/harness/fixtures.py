"""What several areas share: the big session and the json.loads baseline on it, a small root
of one generated session, a throw-away state root, the hook event and its environment, and
the notes that describe a command's output.

Owns helpers only; every benchmark is in `benchmarks/areas/`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks import generator
from benchmarks.harness.context import Context
from benchmarks.harness.measure import Command, Measurement

MB = 1024 * 1024


def count_json(data: bytes) -> str:
    """A short description of a JSON answer: how many items it holds."""
    text = data.decode("utf-8")
    try:
        doc = json.loads(text)
    except ValueError:
        lines = [ln for ln in text.splitlines() if ln.strip()]
        return f"{len(lines)} output lines"
    if isinstance(doc, list):
        return f"{len(doc)} items"
    if isinstance(doc, dict):
        for k, v in doc.items():
            if isinstance(v, list):
                return f"{len(v)} {k}"
        return f"object with {len(doc)} keys"
    return type(doc).__name__


def grep_total(data: bytes) -> str:
    lines = data.decode("utf-8", "replace").splitlines()
    total = sum(int(ln.rsplit(":", 1)[1]) for ln in lines if ":" in ln)
    hit = sum(1 for ln in lines if not ln.endswith(":0"))
    return f"{total} lines in {hit}/{len(lines)} files"


JSON_LINES = "import json,sys\nwith open(sys.argv[1],'rb') as f:\n    for line in f: json.loads(line)\n"


def big_session(ctx: Context) -> tuple[Path, Path, str, float]:
    """(root, big session file, its id, its size in MB)."""
    root, manifest = ctx.main_root()
    path = root / manifest["big_session_path"]
    return root, path, manifest["big_session_id"], path.stat().st_size / 1e6


def json_lines(ctx: Context) -> Measurement:
    """The time (and memory) Python needs just to parse every line of the big session."""
    _, path, _, _ = big_session(ctx)
    return ctx.measure(
        Command.of("json.loads every line", [sys.executable, "-c", JSON_LINES, path]), slow=True, key="json-lines"
    )[0]


HOOK_EVENT = {
    "hook_event_name": "SessionStart",
    "source": "startup",
    "cwd": "/home/user/code/project",
    "transcript_path": "/home/user/.claude/projects/-home-user-code-project/bench-session.jsonl",
}


@contextmanager
def hook_environment(folder: Path) -> Iterator[None]:
    """SESSION_KIT_HOME and CLAUDE_ENV_FILE inside `folder` for the hooks run meanwhile."""
    saved = {k: os.environ.get(k) for k in ("SESSION_KIT_HOME", "CLAUDE_ENV_FILE")}
    os.environ["SESSION_KIT_HOME"] = str(folder / "state")
    os.environ["CLAUDE_ENV_FILE"] = str(folder / "env.sh")
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def small_root(
    into: Path, *, session_id: str = "5e551011-0000-4000-8000-000000000001", pools: object | None = None
) -> tuple[Path, str]:
    """A Claude root holding one small generated session (index 1 of seed 0: a 28 KB
    transcript with an 8 KB subagent log): (its transcript, its id)."""
    cwd = "/home/user/code/tiny"
    plan = generator.SessionPlan(
        index=1,
        session_id=session_id,
        project_dir=generator.encode_project_dir(cwd),
        cwd=cwd,
        target_bytes=5_000,
        start_ms=generator.START_MS,
        compactions=0,
        agents=1,
        rare=True,
    )
    generator.write_session(pools or generator.Pools(0), into, plan, seed=0)
    return into / "projects" / plan.project_dir / f"{session_id}.jsonl", session_id


class state_root:
    """`SESSION_KIT_HOME` pointed at `path` for the block."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.saved: str | None = None

    def __enter__(self) -> None:
        self.saved = os.environ.get("SESSION_KIT_HOME")
        os.environ["SESSION_KIT_HOME"] = str(self.path)

    def __exit__(self, *_exc: object) -> None:
        if self.saved is None:
            os.environ.pop("SESSION_KIT_HOME", None)
        else:
            os.environ["SESSION_KIT_HOME"] = self.saved


# The index built in full, as the background build does (argv: state root, Claude root).
BUILD_INDEX = (
    "import sys\n"
    "from pathlib import Path\n"
    "from session_kit.index import db\n"
    "from session_kit.index.update import update\n"
    "state, root = sys.argv[1], Path(sys.argv[2])\n"
    "db.use(state, lambda conn: update(conn, root, state_root=state), claude_root=root)\n"
)


def build_index(state: Path, root: Path) -> None:
    """The index of `root` in `state`, built in full before anything is timed against it."""
    subprocess.run([sys.executable, "-c", BUILD_INDEX, str(state), str(root)], check=True, capture_output=True)

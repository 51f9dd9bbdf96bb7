"""The secret guard: the PostToolUse hook (`run.py post-tool-use`) on a typical event, a
Bash call whose output is 64 KB, against a bare interpreter given the same stdin.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from benchmarks.harness.context import Context, benchmark
from benchmarks.harness.fixtures import HOOK_EVENT
from benchmarks.harness.measure import Command
from benchmarks.harness.report import Row

OUTPUT_BYTES = 64 * 1024
SMALL_BYTES = 4 * 1024  # most tool outputs are this size or smaller
# A build's log: what most tool output looks like, none of the redactor's anchors in it.
LOG_LINE = "[{n:05d}] compiling module_{n}.c -> build/obj/module_{n}.o (ok, 0.{n:03d}s)\n"
# Source code that names keys, passwords and tokens, and holds none: the redactor must look.
CODE_LINE = "    value_{n} = settings.get('api_key_{n}') or load_password(path_{n}, token_ttl={n})\n"
SECRET_LINES = (
    "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7BENCHMK\n"
    "GITHUB_TOKEN=ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS\n"
    "DATABASE_URL=postgres://app:hunter2-Tr0ub4dor@db.internal:5432/orders\n"
)


def _output(line: str, *, head: str = "", size: int = OUTPUT_BYTES) -> str:
    text, n = [head], 0
    made = len(head)
    while made < size:
        text.append(line.format(n=n % 100000))
        made += len(text[-1])
        n += 1
    return "".join(text)[:size]


def _event(stdout: str) -> bytes:
    event = {
        **HOOK_EVENT,
        "hook_event_name": "PostToolUse",
        "session_id": "5e551011-0000-4000-8000-000000000031",
        "tool_name": "Bash",
        "tool_input": {"command": "make"},
        "tool_response": {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False},
    }
    return json.dumps(event).encode()


@benchmark("guard")
def bench_guard(ctx: Context) -> list[Row]:
    """The guard on a 4 KB and a 64 KB Bash output, by the installer's route (`python -I -S run.py
    post-tool-use`), against `python -I -S -c pass` with the same stdin: the typical event (a
    build log, passed through by the screen without loading the redactor) at most 1.5x. Also
    reported, without a target: an output the redactor has to read (code naming keys and
    passwords, none there), and one holding three secrets (redacted, the notice written)."""
    import session_kit

    run_py = Path(session_kit.__file__).parent / "hooks" / "run.py"
    small = _event(_output(LOG_LINE, size=SMALL_BYTES))
    typical = _event(_output(LOG_LINE))
    code = _event(_output(CODE_LINE))
    secrets = _event(_output(LOG_LINE, head=SECRET_LINES))
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.environ.get("SESSION_KIT_HOME")
        os.environ["SESSION_KIT_HOME"] = str(Path(tmp) / "state")
        try:
            guard = [sys.executable, "-I", "-S", run_py, "post-tool-use"]
            base, m_small, m_typical, m_code, m_secrets = ctx.measure(
                Command.of(
                    "python -I -S -c pass (same stdin)", [sys.executable, "-I", "-S", "-c", "pass"], stdin=typical
                ),
                Command.of("guard: 4 KB build log", guard, stdin=small),
                Command.of("guard: 64 KB build log (typical)", guard, stdin=typical),
                Command.of("guard: 64 KB code naming keys", guard, stdin=code),
                Command.of("guard: 64 KB with 3 secrets", guard, stdin=secrets),
            )
        finally:
            if saved is None:
                os.environ.pop("SESSION_KIT_HOME", None)
            else:
                os.environ["SESSION_KIT_HOME"] = saved
    return [
        Row.ratio_row("guard", m_small.label, m_small, base, max_ratio=1.5),
        Row.ratio_row("guard", m_typical.label, m_typical, base, max_ratio=1.5),
        Row.ratio_row("guard", m_code.label, m_code, base, max_ratio=2.0),  # issue 38's target
        Row.ratio_row("guard", m_secrets.label, m_secrets, base, note="-"),
    ]

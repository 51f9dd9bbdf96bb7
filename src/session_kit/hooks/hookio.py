"""What every hook does around its work: read the event, write the answer, report a fault.
Standard library only (plus the `state` package).

Owns: the event JSON read from stdin, or from its bytes when `run.py` read them first
(`read_event`; `HookInputError` when there is none or it is not an object), the answer written to stdout as UTF-8 (`write_answer`; lone surrogates as
JSON escapes), and a fault reported the one way (`report_fault`: the hook log and one line on
stderr, never raising). `handlers.main` and the secret guard's `guard.main` run through them;
neither ever exits non-zero.
"""

from __future__ import annotations

import sys

from session_kit.state import fastjson
from session_kit.state import root as state


class HookInputError(ValueError):
    pass


def read_event(stream: object) -> dict:
    """The event in `stream` (stdin; or its bytes, already read)."""
    if isinstance(stream, bytes):
        data = stream
    elif stream is None or stream.isatty():
        raise HookInputError("no event on stdin")
    else:
        data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode()
    if not data.strip():
        raise HookInputError("empty stdin")
    try:
        event = fastjson.loads(data)
    except ValueError as exc:
        raise HookInputError(f"stdin is not JSON ({exc})") from None
    if not isinstance(event, dict):
        raise HookInputError("stdin JSON is not an object")
    return event


def write_answer(out: str) -> None:
    # Saved text may hold lone surrogates (bytes that were not UTF-8): written as JSON
    # escapes, the output stays valid UTF-8 JSON.
    data = out.encode("utf-8", "backslashreplace")
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:
        sys.stdout.write(data.decode("utf-8"))
    else:
        sys.stdout.flush()
        stream.write(data)
    sys.stdout.flush()


def report_fault(root: str | None, name: str, exc: BaseException) -> None:
    """A fault that ended hook `name`: in the hook log (when there is a state root) and one
    line on stderr; never raises."""
    message = f"{type(exc).__name__}: {exc}"
    where = ""
    try:
        if root:
            where = f" (logged in {state.log(root, f'hook {name}: {message}')})"
    except Exception:  # the log itself may be what is broken
        where = ""
    try:
        sys.stderr.write(f"session-kit hook {name}: {message[:300]}{where}\n")
    except Exception:
        pass

"""What every hook does around its work: read the event, write the answer, report a fault.
Standard library only (plus the `state` package).

Owns: running one hook (`run`: the state root, the event, the handler, the answer, a fault,
then the work it left for detached children, `later`, started once its output is written:
`_hand_over`); the event JSON read from stdin, or from its bytes when `hooks.start` read them
first (`read_event`; `HookInputError` when there is none or it is not an object), the answer
written to stdout as UTF-8 (`write_answer`; lone surrogates as JSON escapes), and a fault
reported the one way (`report_fault`: the hook log and one line on stderr, never raising).
`handlers.main`, `fresh.main`, `live.main` and the secret guard's `guard.main` run through
them; none ever exits non-zero.
"""

from __future__ import annotations

import os
import sys

from session_kit.base import fastjson
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

# Work for detached children, forked once the hook has written all it has to say and let go
# of its standard streams (`_hand_over`): a child forked earlier shared the hook's stdout, so
# the client, reading it to its end, waited until the child was scheduled to close its copy,
# and the child competed with the hook for the CPU while the hook still worked (measured on 2
# busy cores: PostCompact 30 ms against 18 ms of its own CPU).
_LATER: list[Callable[[], object]] = []


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


def later(job: Callable[[], object]) -> None:
    """Run `job` (which forks its detached child) once the hook's output is written."""
    _LATER.append(job)


def _hand_over(root: str, *, streams: bool = True) -> None:
    """Start the work the hook left for detached children, with the hook's standard streams
    (`streams`: the process's own, not a caller's) already on /dev/null: its output is whole,
    and the children never hold the client's pipes."""
    jobs = _LATER[:]
    _LATER.clear()
    if streams:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # a closed pipe: nothing more reaches it anyway
            pass
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
    for job in jobs:
        try:
            job()
        except Exception as exc:  # one failed hand-over must not cost the others
            state.log(root, f"handing work to a child failed: {type(exc).__name__}: {exc}")


def run(
    name: str,
    hooks: Mapping[str, Callable[[Mapping, Mapping[str, str], str], str]],
    *,
    stdin: object = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run hook `name` of `hooks` on the event on stdin (or `stdin`: a stream, or its bytes
    already read from the process's own); always returns 0. Work for detached children starts
    last, once the hook's output is written (`_hand_over`)."""
    env = os.environ if env is None else env
    root = None
    _LATER.clear()
    try:
        root = state.state_root(env)
        handler = hooks.get(name)
        if handler is None:
            raise HookInputError(f"unknown hook {name!r} (expected one of {', '.join(hooks)})")
        event = read_event(sys.stdin if stdin is None else stdin)
        out = handler(event, env, root)
        if out:
            write_answer(out)
    except BaseException as exc:  # a hook must never break the session
        if isinstance(exc, KeyboardInterrupt):
            return 0
        report_fault(root, name, exc)
    if _LATER and root:  # also after a failure to write the output: the capture still runs
        try:
            _hand_over(root, streams=stdin is None or isinstance(stdin, bytes))
        except Exception:  # pragma: no cover - _hand_over logs each job's failure itself
            pass
    return 0

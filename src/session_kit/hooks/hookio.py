"""What every hook does around its work: read the event, write the answer, report a fault.
Standard library only (plus the `state` package).

Owns: running one hook (`run`: the state root, the event, the handler, the answer, a fault,
then the work it left for detached children, `later`, started once its output is written:
`_hand_over`); the event JSON read from stdin, or from its bytes when `hooks.start` read them
first, parsed once into one `HookEvent` every handler reads (`read_event`; `HookInputError`
when there is none or it is not an object): each field the kit uses, checked for its type
once, and the session and project the event is of (`session_id_in`, `project_path_in`); the
answer written to stdout as UTF-8 (`write_answer`; lone surrogates as JSON escapes), and a
fault reported the one way (`report_fault`: the hook log and one line on stderr, never
raising). `handlers.main`, `fresh.main`, `live.main` and the secret guard's `guard.main` run
through them; none ever exits non-zero.
Does not: decide what an event means (the handlers), or look at the bytes before they are
parsed (`hooks.start`'s one check, for the main thread's PreToolUse, which then loads nothing).
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


def _text(value: object) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def _word(value: object) -> str | None:
    """Any value given as a word (`str(value)`), None when absent or empty."""
    return str(value) if value else None


def _number(value: object) -> float | int | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


class HookEvent:
    """One hook's event, as the client sent it on stdin, parsed once: the fields the kit reads,
    each of its type or None (a plain class with slots: the hooks load no `typing` or
    `dataclasses`). What the client sends per event: docs/reference/hooks.md."""

    __slots__ = (
        "session_id",
        "transcript_path",
        "cwd",
        "source",
        "trigger",
        "compact_summary",
        "agent_id",
        "agent_type",
        "agent_transcript_path",
        "last_assistant_message",
        "prompt",
        "tool_name",
        "tool_use_id",
        "has_tool_response",
        "tool_response",
        "command",
        "cache_expired",
        "cache_write_usd",
        "idle_seconds",
        "context_tokens",
    )

    def __init__(self, raw: Mapping) -> None:
        get = raw.get
        # as given (any truthy value): `state.ids.check_session_id` says what is wrong with it
        self.session_id: object = get("session_id") or None
        self.transcript_path = _text(get("transcript_path"))
        self.cwd = _text(get("cwd"))
        self.source = _word(get("source"))  # SessionStart: startup, resume, clear, compact, fork
        self.trigger = _word(get("trigger"))  # PreCompact: manual, auto
        summary = get("compact_summary")  # PostCompact
        self.compact_summary = summary if isinstance(summary, str) else None
        # set in a subagent's events (its calls, its compaction) and SubagentStart/SubagentStop
        self.agent_id = _text(get("agent_id"))
        self.agent_type = _text(get("agent_type"))
        self.agent_transcript_path = _text(get("agent_transcript_path"))  # SubagentStop
        self.last_assistant_message = _text(get("last_assistant_message"))  # SubagentStop
        prompt = get("prompt")  # UserPromptSubmit
        self.prompt = prompt if isinstance(prompt, str) else None
        self.tool_name = _word(get("tool_name"))  # PreToolUse, PostToolUse
        self.tool_use_id = _text(get("tool_use_id"))
        self.has_tool_response = "tool_response" in raw  # PostToolUse: a string or an object
        self.tool_response: object = get("tool_response")
        tool_input = get("tool_input")  # a Bash call's command: the context of what it printed
        command = tool_input.get("command") if isinstance(tool_input, dict) else None
        self.command = command if isinstance(command, str) else None
        # SessionStart on resume: the client's word on the prompt cache
        self.cache_expired = get("prompt_cache_likely_expired") is True
        self.cache_write_usd = _number(get("estimated_cache_write_usd"))
        self.idle_seconds = _number(get("seconds_since_last_response"))
        tokens = get("context_tokens")
        self.context_tokens = tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None


def session_id_in(event: HookEvent, env: Mapping[str, str]) -> str:
    """The event's session id (else the environment's: `state.current.session_id_from_env`), checked plain."""
    from session_kit.state.current import session_id_from_env
    from session_kit.state.ids import check_session_id

    return check_session_id(event.session_id or session_id_from_env(env))


def project_path_in(event: HookEvent, env: Mapping[str, str]) -> str:
    """The project the event is of: `CLAUDE_PROJECT_DIR`, else the event's `cwd`, else ours."""
    return env.get("CLAUDE_PROJECT_DIR") or event.cwd or os.getcwd()


def read_event(stream: object) -> HookEvent:
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
    return HookEvent(event)


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
    hooks: Mapping[str, Callable[[HookEvent, Mapping[str, str], str], str]],
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

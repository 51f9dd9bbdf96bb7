"""What each hook does, and the table of them all (`HANDLERS`). Standard library only (plus
the kit's `state` package, each loaded by the functions that use it).

Owns: SessionStart (scratch dir, project pointer, `SESSION_CONTEXT` and friends appended to
`CLAUDE_ENV_FILE`, one brief line to the model, and the working memory put back after a
compaction; a session already written, resume or compact, has its new bytes archived:
`hooks.fresh.archive`); UserPromptSubmit (the fallback for clients without
`CLAUDE_ENV_FILE`, a late restore where no start followed a compaction, and the budget per
session: `hooks.budget`, a prompt blocked past it); PreCompact (a
snapshot of the saved values, the working memory captured from the transcript,
`memory.capture`, and the index kept fresh, `hooks.fresh.index`); PostCompact (the capture
brought up to date, with the client's summary). Stop and SessionEnd are `hooks.fresh`'s;
SubagentStart, SubagentStop and PreToolUse (the budget per subagent) and the cold-cache
notice of a resumed start are `hooks.live`'s; PostToolUse, when the person turned it on, is
the secret guard (`hooks.guard`): `hooks.start` starts each in its own module. A subagent's compaction (`agent_id` in the event) is captured into
the agent's own memory file and never touches the session's.
Every failure is logged to the kit's hook log and named in one stderr line; the exit code is
always 0, so the kit never blocks or breaks a session (`hookio.run`).
"""

from __future__ import annotations

import os
import sys

from session_kit.base import fastjson
from session_kit.hooks.hookio import HookEvent, HookInputError, later, project_path_in, run, session_id_in
from session_kit.state import root as state

# The rest is loaded by the functions that use it: Stop (after each of the model's turns) and
# SessionEnd need neither the scratch dir's module nor the session rules.
# Annotations only: `collections.abc` costs the hooks ~2 ms to import (and `typing` more).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from session_kit.state.scratch import SessionScratch

# Claude Code caps what one hook adds to the context; stay below it.
CONTEXT_LIMIT = 9000
# How long the SessionStart after a compaction waits for a capture still running.
CAPTURE_WAIT_S = 20.0
NO_ENV_FILE_MARK = "no-env-file"
ENV_MARK = "# session-kit"


def shell_quote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def _scratch(event: HookEvent, env: Mapping[str, str], root: str) -> SessionScratch:
    from session_kit.state.scratch import SessionScratch

    return SessionScratch.for_session(session_id_in(event, env), project_path=project_path_in(event, env), root=root)


def _context(event_name: str, text: str) -> str:
    return fastjson.dumps({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}}) + "\n"


def _intro(scratch: SessionScratch, *, env_file: bool) -> str:
    where = (
        "in $SESSION_CONTEXT and $SESSION_KIT_SCRATCH"
        if env_file
        else f"(pass --session {scratch.session_id} to session-kit)"
    )
    return (
        f"session-kit: this session's id is {scratch.session_id} {where}; its scratch dir is {scratch.path}. "
        "Save work state that must survive compaction with `session-kit scratch set KEY VALUE` "
        "or `session-kit scratch note TEXT`."
    )


def _restore(scratch: SessionScratch, env: Mapping[str, str], root: str) -> str | None:
    """The working memory and the values saved by hand, as one block within the limit."""
    from session_kit.memory import record, restore
    from session_kit.memory.record import read_plan_file
    from session_kit.memory.settings import memory_settings
    from session_kit.state.scratch import STATE_FILE, StateFileDamaged

    settings = memory_settings(root, env)
    memory_file = record.memory_path(scratch.path)
    memory = None
    if settings.capture:
        try:  # a capture still running in the background finishes first
            with record.locked(memory_file, timeout=CAPTURE_WAIT_S):
                memory = record.load(memory_file)
        except TimeoutError:
            state.log(root, f"memory: capture still running after {CAPTURE_WAIT_S:.0f}s; restored what was saved")
            memory = record.load(memory_file)
    try:
        work_state, damaged = scratch.read_state(), None
    except StateFileDamaged as exc:  # say so to the model; the file stays for a person to mend
        work_state, damaged = {"values": {}, "notes": []}, f"session-kit: {exc}"
    block = restore.render(
        memory,
        work_state,
        limit=min(restore.LIMIT, CONTEXT_LIMIT - 600),
        memory_file=record.text_path(memory_file),
        read_plan=read_plan_file,
        keep=settings.keeps,
        state_file=scratch.file(STATE_FILE),
    )
    return "\n\n".join(part for part in (damaged, block) if part) or None


def _env_lines(scratch: SessionScratch, root: str, env: Mapping[str, str], bin_dir: str | None) -> list[str]:
    lines = [
        f'export SESSION_CONTEXT="session_id={scratch.session_id}" {ENV_MARK}',
        f"export SESSION_KIT_SCRATCH={shell_quote(scratch.path)} {ENV_MARK}",
        f"export SESSION_KIT_HOME={shell_quote(root)} {ENV_MARK}",
    ]
    if bin_dir:
        lines.append(f'export PATH={shell_quote(bin_dir)}":$PATH" {ENV_MARK}')
    return lines


ENV_TAIL_BYTES = 64 * 1024  # how much of the env file's end is read to skip lines already there


def _append_env(env_file: str, lines: list[str]) -> None:
    """Append the lines the end of the file does not already hold (a resumed session starts
    again). Never reads the file whole and never waits: opened non-blocking, and anything but
    a regular file (a FIFO, /dev/zero) is refused. A file without a final newline gets one
    first, so the first export is not glued onto its last line. Lines are written as the
    bytes they stand for: a path that was not UTF-8 is exported as it is."""
    from session_kit.base import fileio

    try:
        fd, st = fileio.open_fd(env_file, flags=os.O_RDWR | os.O_APPEND | os.O_CREAT)
    except fileio.NotARegularFile:
        raise HookInputError(f"CLAUDE_ENV_FILE {env_file} is not a regular file; nothing was exported") from None
    try:
        start = max(0, st.st_size - ENV_TAIL_BYTES)
        tail = os.pread(fd, st.st_size - start, start) if st.st_size else b""
        present = set(tail.split(b"\n"))
        missing = [data for data in (line.encode("utf-8", "surrogateescape") for line in lines) if data not in present]
        if missing:
            glue = b"\n" if tail and not tail.endswith(b"\n") else b""
            os.write(fd, glue + b"\n".join(missing) + b"\n")
    finally:
        os.close(fd)


def _warn(root: str, message: str) -> None:
    """A fault the hook goes on after: one line on stderr, and the hook log."""
    where = ""
    try:
        where = f" (logged in {state.log(root, message)})"
    except Exception:  # the log itself may be what is broken
        pass
    try:
        sys.stderr.write(f"session-kit {message[:300]}{where}\n")
    except Exception:
        pass


def kit_bin_dir(env: Mapping[str, str]) -> str | None:
    """A folder holding only the `session-kit` command, to put on the Bash tool's PATH."""
    plugin_root = env.get("CLAUDE_PLUGIN_ROOT")
    if plugin_root:
        return os.path.join(plugin_root, "bin")
    return env.get("SESSION_KIT_BIN_DIR") or None


def session_start(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    from session_kit.base import fileio

    source = event.source or "startup"
    scratch = _scratch(event, env, root).create()
    scratch.point_here()
    env_file = env.get("CLAUDE_ENV_FILE")
    meta = scratch.record_start(
        source=source,
        transcript_path=event.transcript_path,
        cwd=event.cwd,
        env_file=bool(env_file),
    )
    mark = scratch.file(NO_ENV_FILE_MARK)
    if env_file:
        try:
            _append_env(env_file, _env_lines(scratch, root, env, kit_bin_dir(env)))
        except (OSError, HookInputError) as exc:  # the rest of the start still matters
            _warn(root, f"hook session-start: {exc}")
            env_file = None
    if env_file:
        if os.path.exists(mark):
            os.unlink(mark)
    else:
        fileio.atomic_write(mark, b"CLAUDE_ENV_FILE was absent at session start\n", sync=False)
    parts = []
    first_time = sum(meta.get("sources", {}).values()) == 1
    if source in ("startup", "clear", "compact") or first_time:
        parts.append(_intro(scratch, env_file=bool(env_file)))
    if source != "startup":  # a resumed or compacted session has bytes the archive lacks
        from session_kit.hooks.fresh import archive

        archive(event, env, root)
    pending = scratch.take_pending_restore()
    if source == "compact" or pending:
        restored = _restore(scratch, env, root)
        if restored:
            parts.append(restored)
    notice = None
    if source in ("resume", "fork"):  # the person is told what a cold cache costs; the model nothing
        from session_kit.hooks.live import cold_cache_notice

        notice = cold_cache_notice(event)
    # the plugin's hook started building the `session-kit` command's environment (hooks/run-hook)
    preparing = (env.get("SESSION_KIT_PREPARING") or "").strip()
    notice = "\n".join(line for line in (preparing, notice) if line) or None
    if not notice:
        return _context("SessionStart", "\n\n".join(parts)) if parts else ""
    answer: dict[str, object] = {"systemMessage": notice}
    if parts:
        answer["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": "\n\n".join(parts)}
    return fastjson.dumps(answer) + "\n"


def user_prompt_submit(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    from session_kit.base import fileio

    session_id = session_id_in(event, env)
    scratch = _scratch(event, env, root)
    parts = []
    if not scratch.exists():  # no SessionStart seen: installed mid-session, or an older client
        scratch.create()
        scratch.point_here()
        scratch.record_start(source="prompt", transcript_path=None, cwd=None, env_file=False)
        fileio.atomic_write(scratch.file(NO_ENV_FILE_MARK), b"no SessionStart seen\n", sync=False)
        parts.append(_intro(scratch, env_file=False))
    elif os.path.exists(scratch.file(NO_ENV_FILE_MARK)):
        parts.append(f"session-kit: session id {session_id}; scratch dir {scratch.path}.")
    if scratch.take_pending_restore():
        restored = _restore(scratch, env, root)
        if restored:
            parts.append(restored)
    from session_kit.hooks.start import session_budget_may_be_set

    answer: dict[str, object] = {}
    if session_budget_may_be_set(env, root):
        from session_kit.hooks.budget import prompt_answer

        answer = prompt_answer(event, env, root, event.prompt)
    if answer.get("decision") == "block":  # past the session's budget: the prompt goes nowhere
        return fastjson.dumps(answer) + "\n"
    if parts:
        answer["hookSpecificOutput"] = {"hookEventName": "UserPromptSubmit", "additionalContext": "\n\n".join(parts)}
    return fastjson.dumps(answer) + "\n" if answer else ""


def _capture(event: HookEvent, env: Mapping[str, str], root: str, scratch: SessionScratch) -> None:
    """Bring the working memory up to date from the event's transcript, in a child process
    the client does not wait for (the next reader waits for it: `capture_in_background`),
    forked once the hook's output is written (`hookio.later`). Nothing when capture is off or the
    event names no transcript."""
    from session_kit.memory.capture import capture_in_background
    from session_kit.memory.settings import memory_settings

    settings = memory_settings(root, env)
    transcript = event.transcript_path
    if not settings.capture or transcript is None:
        return
    later(
        lambda: capture_in_background(
            scratch.path,
            transcript,
            settings,
            log=lambda line: state.log(root, line),
            agent_id=event.agent_id,
            session_id=scratch.session_id,
            summary=event.compact_summary,
            trigger=event.trigger,
        )
    )


def pre_compact(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    scratch = _scratch(event, env, root).create()
    if event.agent_id is None:  # a subagent's compaction restores nothing of the session's
        scratch.snapshot(event.trigger or "compact")
    _capture(event, env, root, scratch)
    from session_kit.hooks.fresh import index

    index(event, root)
    return ""


def post_compact(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    _capture(event, env, root, _scratch(event, env, root).create())
    return ""


# By the hook's argument, as `base.hook_events.HOOK_EVENTS` names them: those `hooks.start` leaves
# here (a test keeps every table and `start.MODULES` the same; the events table is not imported:
# one module less for every hook).
HANDLERS: dict[str, Callable[[HookEvent, Mapping[str, str], str], str]] = {
    "session-start": session_start,
    "user-prompt-submit": user_prompt_submit,
    "pre-compact": pre_compact,
    "post-compact": post_compact,
}


def main(argv: list[str], *, stdin: object = None, env: Mapping[str, str] | None = None) -> int:
    """Run one hook; always returns 0 (`hookio.run`)."""
    return run(argv[0] if argv else "?", HANDLERS, stdin=stdin, env=env)

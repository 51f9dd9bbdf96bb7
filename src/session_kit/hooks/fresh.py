"""Stop and SessionEnd: what a session wrote kept in the index and the archive. Standard library
only (plus `state`; `index.background` and `archive` load what they need in their children).

Owns: Stop (the end of each of the model's turns: the transcript journaled for the index, and
what the session gained indexed in a child the client does not wait for, `index.background`;
nothing where the Claude root has no index yet) and SessionEnd (that, and the session's new
bytes copied into the archive in a child, `archive.background`, when the archive is on). The
children are forked once the hook's output is written (`hookio.later`). `index` and `archive`
are also what PreCompact and the SessionStart of a session already written start
(`handlers`). `hooks.start` starts these two hooks here, without the other hooks' handlers:
Stop runs after each of the model's turns.
"""

from __future__ import annotations

import os

from session_kit.hooks.hookio import HookEvent, later, run
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def archive(event: HookEvent, env: Mapping[str, str], root: str) -> None:
    """Copy the session's new bytes into the archive, in a child the client does not wait for."""
    from session_kit.archive.settings import archive_settings

    transcript = event.transcript_path
    if transcript is None or not archive_settings(root, env).enabled:
        return
    if not os.path.isfile(transcript):
        return
    from session_kit.archive.background import archive_in_background

    later(lambda: archive_in_background(root, transcript, log=lambda line: state.log(root, line)))


def index(event: HookEvent, root: str) -> None:
    """Keep the index fresh: the transcript journaled now, what the session gained indexed in
    a child the client does not wait for (`index.background`; nothing where the Claude root
    has no index yet)."""
    transcript = event.transcript_path
    if transcript is None:
        return
    from session_kit.index.background import index_in_background, journaled

    claude_root = journaled(root, transcript)
    if claude_root is not None:
        log = lambda line: state.log(root, line)  # noqa: E731
        later(lambda: index_in_background(root, claude_root, transcript, log=log))


def session_end(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    archive(event, env, root)
    index(event, root)
    return ""


def stop(event: HookEvent, env: Mapping[str, str], root: str) -> str:
    """The end of each of the model's turns: the index takes in what the turn wrote."""
    index(event, root)
    return ""


# By the hook's argument (`base.hook_events.HOOK_EVENTS`): the hooks `hooks.start` starts here.
HOOKS = {"stop": stop, "session-end": session_end}


def main(argv: list[str], *, stdin: object = None, env: Mapping[str, str] | None = None) -> int:
    """Run Stop or SessionEnd; always returns 0 (`hookio.run`)."""
    return run(argv[0] if argv else "?", HOOKS, stdin=stdin, env=env)

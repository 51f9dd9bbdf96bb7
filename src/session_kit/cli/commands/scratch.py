"""`scratch …`: the session's scratch directory and its work state, from the command line.

Owns: the scratch subcommands' options and output, wording the scratch errors, and what a
`--session` may name here: an id with a scratch dir, else what `sessions.resolve` resolves (an
id prefix, a path), else nothing (refused, exit 3) unless `--create`. Which directory a session
has, which session is current, what a valid key is and what cleaning may remove are
`state.scratch`'s and `state.current`'s. Loads transcripts' code only to resolve a `--session`
that has no scratch dir: these commands run inside sessions, often.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import TYPE_CHECKING, TypeVar

import click

from session_kit import api
from session_kit.cli.context import Kit, json_option, pass_kit
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.style import id_width
from session_kit.cli.text import local_time, plural
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_BAD_FILE, EXIT_NOT_FOUND, BadFile, KitError, NotFound

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.state.scratch import SessionScratch

F = TypeVar("F", bound=Callable[..., object])
DURATION_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


@click.group(
    # `scratch` alone: a one-line usage error naming the subcommands, not the whole help on stderr
    no_args_is_help=False,
    invoke_without_command=True,
    epilog=epilog(
        'session-kit scratch set current-task "step 3 of 5: the parser"',
        'session-kit scratch note "tests/test_parser.py is flaky"',
        "session-kit scratch show --session 3f2a",
        "session-kit scratch clean --older-than 30d --dry-run",
        codes=(EXIT_NOT_FOUND, EXIT_AMBIGUOUS, EXIT_BAD_FILE),
        meaning={
            EXIT_NOT_FOUND: "no such session (or no value under that key)",
            EXIT_BAD_FILE: "the state file is damaged or a folder is a symlink (left as it was)",
        },
    ),
)
def scratch() -> None:
    """The session's scratch directory and its work state (values and notes).

    The session is --session (an id, a unique id prefix or a transcript's path, resolved as
    every command resolves a SESSION; an unknown one is refused unless --create), else
    $SESSION_CONTEXT / $CLAUDE_CODE_SESSION_ID (the kit's hooks export them), else the
    current project's `current-session-id` pointer. The work state is put back into the
    model's context after a compaction.
    """
    ctx = click.get_current_context()
    if ctx.invoked_subcommand is None:
        raise click.UsageError(f"scratch needs a subcommand: {', '.join(sorted(scratch.commands))}", ctx)


def session_id_option(func: F) -> F:
    func = click.option(
        "--create",
        is_flag=True,
        help="With --session: start a scratch dir for a session the kit does not know (no transcript yet).",
    )(func)
    return click.option(
        "--session",
        "session_id",
        default=None,
        help="Session id, unique id prefix or transcript path (default: the current session).",
    )(func)


@contextmanager
def _scratch_errors() -> Iterator[None]:
    """The scratch module's errors as KitErrors, worded for the command line."""
    try:
        yield
    except (api.StateFileDamaged, api.UnsafePath) as exc:
        raise BadFile(str(exc), path=exc.path) from None
    except api.NoCurrentSession:
        raise NotFound(
            "no session: pass --session, or run inside a Claude Code session with the kit's hooks installed"
        ) from None
    except (api.ScratchError, api.InvalidSessionId) as exc:
        raise KitError(str(exc)) from None


def _scratch(session_id: str | None, *, create: bool = False) -> SessionScratch:
    """The scratch dir `--session` names: refused when it names no session (a typo must not
    save into a made-up one), unless `create`."""
    with _scratch_errors():
        if session_id is None:
            return api.scratch_of(None)
        if not session_id.endswith(".jsonl"):
            exact = api.scratch_of(session_id)  # refuses an id that cannot name a dir
            # a dir the SessionStart hook made: the session exists, its transcript maybe not yet
            if exact.exists() or create:
                return exact
        try:
            ref = api.resolve_session(session_id, api.claude_root())
        except NotFound:
            if create:  # a path that names no transcript
                raise
            raise NotFound(
                f"no session matches {session_id!r} (no transcript, no scratch dir); --create starts a scratch dir for it"
            ) from None
        return api.scratch_of(ref.id)


def _read_input(value: str) -> str:
    """The value itself, or stdin for `-`. Bytes that are not UTF-8 are kept (as Python keeps
    them in arguments: surrogateescape), so `get` gives back exactly what was saved."""
    if value != "-":
        return value
    stream = getattr(sys.stdin, "buffer", None)
    return stream.read().decode("utf-8", "surrogateescape") if stream is not None else sys.stdin.read()


def _echo(text: str) -> None:
    """`text` and a newline on stdout, bytes that were not UTF-8 given back as they came."""
    try:
        data = (text + "\n").encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that came from JSON, not from bytes: show it escaped
        data = (text + "\n").encode("utf-8", "backslashreplace")
    stream = getattr(sys.stdout, "buffer", None)
    if stream is None:  # a text-only stream (a test runner's): the closest text
        click.echo(data.decode("utf-8", "replace"), nl=False)
        return
    sys.stdout.flush()
    stream.write(data)
    stream.flush()


@scratch.command("path")
@session_id_option
def scratch_path(session_id: str | None, create: bool) -> None:
    """Print the scratch directory (created if missing)."""
    with _scratch_errors():
        path = _scratch(session_id, create=create).create().path
    click.echo(path)


@scratch.command("set")
@click.argument("key")
@click.argument("value")
@session_id_option
def scratch_set(key: str, value: str, session_id: str | None, create: bool) -> None:
    """Save VALUE under KEY (`-` reads the value from stdin)."""
    value = _read_input(value)
    s = _scratch(session_id, create=create)
    with _scratch_errors():
        s.set(key, value)
    click.echo(f"saved {key} ({len(value)} chars) in {s.path}")


@scratch.command("get")
@click.argument("key")
@session_id_option
def scratch_get(key: str, session_id: str | None, create: bool) -> None:
    """Print the value saved under KEY (exit 3 when there is none)."""
    with _scratch_errors():
        value = _scratch(session_id, create=create).get(key)
    if value is None:
        raise NotFound(f"no value saved under {key!r}")
    _echo(value)


@scratch.command("unset")
@click.argument("key")
@session_id_option
def scratch_unset(key: str, session_id: str | None, create: bool) -> None:
    """Forget the value saved under KEY."""
    with _scratch_errors():
        found = _scratch(session_id, create=create).unset(key)
    if not found:
        raise NotFound(f"no value saved under {key!r}")


@scratch.command("note")
@click.argument("text")
@session_id_option
def scratch_note(text: str, session_id: str | None, create: bool) -> None:
    """Append a timestamped note (`-` reads it from stdin)."""
    text = _read_input(text)
    s = _scratch(session_id, create=create)
    with _scratch_errors():
        s.note(text)
    click.echo(f"noted in {s.path}")


@scratch.command("show")
@session_id_option
@json_option
@pass_kit
def scratch_show(kit: Kit, session_id: str | None, create: bool) -> None:
    """The work state: values and notes."""
    s = _scratch(session_id, create=create)
    with _scratch_errors():
        current = s.read_state()
    if kit.as_json:
        emit_json("scratch-show", {"session_id": s.session_id, "path": s.path, **current}, redact=False)
        return
    _echo(api.render_state(current, session_id=s.session_id, scratch_path=s.path, limit=10**9, heading="Work state"))


@scratch.command("list")
@json_option
@pass_kit
def scratch_list(kit: Kit) -> None:
    """Every session's scratch directory, newest activity first."""
    root = api.state_root()
    rows = api.scratch_overview(root)
    if kit.as_json:
        for r in rows:
            r["last_activity"] = datetime.fromtimestamp(r["last_activity"]).astimezone().isoformat()
        emit_json("scratch-list", {"state_root": root, "sessions": rows}, redact=False)
        return
    if not rows:
        click.echo(f"No scratch directories under {root}.")
    ids = id_width()
    for r in rows:
        when = local_time(datetime.fromtimestamp(r["last_activity"], timezone.utc))
        sid = r["session_id"][:ids]
        say(
            f"{sid:<{ids}}  {when}  {plural(r['values'], 'value'):>10}  {plural(r['notes'], 'note'):>9}  {r['project']}"
        )


def _seconds(text: str) -> float:
    """`7d`, `12h`, `30m`, `45s`, `2w`; a bare number is days."""
    try:
        if text and text[-1] in DURATION_UNITS:
            return float(text[:-1]) * DURATION_UNITS[text[-1]]
        return float(text) * DURATION_UNITS["d"]
    except ValueError:
        raise KitError(f"not a duration: {text!r} (e.g. 7d, 12h, 30m)") from None


@scratch.command("clean")
@click.option(
    "--older-than", "older_than", default="30d", show_default=True, help="Idle for longer than this (s, m, h, d, w)."
)
@click.option("--dry-run", is_flag=True, help="List what would be removed.")
def scratch_clean(older_than: str, dry_run: bool) -> None:
    """Remove scratch directories idle for longer than --older-than; never the current session's."""
    removed = api.clean_scratch(api.state_root(), older_than_s=_seconds(older_than), dry_run=dry_run)
    for path in removed:
        click.echo(("would remove " if dry_run else "removed ") + path)
    if not removed:
        click.echo("nothing to clean")

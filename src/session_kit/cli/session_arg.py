"""The one way a command takes a session: `[SESSION]`, `current` when none, `--session` as alias.

Owns: the SESSION argument and its `--session` alias (slash commands pass
`--session "${CLAUDE_SESSION_ID}"`), their shell completion (session ids, from
`queries.completion`), the usage error when both are given, and turning the
choice into a `SessionRef` (empty means `current`) with `sessions.resolve`, which owns what
a SESSION may be. The scratch subcommands take `--session` alone: theirs is an exact id.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from session_kit import api
from session_kit.cli.context import Kit
from session_kit.errors import EXIT_AMBIGUOUS, EXIT_NOT_FOUND

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.sessions.store import SessionRef

F = TypeVar("F", bound=Callable[..., Any])

SESSION_CODES = (EXIT_NOT_FOUND, EXIT_AMBIGUOUS)  # a command about one session: none or several match
SESSION_OPTION_HELP = "The same as SESSION (the form slash commands use)."


def complete_session(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a SESSION: the current project's session ids first."""
    from click.shell_completion import CompletionItem

    kit = ctx.find_object(Kit)
    root = kit.root if kit is not None else api.claude_root()
    return [CompletionItem(c.value, help=c.help) for c in api.session_candidates(root, incomplete)]


def session_alias_option(func: F) -> F:
    return click.option(
        "--session",
        "session_option",
        default=None,
        metavar="SESSION",
        help=SESSION_OPTION_HELP,
        shell_complete=complete_session,
    )(func)


def chosen_session(positional: str | None, option: str | None) -> str:
    """SESSION or `--session`, which must not both be given; `current` when neither is."""
    if positional is not None and option is not None:
        raise click.UsageError("give the session as SESSION or with --session, not both", click.get_current_context())
    chosen = option if option is not None else positional
    return chosen or api.CURRENT


def session_argument(command: F) -> F:
    """`[SESSION]` and `--session` for `command`, which receives one `session: str`."""

    @functools.wraps(command)
    def with_session(*args: Any, session: str | None, session_option: str | None, **kwargs: Any) -> Any:
        return command(*args, session=chosen_session(session, session_option), **kwargs)

    argument = click.argument("session", required=False, metavar="[SESSION]", shell_complete=complete_session)
    return argument(session_alias_option(with_session))  # type: ignore[return-value]


def resolve(kit: Kit, session: str) -> SessionRef:
    """The session a SESSION value names, in the Claude root the shared options chose; one
    line on stderr when it is read from the kit's archive (the client deleted it)."""
    ref = api.resolve_session(session or api.CURRENT, kit.root)
    if ref.archived:
        click.echo(
            f"session-kit: {ref.id} is read from the kit's archive (the client's transcript is gone; "
            f"`session-kit restore {ref.id}` puts it back)",
            err=True,
        )
    elif ref.earlier_entries:
        click.echo(
            f"session-kit: {ref.earlier_entries} earlier entries of {ref.id} are read from the kit's archive "
            "(the client rewrote its transcript without them)",
            err=True,
        )
    return ref

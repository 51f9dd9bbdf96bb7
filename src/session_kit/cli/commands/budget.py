"""`session-kit budget`: where a session stands against its budget, and raising it or turning
it off for that session.

Owns: its options and its text output. The report and the change are `queries.budget`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.errors import KitError


@click.command(
    epilog=epilog(
        "session-kit budget                      # where the current session stands",
        "session-kit budget 3f2a --raise '$2'    # let a session past its budget go on",
        "session-kit budget --off                # no budget for the current session",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option(
    "--raise", "raise_by", metavar="AMOUNT", help="Raise this session's budget by AMOUNT ($2, or 500k tokens)."
)
@click.option("--off", is_flag=True, help="Turn the budget off for this session.")
@shared_options
@pass_kit
def budget(kit: Kit, session: str, raise_by: str | None, off: bool) -> None:
    """Where the session stands against its budget: spent, the budget, and what is left.

    SESSION defaults to `current`. The budget per session is set by SESSION_KIT_SESSION_BUDGET
    or session.budget in the kit's config file ($5, or tokens: 2m); at 80% the person is told
    once, at 100% new prompts are blocked and tool calls denied. --raise AMOUNT adds to it for
    this session, --off turns it off for this session; nothing else changes.
    """
    if raise_by is not None and off:
        raise KitError("--raise and --off go alone")
    ref = resolve(kit, session)
    state_root = api.state_root()
    if raise_by is not None or off:
        report = api.change_session_budget(ref, state_root=state_root, raise_by=raise_by, off=off)
    else:
        report = api.session_budget(ref, state_root=state_root)
    for problem in report["problems"]:
        click.echo(f"session-kit: note: {problem}", err=True)
    if kit.as_json:
        emit_json("budget", report)
    else:
        say(api.budget_sentence(report))

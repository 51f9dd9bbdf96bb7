"""`session-kit plan`: a session's latest plan, or all of them.

Owns: its options and its text output. Where plans come from is `queries.plans`'.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say, say_lines
from session_kit.cli.outcomes import (
    plan_source,
)
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.cli.text import clock, visible


@click.command(
    epilog=epilog(
        "session-kit plan              # the current session's latest plan",
        "session-kit plan 3f2a --all   # every plan of a session, oldest first",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--all", "all_plans", is_flag=True, help="Every plan of the session, oldest first.")
@no_redact_option
@shared_options
@pass_kit
def plan(kit: Kit, session: str, all_plans: bool) -> None:
    """The session's latest plan, or all of them in order (--all).

    SESSION defaults to `current`; `--session` is the same. Plans come from ExitPlanMode
    calls (the session's and its agents'), the final answers of Plan agents, and plan files
    that this session named or wrote (the `plansDirectory` setting, else the Claude root's
    plans/); never another session's. No plan: a line saying so, exit 0.
    """
    ref = resolve(kit, session)
    plans = api.session_plans(ref, root=kit.root)
    chosen = plans if all_plans else plans[-1:]
    if kit.as_json:
        emit_json(
            "plan",
            {"session_id": ref.id, "path": str(ref.path), "count": len(plans), "plans": [p.as_dict() for p in chosen]},
        )
        return
    if not plans:
        click.echo(f"No plan in session {ref.id}: no ExitPlanMode call, Plan agent answer or plan file of its own.")
        return
    first_number = len(plans) - len(chosen) + 1
    for number, p in enumerate(chosen, start=first_number):
        who = f"agent {p.agent_id}" if p.agent_id else "the main conversation"
        where = (
            f"{p.path}" + (f" (linked by {p.linked_by})" if p.linked_by else "")
            if p.source == api.SOURCE_PLAN_FILE
            else who
        )
        status = (
            f", {'refused' if p.status == api.STATUS_ERROR else p.status}"
            if p.status and p.status != api.STATUS_OK
            else ""
        )
        if number > first_number:
            click.echo("")
        say(f"Plan {number} of {len(plans)} — {plan_source(p.source)}, {where}, {clock(p.timestamp)}{status}")
        click.echo("")
        if p.file_found is False:
            say(f"(the plan file {p.path} was not found: the session's ExitPlanMode call named it)")
        else:
            say_lines(visible(p.text).rstrip())

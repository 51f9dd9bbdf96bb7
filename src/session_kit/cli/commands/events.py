"""`session-kit events`: a session's tool-call timeline, its subagents' calls included.

Owns: its options and its text output. The timeline and its filters are `queries.timeline`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.helptext import epilog
from session_kit.cli.outcomes import (
    call_outcome,
)
from session_kit.cli.output import (
    FAILURE,
    clip,
    echo,
    emit_json,
    local_time,
    paint,
    warn_skipped,
)
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument


@click.command(
    epilog=epilog(
        "session-kit events --errors             # the failed calls of the current session",
        "session-kit events 3f2a --tool Bash --main-only",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--errors", "errors_only", is_flag=True, help="Only failed calls.")
@click.option("--tool", "tool_name", default=None, help="Only calls of this tool (case-insensitive).")
@click.option("--main-only", is_flag=True, help="Leave out the calls made inside subagents.")
@no_redact_option
@shared_options
@pass_kit
def events(kit: Kit, session: str, errors_only: bool, tool_name: str | None, main_only: bool) -> None:
    """The tool-call timeline, subagents' calls included: each call with its input summary,
    duration and outcome.

    SESSION defaults to `current`; `--session` is the same.
    """
    ref = resolve(kit, session)
    timeline = api.session_timeline(ref, with_agents=not main_only, errors_only=errors_only, tool=tool_name)
    if kit.as_json:
        emit_json("events", timeline.as_dict())
        return
    warn_skipped(timeline.read, ref.path)
    if not timeline.calls:
        click.echo("No matching tool calls.")
        return
    for c in timeline.calls:
        took, mark, code = call_outcome(c)
        where = f"[{c.agent_id[:8]}] " if c.agent_id else ""
        outcome = f"{mark:<4}{code}"
        echo(
            f"{local_time(c.started)}  {took:>7}  {paint(outcome, FAILURE) if c.failed else outcome}  "
            f"{where}{c.name:<12} {clip(c.summary, 90)}"
        )
        if c.failed and c.error:
            echo(f"{'':>31}└ {paint(clip(c.error, 110), FAILURE)}")

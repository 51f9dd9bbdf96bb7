"""`session-kit events`: a session's tool-call timeline, its subagents' calls included.

Owns: its options and its text output. The timeline and its filters are `queries.timeline`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.outcomes import (
    call_outcome,
)
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.cli.streams import warn_skipped
from session_kit.cli.style import FAILURE, echo, paint, terminal_width
from session_kit.cli.tables import Column, table
from session_kit.cli.text import clip, local_time

SUMMARY_MIN = 16  # columns the summary keeps before TOOK, then AGENT, are left out
PIPE_SUMMARY = 200  # into a pipe (no width to fit): the summary's first characters


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
    agents = any(c.agent_id for c in timeline.calls)
    columns = [
        Column("TIME"),
        Column("TOOK", right=True, drop=1),
        Column("STATUS"),
        *([Column("AGENT", drop=2)] if agents else []),
        Column("TOOL"),
        Column("SUMMARY", flex=True),
    ]
    rows, outcomes = [], []
    for c in timeline.calls:
        took, mark, code = call_outcome(c)
        outcomes.append(mark + code)
        agent = [c.agent_id[:8] if c.agent_id else "-"] if agents else []
        rows.append([local_time(c.started), took, mark + code, *agent, c.name, clip(c.summary, PIPE_SUMMARY)])
    width = terminal_width()
    head, *lines = table(columns, rows, width=width, flex_min=SUMMARY_MIN, flex_cap=PIPE_SUMMARY)
    echo(head)
    # the error goes under STATUS (where it starts: the TOOK column may have been left out)
    under = head.index("STATUS")
    for c, line, outcome in zip(timeline.calls, lines, outcomes):
        echo(line.replace(outcome, paint(outcome, FAILURE), 1) if c.failed else line)
        if c.failed and c.error:
            room = max(8, width - under - 2) if width is not None else 110
            echo(f"{'':>{under}}└ {paint(clip(c.error, room), FAILURE)}")

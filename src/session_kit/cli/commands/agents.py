"""`session-kit agents`: a session's subagents as they are now (running, stalled, finished, failed,
stopped).

Owns: its options, the `--watch` loop (redrawn in place on a terminal, one report after the
other into a pipe) and its text output. Each agent's status and figures are
`queries.live_agents`'s (the agent model and the hooks' live record together).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.cli.style import FAILURE, paint
from session_kit.cli.text import clip, human_duration, plural
from session_kit.cli.tokens import FLOOR, human_tokens

TEXT_LIMIT = 200  # characters of a last message or a tool call in the list
CLEAR = "\x1b[H\x1b[2J"  # cursor home, clear the screen: the watch redrawn in place


@click.command(
    epilog=epilog(
        "session-kit agents                       # the current session's subagents, now",
        "session-kit agents --watch               # the same, refreshed every 2 seconds",
        "session-kit agents 3f2a --stalled-after 30s --json",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--watch", is_flag=True, help="Refresh until interrupted (in place on a terminal).")
@click.option(
    "--interval", type=click.FloatRange(min=0.2), default=2.0, show_default=True, help="Seconds between refreshes."
)
@click.option(
    "--stalled-after",
    "stalled_after",
    metavar="MIN",
    default=None,
    help="A running agent whose log has not grown for this long is stalled: minutes (10, 0.5) or 30s, 2m, 1h "
    "[default: 10, or agents.stalled_after_minutes in the config file].",
)
@no_redact_option
@shared_options
@pass_kit
def agents(kit: Kit, session: str, watch: bool, interval: float, stalled_after: str | None) -> None:
    """The session's subagents now: running, stalled, finished, failed or stopped.

    SESSION defaults to `current`; `--session` is the same. For each agent: its status
    (stalled: still running, and its log has not grown for --stalled-after), elapsed time,
    tokens so far (and its budget, when one is set: SESSION_KIT_AGENT_BUDGET), what it is
    doing now (its latest tool call) or, once finished, its last message. What the kit's
    hooks saw (SubagentStart, SubagentStop) and what the transcript and the agents' logs say
    are put together; without the hooks, the logs alone tell running from stalled.
    """
    threshold = api.stall_threshold(stalled_after) if stalled_after is not None else None
    ref = resolve(kit, session)
    root = api.state_root()
    try:
        while True:
            report = api.live_agents(ref, state_root=root, stalled_after_s=threshold)
            if kit.as_json:
                emit_json("agents", report.as_dict())
            else:
                if watch and sys.stdout.isatty():
                    getattr(sys.stdout, "wrapped", sys.stdout).write(CLEAR)
                _print(report)
            if not watch:
                return
            sys.stdout.flush()
            time.sleep(interval)
            if not kit.as_json and not sys.stdout.isatty():
                say("")
    except KeyboardInterrupt:  # the way out of --watch
        return


def _print(report: Any) -> None:
    counts = [f"{n} {status}" for status in api.LIVE_STATUSES if (n := report.count(status))]
    head = f"Session {report.ref.id}: {plural(len(report.agents), 'agent')}"
    say(head + (" · " + " · ".join(counts) if counts else ""))
    if not report.agents:
        say("No subagents in this session.")
        return
    if not report.hooks_seen:
        say("(the kit's SubagentStart/SubagentStop hooks saw none of them: statuses from the logs alone)")
    for agent in report.agents:
        status = agent.status
        if status == api.AGENT_STALLED:
            status = paint(f"{status} {human_duration(agent.idle_s)}", FAILURE)
        elif status == api.AGENT_FAILED:
            status = paint(status, FAILURE)
        say(
            f"  {agent.agent_id[:12]}  {agent.agent_type or '?'}  {status}  "
            f"{human_duration(agent.elapsed_s)}  {_tokens_text(agent)}"
        )
        if agent.description:
            say(f"      {clip(agent.description, TEXT_LIMIT)}")
        if agent.doing:
            say(f"      now: {clip(agent.doing, TEXT_LIMIT)}")
        elif agent.last_message and agent.status in api.AGENT_ENDED:
            say(f"      last: {clip(agent.last_message, TEXT_LIMIT)}")


def _tokens_text(agent: Any) -> str:
    """`360 tokens`; with a budget `360 of 50 tokens (over budget; 2 calls denied)`."""
    used = "? tokens" if agent.tokens is None else (FLOOR if agent.tokens_floor else "") + human_tokens(agent.tokens)
    if agent.budget is None:
        text = used if agent.tokens is None else used + " tokens"
    else:
        text = f"{used.removesuffix(' tokens')} of {human_tokens(agent.budget)} tokens"
    notes = [paint("over budget", FAILURE)] if agent.budget is not None and agent.over_budget else []
    if agent.denied_calls:
        notes.append(f"{plural(agent.denied_calls, 'call')} denied")
    return text + (f" ({'; '.join(notes)})" if notes else "")

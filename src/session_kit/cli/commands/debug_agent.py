"""`session-kit debug-agent`: what a session's subagents were asked, did, and why they failed.

Owns: its options, the reading of its positionals (`[SESSION] [AGENT]`; with `--session`, a
single one is the AGENT) and its text output. Which agents are shown and their calls are
`queries.agent_tree`'s; each figure and its source `sessions.agent_run`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.outcomes import (
    FROM,
    agent_answer,
    agent_calls,
    agent_status,
    call_outcome,
)
from session_kit.cli.session_arg import SESSION_CODES, chosen_session, complete_session, resolve, session_alias_option
from session_kit.cli.streams import warn_skipped
from session_kit.cli.style import FAILURE, paint
from session_kit.cli.team import only_local, print_agents, team_option
from session_kit.cli.text import as_is, clip, clock, human_duration, plural, visible
from session_kit.cli.tokens import agent_tokens
from session_kit.errors import TEAM_CODES

if TYPE_CHECKING:  # types for annotations alone: nothing at run time loads their modules
    from session_kit.queries.agent_tree import AgentNode, AgentReport
    from session_kit.sessions.agents import AgentRun

ERROR_LIMIT = 500  # characters of an error shown in a list of agents (--full: all)
DETAIL_ERROR_LIMIT = 2000  # … and for one agent shown in detail
TEXT_LIMIT = 300  # a prompt or answer in a list of agents
OTHERS_NAMED = 10  # agents named on the "not shown" line


def session_and_agent(first: str | None, second: str | None, session_option: str | None) -> tuple[str, str | None]:
    """`[SESSION] [AGENT]`; with `--session`, one positional is the AGENT (the slash command's
    `debug-agent <agent-prefix> --session <id>`)."""
    if session_option is not None and second is None:
        return chosen_session(None, session_option), first
    return chosen_session(first, session_option), second


@click.command(
    "debug-agent",
    epilog=epilog(
        "session-kit debug-agent                   # the failed agents of the current session",
        "session-kit debug-agent --type Plan       # the Plan agents, failed or not",
        "session-kit debug-agent 3f2a a91c --full  # one agent of a session, in detail",
        "session-kit debug-agent 3f2a --team       # the failed agents of a session in the team database",
        codes=(*SESSION_CODES, *TEAM_CODES),
    ),
)
@click.argument("first", required=False, metavar="[SESSION]", shell_complete=complete_session)
@click.argument("second", required=False, metavar="[AGENT]")
@session_alias_option
@click.option("--all", "all_agents", is_flag=True, help="Every agent, not only the failed ones.")
@click.option(
    "--type", "agent_type", default=None, help="The agents of this type (Plan, general-purpose…), failed or not."
)
@click.option(
    "--tool", "tool_name", default=None, help="The agents that called this tool, failed or not, and only those calls."
)
@click.option("--full", is_flag=True, help="Errors, prompts and answers whole, never cut.")
@team_option
@no_redact_option
@shared_options
@pass_kit
def debug_agent(
    kit: Kit,
    first: str | None,
    second: str | None,
    session_option: str | None,
    all_agents: bool,
    agent_type: str | None,
    tool_name: str | None,
    full: bool,
    team: bool,
) -> None:
    """What the session's subagents were asked, what they did, what failed and why.

    SESSION defaults to `current` (`--session` is the same; with it, a lone argument is the
    AGENT). By default the failed agents (a tool call failed, or the agent ended in error),
    then one line naming the rest; AGENT (an id prefix) shows one agent in detail; --all
    shows every agent. An agent started by an agent is shown under it. Error text is printed
    as written, cut at a few hundred characters unless --full (--json never cuts). A figure
    not read from the agent's own log says where it came from (its result, its ending); a
    background agent runs until a line says it ended; tokens marked ≥ are a floor.

    --team reads the session from the team database (`session-kit sync`): its agents (AGENT:
    an id prefix or a type) with their failed calls, as the machine that ran it pushed them.
    """
    session, agent = session_and_agent(first, second, session_option)
    if team:
        only_local(type=agent_type, tool=tool_name)
        given = resolve(kit, session).id if session == api.CURRENT else session
        found, agents = api.team_agents(given, agent, state_root=api.state_root())
        print_agents(kit, found, agents, all_agents=all_agents or bool(agent))
        return
    ref = resolve(kit, session)
    report = api.debug_agents(ref, agent=agent, all_agents=all_agents, agent_type=agent_type, tool=tool_name)
    if kit.as_json:
        emit_json("debug-agent", report.as_dict())
        return
    _print_agents(
        report, agent=agent, all_agents=all_agents, narrowed=bool(agent or agent_type or tool_name), full=full
    )


def _print_agents(report: AgentReport, *, agent: str | None, all_agents: bool, narrowed: bool, full: bool) -> None:
    picked = report.selection
    warn_skipped(report.read, report.ref.path)
    say(f"Session {report.ref.id}: {plural(picked.total, 'agent')}, {picked.failed} failed")
    for logs, name in (
        ([w for w in report.warmups if not w.compaction], "warmup log"),
        ([w for w in report.warmups if w.compaction], "compaction summariser's log"),
    ):
        if logs:
            ids = ", ".join(w.agent_id for w in logs)
            say(f"({plural(len(logs), name)} left out, not agents of the conversation: {ids})")
    if not picked.total:
        say("No subagents in this session.")
        return
    for node in picked.shown:
        say("")
        _print_agent(report, node, detail=agent is not None, every_call=agent is not None or all_agents, full=full)
    if picked.others:
        named = ", ".join(
            f"{n.run.agent_id} [{n.run.agent_type or '?'}] {clip(n.run.description, 40)} ({agent_status(n.run)})"
            for n in picked.others[:OTHERS_NAMED]
        )
        more = f" and {len(picked.others) - OTHERS_NAMED} more" if len(picked.others) > OTHERS_NAMED else ""
        say("")
        label = "not shown" if narrowed else "not failed"
        say(f"{plural(len(picked.others), 'other agent')} ({label}): {named}{more}")
        if not agent and not all_agents:
            # AGENT alone would be taken for a SESSION: the hint names both
            say(
                "(`session-kit debug-agent SESSION --all` shows every agent; `session-kit debug-agent SESSION AGENT` one in detail)"
            )


def _print_agent(report: AgentReport, node: AgentNode, *, detail: bool, every_call: bool, full: bool) -> None:
    run = node.run
    pad = "  " * node.depth
    inner = pad + "  "
    # the head line; the error itself is printed under it
    status = agent_status(run)
    say(
        f"{pad}{run.agent_id}  [{run.agent_type or '?'}] {clip(run.description, 70)}  "
        + (paint(status, FAILURE) if run.failed else status)
    )
    spawned = f"agent {run.parent_agent_id}" if run.parent_agent_id else "the main conversation"
    say(
        f"{inner}ran {clock(run.start)} → {clock(run.end)} ({_took(run)}), {agent_calls(run)}, "
        f"model {run.model or '-'}, spawned by {spawned}" + (f" ({run.tool_use_id})" if run.tool_use_id else "")
    )
    say(f"{inner}tokens: {agent_tokens(report.usage, run.agent_id)}")
    if not run.log_found:
        say(f"{inner}log: not found (known from its spawning call and result)")
    elif detail:
        say(f"{inner}log: {run.log.path} ({run.log.layout} layout)")
        if node.children:
            say(f"{inner}spawned: {', '.join(node.children)}")
        say(f"{inner}prompt:")
        for line in as_is(run.prompt, None if full else DETAIL_ERROR_LIMIT, inner + "  "):
            say(line)
    else:
        _labelled(inner, "asked", run.prompt, None if full else TEXT_LIMIT)
    limit = None if full else (DETAIL_ERROR_LIMIT if detail else ERROR_LIMIT)
    if run.ended_in_error:
        say(f"{inner}ended in error:")
        for line in as_is(run.error, limit, inner + "  "):
            say(line)
    calls = report.calls(node)
    failed = [c for c in calls if c.failed]
    listed = calls if every_call else failed
    what = f" of {report.tool}" if report.tool else ""
    if not run.log_found:  # nothing to list: its count, if any, is its result's
        say(f"{inner}tool calls: {agent_calls(run)}, none listed (no log)")
        listed = []
    else:
        say(f"{inner}tool calls{what}: {len(calls)} ({len(failed)} failed)" + (":" if listed else ""))
    for c in listed:
        took, mark, code = call_outcome(c)
        outcome = f"{mark}{code}"
        say(f"{inner}  {paint(outcome, FAILURE) if c.failed else outcome}  {c.name}  {took}  {visible(c.summary)}")
        if c.failed and c.error:
            for line in as_is(c.error, limit, inner + "      "):
                say(line)
    answer = agent_answer(run) or "(none)"
    if detail:
        say(f"{inner}final answer:")
        for line in as_is(answer, None, inner + "  "):
            say(line)
    else:
        _labelled(inner, "answer", answer, None if full else TEXT_LIMIT)


def _took(run: AgentRun) -> str:
    """How long the agent ran, marked when the figure is not its log's (see `agent_duration`)."""
    seconds, source = run.duration
    took = human_duration(seconds)
    return took if source in (None, "log") else f"{took} {FROM[source]}"


def _labelled(indent: str, label: str, text: str | None, limit: int | None) -> None:
    """`label: text` on one line; a text of several lines under its label, each line indented."""
    lines = as_is(text, limit, indent + "  ")
    if len(lines) == 1:
        say(f"{indent}{label}: {lines[0].strip()}")
        return
    say(f"{indent}{label}:")
    for line in lines:
        say(line)

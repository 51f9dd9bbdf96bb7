"""`session-kit show`: a session summarised (requests, tools, failures, compactions, agents, tokens).

Owns: its options and its text output. The summary is `queries.report`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.outcomes import (
    agent_calls,
    agent_duration,
    agent_status,
)
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.cli.streams import warn_skipped
from session_kit.cli.style import FAILURE, paint
from session_kit.cli.team import print_card, team_option
from session_kit.cli.text import capped, clip, human_duration, human_size, local_time, plural, summary_text
from session_kit.cli.tokens import agent_tokens, usage_lines
from session_kit.errors import TEAM_CODES

SHOW_LIMIT = 20  # items of each list `show` prints without --full


@click.command(
    epilog=epilog(
        "session-kit show                 # the current session",
        "session-kit show 3f2a            # a session by id prefix",
        "session-kit show ~/old.jsonl --full",
        "session-kit show 3f2a --team     # a session of the team database, from any machine",
        codes=(*SESSION_CODES, *TEAM_CODES),
    )
)
@session_argument
@click.option(
    "--full", is_flag=True, help=f"Every item of each list (by default the first {SHOW_LIMIT} and a count of the rest)."
)
@team_option
@no_redact_option
@shared_options
@pass_kit
def show(kit: Kit, session: str, full: bool, team: bool) -> None:
    """Summarise a session: requests, tools, failures, compactions, agents, tokens.

    SESSION defaults to `current`; `--session` is the same. Each list shows its first
    items and how many more there are; --full lists all (--json always has all).

    --team reads the session from the team database (`session-kit sync`): SESSION is an id
    or a unique prefix there (`current`: this machine's current session), shown with the
    machine, user and origin it was pushed from, its tools, failures and agents.
    """
    if team:
        given = resolve(kit, session).id if session == api.CURRENT else session
        print_card(kit, api.team_card(given, state_root=api.state_root()))
        return
    r = api.session_report(resolve(kit, session))
    if kit.as_json:
        emit_json("show", r.as_dict())
        return
    warn_skipped(r.read, r.ref.path)
    say(f"Session {r.ref.id}")
    if r.title:
        say(f"  title:     {clip(r.title, 100)}")
    say(f"  file:      {r.ref.path} ({human_size(r.ref.size)})")
    say(f"  cwd:       {r.cwd or '-'}   branch: {r.branch or '-'}   client: {r.version or '-'}")
    say(f"  time:      {local_time(r.start)} → {local_time(r.end)} ({human_duration(r.duration_s)})")
    # The client's bookkeeping (attachments, progress, api requests…) in one figure: --json has each type.
    types = [f"{k} {v}" for k, v in r.entry_types.items() if k not in api.NOISE_TYPES]
    noise = sum(v for k, v in r.entry_types.items() if k in api.NOISE_TYPES)
    types += [f"client bookkeeping {noise}"] if noise else []
    say(f"  entries:   {sum(r.entry_types.values())} ({', '.join(types)})")
    for line in usage_lines(r.usage):
        say(line)
    say(f"Requests ({len(r.requests)}):")
    requests, more = capped(r.requests, full=full, limit=SHOW_LIMIT)
    for req in requests:
        say(f"  {local_time(req.timestamp)}  {clip(req.text, 100)}")
    _more(more)
    tools = ", ".join(f"{k} {v}" for k, v in r.tools.items()) or "none"
    say(f"Tools ({plural(len(r.calls), 'call')}): {tools}")
    say(f"Failures ({len(r.failures)}):")
    failures, more = capped(r.failures, full=full, limit=SHOW_LIMIT)
    for call in failures:
        code = f" exit {call.exit_code}" if call.exit_code is not None else ""
        say(
            f"  line {call.line}  {paint(call.name + code, FAILURE)}: {clip(call.summary, 60)} — {clip(call.error, 100)}"
        )
    _more(more)
    say(f"Compactions ({len(r.compactions)}):")
    compactions, more = capped(r.compactions, full=full, limit=SHOW_LIMIT)
    for comp in compactions:
        trigger = f" ({comp.trigger})" if comp.trigger else ""
        say(f"  line {comp.line}  {local_time(comp.timestamp)}{trigger}  {clip(summary_text(comp.summary), 100)}")
    _more(more)
    say(f"Agents ({len(r.agents)}):")
    agents, more = capped(r.agents, full=full, limit=SHOW_LIMIT)
    for agent in agents:
        status = agent_status(agent, error_chars=60)
        say(
            f"  {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}  "
            f"{agent_calls(agent)}, {agent_duration(agent)}, {paint(status, FAILURE) if agent.failed else status}, "
            f"{agent_tokens(r.usage, agent.agent_id)}"
        )
    _more(more)


def _more(line: str | None) -> None:
    if line:
        say(f"  {line}")

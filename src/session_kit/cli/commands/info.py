"""`session-kit info`: a session's card.

Owns: its options and its text output. The card is `queries.card`'s.
"""

from __future__ import annotations

import click

from session_kit import api
from session_kit.cli.context import Kit, no_redact_option, pass_kit, shared_options
from session_kit.cli.envelope import emit_json
from session_kit.cli.helptext import epilog
from session_kit.cli.layout import say
from session_kit.cli.outcomes import (
    agent_status,
    plan_source,
)
from session_kit.cli.session_arg import SESSION_CODES, resolve, session_argument
from session_kit.cli.streams import warn_skipped
from session_kit.cli.text import clip, clock, human_duration, human_size, plural, summary_text, visible
from session_kit.cli.tokens import agent_tokens, usage_lines

UNCUT = 10**9


@click.command(
    epilog=epilog(
        "session-kit info                # the current session's card",
        "session-kit info 3f2a --full    # with whole compaction summaries",
        codes=SESSION_CODES,
    )
)
@session_argument
@click.option("--full", is_flag=True, help="Compaction summaries whole, never cut.")
@no_redact_option
@shared_options
@pass_kit
def info(kit: Kit, session: str, full: bool) -> None:
    """A session's card: id, transcript, project, scratch dir, time, compactions (with the
    client's summary), agents (with failures), plans and the keys of its work state.

    SESSION defaults to `current`; `--session` is the same.
    """
    ref = resolve(kit, session)
    card = api.session_card(ref, root=kit.root)
    if kit.as_json:
        emit_json("info", card.as_dict())
        return
    r = card.report
    warn_skipped(r.read, ref.path)
    say(f"Session {ref.id}")
    if r.title:
        say(f"  title:       {visible(r.title)}")
    say(f"  transcript:  {ref.path} ({human_size(ref.size)})")
    say(f"  project:     {ref.project.name} (cwd {r.cwd or '-'}, branch {r.branch or '-'})")
    ws = card.work_state
    if ws is None:
        say("  scratch dir: - (the session id cannot name one)")
    else:
        say(f"  scratch dir: {ws.path}" + ("" if ws.exists else " (not created yet)"))
    say(f"  time:        {clock(r.start)} → {clock(r.end)} ({human_duration(r.duration_s)})")
    for line in usage_lines(r.usage, value_column=15):
        say(line)
    say(f"  compactions: {len(r.compactions)}")
    for comp in r.compactions:
        trigger = f" ({comp.trigger})" if comp.trigger else ""
        say(f"    line {comp.line}  {clock(comp.timestamp)}{trigger}")
        summary = summary_text(comp.summary)
        if summary:
            say(f"      summary: {clip(summary, UNCUT if full else 300)}")
    failed = [a for a in r.agents if a.failed]
    say(f"  agents:      {len(r.agents)}, {len(failed)} failed")
    for agent in r.agents:
        nested = f" (in {agent.parent_agent_id})" if agent.parent_agent_id else ""
        say(
            f"    {agent.agent_id}  [{agent.agent_type or '?'}] {clip(agent.description, 50)}{nested}  "
            f"{agent_status(agent, error_chars=80)}, {agent_tokens(r.usage, agent.agent_id)}"
        )
    latest = card.plans[-1] if card.plans else None
    if latest is None:
        say("  plans:       0")
    else:
        first = next((line.strip() for line in latest.text.splitlines() if line.strip()), "")
        say(
            f"  plans:       {len(card.plans)}; latest ({plan_source(latest.source)}, {clock(latest.timestamp)}): {clip(first, 80)}"
        )
    if ws is not None and ws.exists:
        keys = ", ".join(ws.keys) or "none"
        say(f"  work state:  keys: {keys}; {plural(ws.notes, 'note')}")
    else:
        say("  work state:  none saved")

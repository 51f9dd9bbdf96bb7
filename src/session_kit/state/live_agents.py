"""What the hooks saw of a session's subagents while it runs, and the settings of watching them.
Standard library only: the hooks and the status line import it.

Owns: the live record in the session's scratch dir (`agents-live.json`: per agent id its type,
when SubagentStart and SubagentStop fired, its log and last message as SubagentStop gave them,
and the budget denials of PreToolUse), written under the scratch dir's lock, never for the
client's compaction summariser (its id, or a SubagentStop with no log on disk: 2.1.332 fires
one for it), and read back without any it recorded before; when a record last moved (its
log, else its start); the stall threshold of the `agents` section of the kit's config file
(the budget per subagent is `state.budgets`'). Does not read transcripts or count
tokens (the status line's counting, `usage.filecount.count_file`, does), and does not word or
decide an agent's status (`base.agents`, whose `live_status` the readers ask) or its figures
(the agent model, `sessions.agent_run`; `queries.live_agents` puts the two together).

    {"agents": {"stalled_after_minutes": 10}}
"""

from __future__ import annotations

import os
import time

from session_kit.base import fileio
from session_kit.state import root as state

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

LIVE_FILE = "agents-live.json"
MAX_LIVE_BYTES = 16 << 20
MAX_CONFIG_BYTES = 256 * 1024
MAX_MESSAGE_CHARS = 20_000  # of a last message kept: the head is what a reader needs
STALLED_AFTER_S = 600.0  # the default: ten minutes without a line in the agent's log
COMPACTION_PREFIX = "acompact-"  # `base.agents.COMPACTION_PREFIX`, without loading it in a hook


def live_path(scratch_path: str) -> str:
    return os.path.join(scratch_path, LIVE_FILE)


def read_live(scratch_path: str) -> dict:
    """The live record's agents by id (never the compaction summariser: `not_an_agent`);
    empty when there is none or it cannot be read."""
    try:
        value = fileio.read_json(live_path(scratch_path), MAX_LIVE_BYTES)
    except (OSError, ValueError):
        return {}
    agents = value.get("agents") if isinstance(value, dict) else None
    if not isinstance(agents, dict):
        return {}
    records = {k: _coerced(v) for k, v in agents.items() if isinstance(v, dict)}
    return {k: v for k, v in records.items() if not not_an_agent(k, v)}


_TEXTS = ("type", "started", "stopped", "log", "last_message")
_DENIED_TEXTS = ("first", "last")
_DENIED_COUNTS = ("calls", "budget", "tokens")
MAX_COUNT = 10**15  # a count past this (or Infinity, or a string) was written by hand


def _count(value: object) -> int | None:
    return value if type(value) is int and 0 <= value <= MAX_COUNT else None


def _coerced(record: dict) -> dict:
    """A record as the hooks write it, field by field: a field of the wrong type (a string or
    `Infinity` for a count, a number for a time) is dropped, never an error for its reader;
    fields it does not know are kept as they are."""
    kept = {key: value for key, value in record.items() if key not in _TEXTS and key != "denied"}
    kept.update({key: record[key] for key in _TEXTS if isinstance(record.get(key), str)})
    denied = record.get("denied")
    if isinstance(denied, dict):
        fields = {k: v for k, v in denied.items() if k not in _DENIED_TEXTS and k not in _DENIED_COUNTS}
        fields.update({key: denied[key] for key in _DENIED_TEXTS if isinstance(denied.get(key), str)})
        fields.update({key: _count(denied.get(key)) for key in _DENIED_COUNTS if _count(denied.get(key)) is not None})
        kept["denied"] = fields
    return kept


def not_an_agent(agent_id: str, record: Mapping) -> bool:
    """The client's compaction summariser, which the hooks see as a subagent: its id
    (`acompact-…`), or a stop with no start and no log on disk (2.1.332 fires SubagentStop for
    it with no `agent_transcript_path`, or one that was never written)."""
    if agent_id.startswith(COMPACTION_PREFIX):
        return True
    if not record.get("stopped") or record.get("started"):
        return False
    log = record.get("log")
    return not (isinstance(log, str) and log and os.path.isfile(log))


def _change(scratch_path: str, agent_id: str, change: Mapping) -> dict:
    path = live_path(scratch_path)
    with state.locked(path):
        agents = read_live(scratch_path)
        record = agents.setdefault(agent_id, {})
        for key, value in change.items():
            if value is not None:
                record[key] = value
        fileio.write_json(path, {"agents": agents}, sync=False)
    return record


def record_start(scratch_path: str, agent_id: str, *, agent_type: str | None) -> dict | None:
    if agent_id.startswith(COMPACTION_PREFIX):
        return None
    return _change(scratch_path, agent_id, {"type": agent_type, "started": state.now_iso()})


def record_stop(
    scratch_path: str, agent_id: str, *, agent_type: str | None, log: str | None, last_message: str | None
) -> dict | None:
    """SubagentStop's facts; None (nothing kept) for the compaction summariser (`not_an_agent`)."""
    message = last_message[:MAX_MESSAGE_CHARS] if isinstance(last_message, str) else None
    change = {"type": agent_type, "stopped": state.now_iso(), "log": log, "last_message": message}
    path = live_path(scratch_path)
    with state.locked(path):
        agents = read_live(scratch_path)
        record = {**agents.get(agent_id, {}), **{k: v for k, v in change.items() if v is not None}}
        if not_an_agent(agent_id, record):
            return None
        agents[agent_id] = record
        fileio.write_json(path, {"agents": agents}, sync=False)
    return record


def record_denied(scratch_path: str, agent_id: str, *, agent_type: str | None, budget: int, tokens: int) -> dict:
    path = live_path(scratch_path)
    with state.locked(path):
        agents = read_live(scratch_path)
        record = agents.setdefault(agent_id, {})
        if agent_type:
            record.setdefault("type", agent_type)
        denied = record.get("denied") if isinstance(record.get("denied"), dict) else {}
        denied["calls"] = int(denied.get("calls") or 0) + 1
        denied.setdefault("first", state.now_iso())
        denied.update(budget=budget, tokens=tokens, last=state.now_iso())
        record["denied"] = denied
        fileio.write_json(path, {"agents": agents}, sync=False)
    return record


def agent_log_path(transcript: str, session_id: str, agent_id: str) -> str:
    """Where the current client writes an agent's log: `<session>/subagents/agent-<id>.jsonl`
    beside the session's transcript (a workflow's agents one folder deeper: `find_agent_log`)."""
    from session_kit.base import layout  # here: a subagent's PreToolUse without a budget never needs it

    return layout.agent_log_path(os.path.dirname(transcript), session_id, agent_id)


def find_agent_log(transcript: str, session_id: str, agent_id: str) -> str | None:
    """The agent's log: `transcript` itself when it is the agent's, else under its session."""
    from session_kit.base import layout  # here: a subagent's PreToolUse without a budget never needs it

    if layout.agent_of_name(os.path.basename(transcript)) == agent_id:
        return transcript if os.path.isfile(transcript) else None
    return layout.find_agent_log(os.path.dirname(transcript), session_id, agent_id)


def last_activity(record: Mapping, log_mtime: float | None) -> float | None:
    """When the agent last moved, as far as the hooks know: its log's mtime, else its start."""
    return log_mtime if log_mtime is not None else parse_iso(record.get("started"))


def parse_iso(value: object) -> float | None:
    """Seconds since the epoch of the kit's own `now_iso` stamps (UTC, `…Z`)."""
    if not isinstance(value, str) or len(value) < 19:
        return None
    try:
        whole = time.strptime(value[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    fraction = 0.0
    if len(value) > 20 and value[19] == ".":
        digits = value[20:].rstrip("Z")
        fraction = float("0." + digits) if digits.isdigit() else 0.0
    return _timegm(whole) + fraction


def _timegm(t: time.struct_time) -> float:
    # calendar.timegm without importing calendar
    days = _days_from_civil(t.tm_year, t.tm_mon, t.tm_mday)
    return float(days * 86400 + t.tm_hour * 3600 + t.tm_min * 60 + t.tm_sec)


def _days_from_civil(y: int, m: int, d: int) -> int:
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


# --- settings: the `agents` section of the config file ---------------------------------------


def _config_section(root: str) -> dict:
    config, _problem = fileio.read_json_object(os.path.join(root, "config.json"), MAX_CONFIG_BYTES)
    section = config.get("agents")
    return section if isinstance(section, dict) else {}


def stalled_after_s(root: str) -> float:
    value = _config_section(root).get("stalled_after_minutes")
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value) * 60.0
    return STALLED_AFTER_S

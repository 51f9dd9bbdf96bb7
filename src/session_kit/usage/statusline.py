"""The client's status line: `python3 -I -S .../usage/statusline_main.py`, JSON on stdin.

Prints one line for the session it is run in: its id prefix, tokens and cost so far (its own
transcript and its agents' logs, each API message once, the last line of a message kept, and
agents whose log is gone from their `Agent` results: `show`'s and `usage`'s figures),
the subagents still running and stalled (from the hooks' live record, `state.live_agents`;
without it, an `Agent`/`Task` call with no result yet, or an agent launched in the background
whose log was written in the last minute), the compactions, and the prompt cache (warm, or
cold with what writing it again costs).

Owns: reading the status-line input, the running count it keeps in the session's scratch
dir (`statusline.json`: per file the record `usage.filecount` keeps, which 2.0.x agent logs
beside the sessions are this session's), and the line. Fast because each run reads only the whole lines the client appended
since the last one (`transcript.follow`); a file replaced or rewritten since is counted again.
Imports only the standard library's smallest modules, `state`, `usage.filecount` (with
`transcript.follow` and `transcript.usagefields`) and `usage.pricerows`: no `json`, no
`dataclasses` (a test lists what it loads). Never fails the client: on any fault it prints
what it can (at least the id prefix) and exits 0. Does not use click, the CLI or the entry
model: the accounting it shares is `transcript.usagefields` and `usage.pricerows`.

Set it in settings.json (a plugin cannot set the main status line):

    {"statusLine": {"type": "command",
                    "command": "python3 -I -S <site-packages>/session_kit/usage/statusline_main.py"}}

`session-kit statusline --setting` prints the exact entry for this installation.
"""

from __future__ import annotations

import os
import sys

from session_kit.base import fastjson, fileio, layout
from session_kit.base.agents import STALLED, live_status
from session_kit.state import live_agents
from session_kit.state import root as state
from session_kit.state.ids import check_session_id
from session_kit.state.scratch import SessionScratch
from session_kit.terminal import safe
from session_kit.transcript.usagefields import FIELDS
from session_kit.usage import pricerows
from session_kit.usage.filecount import count_file, record_tokens  # noqa: F401 - `record_tokens`: its readers'
from session_kit.usage.spend import session_logs

# What the client runs: a short script (a script is compiled on every run; this module is not).
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "statusline_main.py")
STATE_FILE = "statusline.json"
STATE_VERSION = 3  # 2: agents' results, 2.0.x logs beside the sessions, `count_key`; 3: the follower's checkpoint
MAX_STDIN = 1 << 20
MAX_STATE_BYTES = 64 << 20  # the running count of a long session with many agents
RECENT_S = 60.0  # a background agent whose log was written this recently is running


def _read_input(stream) -> dict:
    data = stream.read(MAX_STDIN)
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace")
    try:
        value = fastjson.loads(data) if data.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _tokens(n: int) -> str:
    if n < 1000:
        return str(n)
    if n < 1_000_000:
        return f"{n / 1000:.1f}k"
    return f"{n / 1_000_000:.2f}M"


def _price_rows(root: str) -> dict | None:
    try:
        rows = pricerows.read_rows(pricerows.read_table(pricerows.BUNDLED))
        override = pricerows.override_path(dict(os.environ), root)
        if override:
            rows.update(pricerows.read_rows(pricerows.read_table(override)))
    except (OSError, ValueError):
        return None
    return rows


def _cost(per_model: dict, root: str) -> str:
    rows = _price_rows(root)
    if rows is None:
        return "$?"
    usd, unknown = 0.0, False
    for model, fields in per_model.items():
        row = pricerows.find_row(rows, model)
        if row is None:
            unknown = unknown or any(fields[:5])
            continue
        usd += pricerows.cost_of(row, fields)
    if unknown and usd == 0:
        return "$?"
    return f"${usd:,.2f}" + ("+" if unknown else "")


def status_line(event: dict, *, root: str | None = None) -> str:
    """The line for the session `event` names (the client's status-line input)."""
    session_id = event.get("session_id")
    transcript = event.get("transcript_path")
    if not isinstance(session_id, str) or not isinstance(transcript, str):
        return "session-kit: no session"
    check_session_id(session_id)
    root = root or state.state_root()
    cwd = event.get("cwd") if isinstance(event.get("cwd"), str) else None
    scratch = SessionScratch.for_session(session_id, project_path=cwd, root=root).create()
    cache_path = scratch.file(STATE_FILE)
    try:
        cache = fileio.read_json(cache_path, MAX_STATE_BYTES)
    except (OSError, ValueError):
        cache = {}
    if (
        not isinstance(cache, dict)
        or cache.get("version") != STATE_VERSION
        or cache.get("transcript") != transcript
        or not isinstance(cache.get("files"), dict)
    ):
        cache = {"version": STATE_VERSION, "transcript": transcript, "files": {}}
    files = cache["files"]
    if not isinstance(cache.get("beside"), dict):
        cache["beside"] = {}  # 2.0.x agent logs beside the sessions: whether each is this session's
    known = len(cache["beside"])
    paths = [transcript, *session_logs(transcript, session_id, cache["beside"])]
    changed = len(cache["beside"]) != known
    for path in paths:
        before = files.get(path)
        old_offset = before.get("offset") if isinstance(before, dict) else None
        try:
            files[path] = count_file(path, before if isinstance(before, dict) else {}, main=path == transcript)
        except (TypeError, ValueError, KeyError, AttributeError):
            files[path] = count_file(path, {}, main=path == transcript)  # a damaged record: count again
        changed = changed or files[path].get("offset") != old_offset
    if changed:
        fileio.write_json(cache_path, cache)
    per_model = session_tokens(files, paths)
    tokens = sum(sum(f[:5]) for f in per_model.values())
    main = files.get(transcript) or {}
    compactions = main.get("compactions", 0)
    parts = [session_id[:8], f"{_tokens(tokens)} tok", _cost(per_model, root)]
    budget = _budget_part(root, session_id, tokens, per_model)
    if budget:
        parts.append(budget)
    records = live_agents.read_live(scratch.path)
    if records:  # the hooks saw the agents start and stop
        parts.extend(_live_parts(records, transcript, session_id, root))
    else:
        running = len(main.get("pending", ())) + _background_running(main.get("background", ()), transcript, session_id)
        if running:
            parts.append(f"{running} agent{'s' if running != 1 else ''} running")
    if compactions:
        parts.append(f"{compactions} compaction{'s' if compactions != 1 else ''}")
    cache = _cache_part(event, root)
    if cache:
        parts.append(cache)
    return " · ".join(parts)


def _budget_part(root: str, session_id: str, tokens: int, per_model: dict) -> str | None:
    """`budget 84% of $5.00` past 80% of the session's budget, `over budget ($5.00)` past it;
    nothing under 80% or without a budget (`state.budgets`, the hooks' reading)."""
    from session_kit.base.budget import USD, human
    from session_kit.state.budgets import WARN_AT, session_cap

    cap, _base = session_cap(root, os.environ, session_id)
    if cap is None:
        return None
    if cap.unit == USD:
        rows = _price_rows(root)
        spent = 0.0
        for model, fields in per_model.items():
            row = pricerows.find_row(rows, model) if rows is not None else None
            spent += pricerows.cost_of(row, fields) if row is not None else 0.0
    else:
        spent = tokens
    if spent >= cap.amount:
        return f"over budget ({human(cap.amount, cap.unit)})"
    if spent >= cap.amount * WARN_AT:
        return f"budget {int(spent * 100 // cap.amount)}% of {human(cap.amount, cap.unit)}"
    return None


def _live_parts(records: dict, transcript: str, session_id: str, root: str) -> list:
    """`2 agents`, `1 stalled 12m` (the longest silence), `1 over budget`: from the hooks'
    live record, the stall rule of `base.agents`."""
    import time

    now = time.time()
    threshold = live_agents.stalled_after_s(root)
    running = stalled = over = 0
    longest = 0.0
    for agent_id, record in records.items():
        if isinstance(record.get("denied"), dict):
            over += 1
        if record.get("stopped"):
            continue
        try:
            mtime = os.stat(live_agents.agent_log_path(transcript, session_id, agent_id)).st_mtime
        except OSError:
            mtime = None
        running += 1
        since = live_agents.last_activity(record, mtime)
        if live_status(stopped=False, last_activity=since, now=now, stalled_after_s=threshold) == STALLED:
            stalled += 1
            longest = max(longest, now - since) if since is not None else longest
    parts = []
    if running:
        parts.append(f"{running} agent{'s' if running != 1 else ''}")
    if stalled:
        parts.append(f"{stalled} stalled {int(longest // 60)}m")
    if over:
        parts.append(f"{over} over budget")
    return parts


def _cache_part(event: dict, root: str) -> str | None:
    """The prompt cache as the client's status-line input says it is (`prompt_cache`, 2.1.328
    and later): warm, or cold with what writing it again costs at the model's cache-write
    price (`recache_tokens_if_cold`, its `ttl` tier)."""
    cache = event.get("prompt_cache")
    if not isinstance(cache, dict) or not isinstance(cache.get("warm"), bool):
        return None
    if cache["warm"]:
        return "cache warm"
    tokens = cache.get("recache_tokens_if_cold")
    model = event.get("model")
    model_id = model.get("id") if isinstance(model, dict) else None
    if type(tokens) is not int or tokens <= 0 or not isinstance(model_id, str):
        return "cache cold"
    rows = _price_rows(root)
    row = pricerows.find_row(rows, model_id) if rows is not None else None
    if row is None:
        return f"cache cold ({_tokens(tokens)} tok to re-write)"
    fields = [0] * len(FIELDS)
    fields[FIELDS.index("cache_write_1h" if cache.get("ttl") == "1h" else "cache_write_5m")] = tokens
    return f"cache cold (${pricerows.cost_of(row, tuple(fields)):,.2f} to re-write)"


def session_tokens(files: dict, paths: list) -> dict:
    """Usage fields per model of the session: each file's messages (a message once), and the
    agents none of `paths` is the log of, from their `Agent` results (as `show` counts them)."""
    per_model: dict = {}
    seen: set = set()

    def add(model: str, fields: list) -> None:
        total = per_model.setdefault(model, [0] * len(fields))
        for i, v in enumerate(fields):
            total[i] += v

    for path in paths:
        for key, (model, *fields) in files.get(path, {}).get("messages", {}).items():
            if key not in seen:
                seen.add(key)
                add(model, fields)
    logged = {layout.agent_of_name(os.path.basename(p)) for p in paths[1:]}
    for agent_id, (model, *fields) in (files.get(paths[0], {}).get("results") or {}).items():
        if agent_id not in logged:
            add(model, fields)
    return per_model


def _background_running(agent_ids, transcript: str, session_id: str) -> int:
    import time

    now = time.time()
    project = os.path.dirname(transcript)
    count = 0
    for agent_id in agent_ids:
        try:
            if now - os.stat(layout.agent_log_path(project, session_id, agent_id)).st_mtime < RECENT_S:
                count += 1
        except OSError:
            continue
    return count


def main(stdin=None, stdout=None) -> int:
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    event: dict = {}
    try:
        event = _read_input(stdin)
        line = status_line(event)
    except Exception as exc:  # a status line must never fail the client
        sid = event.get("session_id") if isinstance(event, dict) else None
        line = (sid[:8] if isinstance(sid, str) else "session-kit") + " · usage unavailable"
        try:
            state.log(state.state_root(), f"statusline: {type(exc).__name__}: {exc}")
        except Exception:  # logging is best effort here
            pass
        sys.stderr.write(f"session-kit statusline: {type(exc).__name__}\n")
    stdout.write(safe(line) + "\n")  # the client shows it on a terminal: no escapes from the input
    return 0

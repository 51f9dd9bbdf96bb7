"""What a session has spent so far, for its budget: counted before each prompt and tool call,
from where the last count stopped. Standard library only (plus `usage.filecount` and
`usage.pricerows`): the budget's hooks load it.

Owns: the running count of one session (`spend`: its transcript and its agents' logs, `session_logs`:
`<session>/subagents/` and the 2.0.x logs beside the sessions that name it, each API message once, the last line of a message winning, agents
whose log is gone from their `Agent` results: the status line's rule, `usage.filecount`;
cache writes and reads priced by `usage.pricerows`), kept in the session's budget folder
(`state.budgets.budget_dir`: `spend.json`, each file's checkpoint and its last
`KEEP` messages, the older ones added up per model), so a hook reads only the bytes the files
gained since, and a resumed session counts what it spent before. A transcript that cannot be
read is `Spend.unreadable` (the cap then fails open). Does not decide what a hook answers
(`hooks.budget`) or where budgets are set (`state.budgets`).
"""

from __future__ import annotations

import os

from session_kit.base import fileio, layout
from session_kit.base.follow import Checkpoint
from session_kit.state import root as state
from session_kit.usage.filecount import count_file, record_models

SPEND_FILE = "spend.json"
VERSION = 1
KEEP = 16  # messages kept one by one per file: a message's lines are written together
MAX_BYTES = 16 << 20
HEAD_BYTES = 8192  # of a 2.0.x agent log beside the sessions: where its session id is


class Spend:
    """A session's spend: `tokens` (input, output, cache reads and writes), `usd` (None when a
    model has no price), `unreadable` (the transcript could not be read: nothing counted)."""

    __slots__ = ("tokens", "usd", "unreadable", "priced", "files", "rates")

    def __init__(self, tokens: int, usd: float | None, *, unreadable: bool = False, priced: bool = True) -> None:
        self.tokens = tokens
        self.usd = usd
        self.unreadable = unreadable
        self.priced = priced
        self.files: list | None = None  # `[path, inode, offset]` of each file counted (None: one was not)
        self.rates: dict = {}  # the prices of each model counted (`pricerows.read_rows`' rows), when priced


def readable(path: str) -> bool:
    """False for a path that is there but no regular file the kit may read; True when it is
    readable or not written yet (nothing spent)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return (st.st_mode & 0o170000) == 0o100000 and os.access(path, os.R_OK)


def session_logs(transcript: str, session_id: str, checked: dict | None = None) -> list:
    """The session's agent logs (the status line's and the budget's): `<id>/subagents/` (workflow runs too), and the 2.0.x logs
    beside the sessions whose head names this session (`checked`: the verdict per name, kept
    between runs, so each such log's head is read once)."""
    project = os.path.dirname(transcript)
    name = os.path.basename(project)
    found = [log.path for log in layout.agent_logs(layout.session_dir(project, session_id), session_id, name)]
    checked = {} if checked is None else checked
    for log in layout.legacy_agent_logs(project):
        name = os.path.basename(log.path)
        if name not in checked:
            if not fileio.is_regular(log.path):
                continue
            from session_kit.base.headfield import head_field  # here: only a 2.0.x log beside the sessions needs it

            checked[name] = head_field(log.path, b"sessionId", limit=HEAD_BYTES) == session_id
        if checked[name]:
            found.append(log.path)
    return found


def log_folders(transcript: str, session_id: str) -> list:
    """`[folder, mtime in ns or None]` of each folder `session_logs` lists (the sessions',
    `subagents/`, its workflow runs): an agent log added or removed changes one of them."""
    project = os.path.dirname(transcript)
    subagents = os.path.join(layout.session_dir(project, session_id), layout.SUBAGENTS)
    workflows = os.path.join(subagents, layout.WORKFLOWS)
    found = [project, subagents, workflows, *(run.path for run in layout.listing(workflows))]
    stamped = []
    for path in found:
        try:
            stamped.append([path, os.stat(path).st_mtime_ns])
        except OSError:
            stamped.append([path, None])
    return stamped


def spend(folder: str, transcript: str, session_id: str, *, state_root: str, price: bool) -> Spend:
    """The session's spend now, its count brought up to date in `folder` (under its lock)."""
    if not readable(transcript):
        return Spend(0, 0.0, unreadable=True)
    path = os.path.join(folder, SPEND_FILE)
    with state.locked(path):
        try:
            saved = fileio.read_json(path, MAX_BYTES)
        except (OSError, ValueError):
            saved = {}
        if not isinstance(saved, dict) or saved.get("version") != VERSION or saved.get("transcript") != transcript:
            saved = {"version": VERSION, "transcript": transcript, "files": {}}
        files = saved["files"] if isinstance(saved.get("files"), dict) else {}
        saved["files"] = files
        if not isinstance(saved.get("beside"), dict):
            saved["beside"] = {}  # 2.0.x agent logs beside the sessions: whether each is this session's
        known = len(saved["beside"])
        paths = [transcript, *session_logs(transcript, session_id, saved["beside"])]
        changed = len(saved["beside"]) != known
        for p in paths:
            before = files.get(p)
            before = before if isinstance(before, dict) else {}
            was = before.get("checkpoint")  # `count_file` brings a record up to date in place
            try:
                after = count_file(p, before, main=p == transcript, keep=KEEP)
            except (TypeError, ValueError, KeyError, AttributeError):  # a damaged record: count again
                after = count_file(p, {}, main=p == transcript, keep=KEEP)
            if after is not before or after.get("checkpoint") != was:
                files[p] = after
                changed = True
        if changed:
            fileio.write_json(path, saved, sync=False)
    per_model = _per_model(files, paths)
    tokens = sum(sum(fields[:5]) for fields in per_model.values())
    rates: dict = {}
    usd, priced = _priced(per_model, state_root, rates) if price else (None, True)
    spent = Spend(tokens, usd, priced=priced)
    spent.files, spent.rates = _checkpoints(files, paths), rates
    return spent


def _checkpoints(files: dict, paths: list) -> list | None:
    """`[path, inode, offset]` of each file as counted (`hooks.quick` reads on from there)."""
    found = []
    for p in paths:
        cp = Checkpoint.from_text((files.get(p) or {}).get("checkpoint"))
        if cp is None:
            return None
        found.append([p, cp.ino, cp.offset])
    return found


def _per_model(files: dict, paths: list) -> dict:
    per_model: dict = {}

    def add(model: str, fields: list) -> None:
        total = per_model.setdefault(model, [0] * len(fields))
        for i, v in enumerate(fields):
            total[i] += v

    for p in paths:
        for model, fields in record_models(files.get(p) or {}).items():
            add(model, fields)
    logged = {layout.agent_of_name(os.path.basename(p)) for p in paths[1:]}
    for agent_id, (model, *fields) in ((files.get(paths[0]) or {}).get("results") or {}).items():
        if agent_id not in logged:
            add(model, fields)
    return per_model


def _priced(per_model: dict, state_root: str, rates: dict) -> tuple:
    """`(USD, every model priced)`: a model without a price counts nothing. `rates` gets each
    model's row, and for every model of the table `"*"`'s (zeros for one without a price)."""
    from session_kit.usage import pricerows

    try:
        rows = pricerows.read_rows(pricerows.read_table(pricerows.BUNDLED))
        override = pricerows.override_path(dict(os.environ), state_root)
        if override:
            rows.update(pricerows.read_rows(pricerows.read_table(override)))
    except (OSError, ValueError):
        return 0.0, False
    usd, priced = 0.0, True
    for model, fields in per_model.items():
        row = pricerows.find_row(rows, model)
        rates[model] = list(row) if row is not None else [0.0] * 6
        if row is None:
            priced = priced and not any(fields[:5])
            continue
        usd += pricerows.cost_of(row, tuple(fields))
    if rows:
        rates["*"] = [max(col) for col in zip(*rows.values())]
    return usd, priced

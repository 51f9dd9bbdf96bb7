"""The quick answer of the hooks the client runs most, PreToolUse of the main thread (before
every tool call) and UserPromptSubmit, when they have nothing to say: read before any other
module of the hooks loads (`hooks.start`). Standard library only (plus `state.root`, and for a
prompt `base.encoding`): no `re`, `json` (not even `base.fastjson`: the event's few fields are
read off its bytes, the summary is `marshal`'s, built in), `pathlib` or `datetime`.

Owns: the session budget's summary (`budgets/<session id>/quick.marshal`, written by the full
check, `hooks.budget`, after each count: the spend, 80% of the budget, what the budget and
prices were read from, each counted file's inode and offset, the folders its agent logs were
listed from, the prices of the session's models) and the proof read from it
(`budget_settled`): the same sources and folders, each file the same one, only grown (by less
than `FULL_EVERY` since the count), the tool call's own message among the files' new whole
lines or just before their offsets (counted already: a message asking for calls in parallel;
the client writes it up to 100 ms after PreToolUse fires, and `hooks.budget` waits for it),
and the spend plus a bound on what its new whole lines can add still below 80%. The bound reads, on each line holding `"usage"` (the only lines the count
prices), every token and search count at the dearest price of the models the line names (else
of any model), a message's repeated lines each again: never less than the count adds. Past
`KEEP_AFTER` bytes read, the summary keeps the bound and the offsets it read to, so the next
hook reads only what came after. Anything it cannot prove (no summary, a source or folder
changed, a file replaced or shrunk, or grown by `FULL_EVERY`, a bound at 80%) is left to the
full check, which counts and writes the count's figure again. Also the prompt's own part
(`prompt_quiet`): its scratch dir is there, the client gave `CLAUDE_ENV_FILE`, no compaction
left a restore. Does not count (`usage.spend`) or answer (`hooks.budget`, `hooks.handlers`).
"""

from __future__ import annotations

import marshal  # built in, loaded already by the import system: no JSON module for the summary
import os
import stat

SUMMARY_FILE = "quick.marshal"  # in the session's budget folder (`state.budgets.budget_dir`)
VERSION = 1
MAX_SUMMARY_BYTES = 1 << 20
KEEP_AFTER = 32 * 1024  # new bytes read past which the bound and its offsets are kept for the next hook
FULL_EVERY = 1 << 20  # bytes a file may grow past its count before the full count runs again
CALL_WINDOW = 64 * 1024  # bytes before a file's offset where a tool call counted already is looked for
BUDGET_ENV = "SESSION_KIT_SESSION_BUDGET"  # `state.budgets.SESSION_ENV`
PRICES_ENV = "SESSION_KIT_PRICES"  # `usage.pricerows.ENV_PRICES`
# The count's usage keys and the price each is read at (`usagefields.usage_fields`; a cache
# write's total splits into the 5-minute and 1-hour tiers: the dearer one, and the tiers again).
KEYS = (
    (b'"input_tokens"', 0),
    (b'"output_tokens"', 1),
    (b'"cache_read_input_tokens"', 2),
    (b'"cache_creation_input_tokens"', 6),
    (b'"ephemeral_5m_input_tokens"', 3),
    (b'"ephemeral_1h_input_tokens"', 4),
    (b'"web_search_requests"', 5),
)


def _stamp(path: str) -> list | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def sources(root: str, session_id: str, env) -> list:
    """What the session's budget and its prices are read from, as they are now: the variables,
    and the stamps of the config file, the session's override and the price override."""
    prices = env.get(PRICES_ENV) or os.path.join(root, "prices.json")
    override = os.path.join(root, "budgets", session_id, "override.json")
    files = [os.path.join(root, "config.json"), override, prices]
    return [env.get(BUDGET_ENV, ""), env.get(PRICES_ENV, ""), *(_stamp(p) for p in files)]


def _mtime(path: str) -> int | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def summary_path(root: str, session_id: str) -> str:
    return os.path.join(root, "budgets", session_id, SUMMARY_FILE)


ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def _plain(session_id: object) -> bool:
    """A plain session id (`state.ids.is_plain_id`), which names a folder of its own."""
    return (
        isinstance(session_id, str)
        and 0 < len(session_id) <= 128
        and session_id[0].isascii()
        and session_id[0].isalnum()
        and set(session_id) <= ID_CHARS
        and ".." not in session_id
    )


def budget_settled(fields: dict, env, root: str) -> bool:
    """True when the summary proves the event's session is below 80% of its budget (or that
    none applies to it) as its files stand now; False: the full check decides."""
    session_id, transcript = fields.get("session_id"), fields.get("transcript_path")
    if not _plain(session_id) or not isinstance(transcript, str) or not transcript:
        return False
    try:
        fd = _open_regular(summary_path(root, session_id))
    except OSError:
        return False
    try:
        data = os.read(fd, MAX_SUMMARY_BYTES)
    finally:
        os.close(fd)
    saved = marshal.loads(data)
    if not isinstance(saved, dict) or saved.get("v") != VERSION or saved.get("transcript") != transcript:
        return False
    if saved.get("sources") != sources(root, session_id, env):
        return False
    if saved.get("cap") is None:  # no budget for this session (turned off, or none set)
        return True
    if any(_mtime(path) != mtime for path, mtime in saved["folders"]):
        return False
    usd = saved["unit"] == "usd"
    rates, top = saved["rates"], saved["top"]
    amount = saved["spent"]
    read = 0
    call = fields.get("tool_use_id")
    needle = b'"' + call.encode() + b'"' if call else None  # the call's own message must be in the bound
    for entry in saved["files"]:
        path, ino, offset, counted = entry
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_ino != ino or st.st_size < offset or st.st_size - counted > FULL_EVERY:
            return False
        if st.st_size > offset:
            gap = _gap(path, offset, st.st_size)
            whole = gap.rfind(b"\n") + 1  # whole lines only: the rest is read when it is whole
            if whole:
                amount += _bound(gap[:whole], usd, rates, top)
                entry[2] = offset + whole
                read += whole
                if needle is not None and gap.find(needle, 0, whole) >= 0:
                    needle = None
        if amount >= saved["below"]:
            return False
    if needle is not None and not _counted(saved["files"], needle):  # not written yet: the full check waits for it
        return False
    if read >= KEEP_AFTER:  # the next hook reads on from here: the spend is now a bound, the count's or more
        saved["spent"] = amount
        _write(summary_path(root, session_id), saved)
    return True


def _counted(files: list, needle: bytes) -> bool:
    """Whether a file holds `needle` in the last `CALL_WINDOW` bytes before the offset it was
    counted to (a call asked for in a message an earlier hook counted: parallel calls)."""
    for path, _ino, offset, _counted_to in files:
        if _gap(path, max(0, offset - CALL_WINDOW), offset).find(needle) >= 0:
            return True
    return False


def _write(path: str, value: dict) -> None:
    """Replace the summary whole: a reader sees the old one or this one, each a bound of its own
    files' offsets."""
    from session_kit.base import fileio  # here: once per `KEEP_AFTER` bytes

    try:
        fileio.atomic_write(path, marshal.dumps(value), sync=False)
    except (OSError, ValueError):  # not kept: the next hook reads from the older offsets again
        pass


def _open_regular(path: str) -> int:
    """`path` opened for reading without blocking, a regular file only (a FIFO planted there
    must not hang the hook): `base.fileio.open_fd`'s rule, without loading it (~1.5 ms)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"not a regular file: {path}")
    return fd


def _gap(path: str, offset: int, size: int) -> bytes:
    fd = _open_regular(path)
    try:
        return os.pread(fd, size - offset, offset)
    finally:
        os.close(fd)


def _bound(data: bytes, usd: bool, rates: dict, top: list) -> float:
    """The most the lines in `data` can add to the count, in its unit."""
    total = 0.0
    for line in data.split(b"\n"):
        if b'"usage"' not in line:
            continue
        row = _row(line, rates, top) if usd else None
        for key, kind in KEYS:
            at = line.find(key)
            while at >= 0:
                n = _number_after(line, at + len(key))
                if usd:
                    if kind == 5:
                        total += n * row[5] / 1000
                    else:
                        total += n * (max(row[3], row[4]) if kind == 6 else row[kind]) / 1_000_000
                elif kind != 5:
                    total += n
                at = line.find(key, at + 1)
    return total


def _row(line: bytes, rates: dict, top: list) -> list:
    """The dearest prices of the models the line names (`"model": "…"`); `top`, the dearest of
    every model, when it names none or one without a price of its own."""
    found = None
    at = line.find(b'"model"')
    while at >= 0:
        i = at + 7
        while line[i : i + 1] in (b" ", b":"):
            i += 1
        end = line.find(b'"', i + 1) if line[i : i + 1] == b'"' else -1
        row = rates.get(line[i + 1 : end].decode("utf-8", "replace")) if end > 0 else None
        if row is None:
            return top
        found = row if found is None else [max(a, b) for a, b in zip(found, row)]
        at = line.find(b'"model"', at + 1)
    return found if found is not None else top


def _number_after(line: bytes, i: int) -> int:
    """The whole number a key's value starts with; 0 for none (the count reads those as 0)."""
    while line[i : i + 1] in (b" ", b":"):
        i += 1
    j = i
    while line[j : j + 1].isdigit():
        j += 1
    return int(line[i:j]) if j > i else 0


def write_summary(
    folder: str,
    *,
    transcript: str | None,
    sources_then: list,
    cap: object,
    spent: object = None,
    folders_then: list | None = None,
    warn_at: float = 0.8,
) -> None:
    """Write the summary the quick check reads: `cap` None (no budget for the session), or the
    budget (`base.budget.Budget`) and `spent` (`usage.spend.Spend`, with its files and rates)
    as counted after `sources_then` and `folders_then` were read."""
    from session_kit.base import fileio

    value: dict = {"v": VERSION, "transcript": transcript, "sources": sources_then, "cap": None}
    if cap is not None:
        usd = cap.unit == "usd"
        top = spent.rates.get("*") if usd else [0.0] * 6
        if spent.files is None or top is None:  # a file not counted, or no prices: nothing to prove with
            return
        value.update(
            cap=cap.amount,
            unit=cap.unit,
            below=cap.amount * warn_at,
            spent=(spent.usd or 0.0) if usd else spent.tokens,
            files=[[path, ino, offset, offset] for path, ino, offset in spent.files],
            folders=folders_then,
            rates=spent.rates if usd else {},
            top=top,
        )
    fileio.atomic_write(os.path.join(folder, SUMMARY_FILE), marshal.dumps(value), sync=False)


def prompt_quiet(fields: dict, env, root: str) -> bool:
    """True when UserPromptSubmit has nothing of its own to add: the session's scratch dir is
    where its project puts it (`state.root.scratch_location`), the client gave SessionStart a
    `CLAUDE_ENV_FILE`, and no compaction left a restore pending (`hooks.handlers`)."""
    from session_kit.base.encoding import encode_project_dir
    from session_kit.state.root import scratch_dir

    session_id = fields.get("session_id")
    project = env.get("CLAUDE_PROJECT_DIR") or fields.get("cwd") or os.getcwd()
    if not _plain(session_id) or not isinstance(project, str):
        return False
    scratch = scratch_dir(root, encode_project_dir(os.path.abspath(project)), session_id)
    return (
        os.path.isdir(scratch)
        and not os.path.lexists(os.path.join(scratch, "no-env-file"))
        and not os.path.lexists(os.path.join(scratch, "restore-pending"))
    )


def event_fields(data: bytes, keys: tuple) -> dict | None:
    """The string values of top-level `keys` in the event's JSON bytes, without a JSON parser:
    each key written once (a quoted key can only be JSON structure, never inside a string, so
    one occurrence followed by `:` is the event's own; two, one in `tool_input`, are a doubt),
    its value a string without escapes. None when any is in doubt: the full hook parses it."""
    found = {}
    for key in keys:
        quoted = b'"' + key.encode() + b'"'
        at = data.find(quoted)
        if at < 0:
            continue
        if data.find(quoted, at + 1) >= 0:
            return None
        i = at + len(quoted)
        while data[i : i + 1] in (b" ", b"\t", b"\n", b"\r"):
            i += 1
        if data[i : i + 1] != b":":
            return None
        i += 1
        while data[i : i + 1] in (b" ", b"\t", b"\n", b"\r"):
            i += 1
        if data[i : i + 1] != b'"':
            return None
        end = data.find(b'"', i + 1)
        value = data[i + 1 : end]
        if end < 0 or b"\\" in value:
            return None
        found[key] = value.decode("utf-8")
    return found


def nothing_to_say(hook: str, data: bytes, env, budget_may_be_set) -> bool:
    """True when hook `hook` (`pre-tool-use`, `user-prompt-submit`) has nothing to answer for
    the event `data` (without `agent_id`, or a subagent's with no budget per subagent:
    `hooks.start`): the hook then ends with no output. Any doubt or fault: False, and the hook runs as always (and
    reports what is wrong). `budget_may_be_set`: `hooks.start.session_budget_may_be_set`."""
    from session_kit.state.root import state_root

    try:
        fields = event_fields(data, ("session_id", "transcript_path", "cwd", "tool_use_id"))
        if fields is None:
            return False
        root = state_root(env)
        if hook == "user-prompt-submit" and not prompt_quiet(fields, env, root):
            return False
        return not budget_may_be_set(env, root) or budget_settled(fields, env, root)
    except Exception:
        return False

"""What the session was doing at the compaction, and the plan an issue tracker holds.

Owns: the memory's `tracker` (`record`'s shape): the items a session shows, claims and closes
with an issue tracker's command line (`bd show X`, `bd update X --status in_progress`,
`bd close X`: beads), the first shown being the plan's root; and `doing`: the call that was
running or ran last (with its own description) and the assistant's last stated intent ("Now
let me …", said after the person's latest request: `fold` drops an older one), which an
automatic compaction always follows with a call, so the assistant's last words alone say nothing. Standard library only. Does not read lines (`fold` hands each
successful command and each call over) or word the restore (`parts`).
"""

from __future__ import annotations

from session_kit.base.tools import KEYED_BY_PATH
from session_kit.memory.failures import steps
from session_kit.memory.text import clip, clip_tail, redact

MAX_INTENT = 800
MAX_SHOWN = 12
# Issue trackers the kit reads from their command line: program → (show, claim, close) verbs.
TRACKERS = {"bd": ("show", "update", "close")}
_CLAIMED = ("in_progress", "in-progress")


def tracker_command(memory: dict, command: str, line: int) -> None:
    """A tracker command that worked: the item shown, claimed (status in progress) or closed."""
    for words in steps(command):
        verbs = TRACKERS.get(words[0].rsplit("/", 1)[-1])
        if verbs is None or len(words) < 3 or words[2].startswith("-"):
            continue
        show, update, close = verbs
        verb, item = words[1], words[2]
        tracker = memory.get("tracker") or {"program": words[0], "shown": [], "current": None, "closed": []}
        if verb == show:
            if item not in tracker["shown"]:
                tracker["shown"] = [*tracker["shown"], item][:MAX_SHOWN]
        elif verb == update and (any(s in words for s in _CLAIMED) or "--claim" in words or _status(words)):
            tracker["current"], tracker["claimed_line"] = item, line
        elif verb == close:
            tracker["closed"] = [*[c for c in tracker["closed"] if c != item], item][-MAX_SHOWN:]
            if tracker.get("current") == item:
                tracker["current"] = None
        else:
            continue
        tracker["line"] = line
        memory["tracker"] = tracker


def _status(words: list[str]) -> bool:
    return any(w.startswith("--status=") and w.split("=", 1)[1] in _CLAIMED for w in words)


def last_call(call_id: str, name: str, key: str, tool_input: dict, line: int) -> tuple:
    """What `doing` keeps of the latest call, unredacted until the capture ends."""
    description = tool_input.get("description")
    return (call_id, name, key, description if isinstance(description, str) else None, line)


def doing(memory: dict, call: tuple | None, intent: tuple[str, int] | None) -> dict:
    """The memory's `doing`: the latest call (running when no result came) and the latest
    words the assistant said, redacted."""
    now = dict(memory.get("doing") or {})
    if call is not None:
        call_id, name, key, description, line = call
        now["call"] = {
            "tool": name,
            "what": clip(key.partition(": ")[2] if name in KEYED_BY_PATH else redact(key), 300),
            "description": clip(redact(description), 200) if isinstance(description, str) and description else None,
            "line": line,
            "id": call_id,
        }
    if intent is not None:
        now["intent"] = {"text": clip_tail(redact(intent[0]), MAX_INTENT), "line": intent[1]}
    return now

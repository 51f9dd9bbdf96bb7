"""What a compaction dropped: the facts the kit's memory held at a compaction that the
client's own summary of it does not mention.

Owns: the facts of a memory worth checking (the first and latest requests, each standing
instruction, each open failure, each changed file, each task, each agent, the plan's file
and the working documents) and the rule that a summary mentions one: a path by its file
name; a command by its program and the files it names; a text by most of its telling words
(four letters or more, the commonest left out). Standard library only. Does not read
transcripts (`capture.memories_at_compactions`) or print.
"""

from __future__ import annotations

import os

_COMMON = frozenset(
    [
        "this",
        "that",
        "with",
        "from",
        "have",
        "will",
        "would",
        "should",
        "could",
        "there",
        "their",
        "them",
        "they",
        "then",
        "than",
        "what",
        "when",
        "where",
        "which",
        "while",
        "your",
        "yours",
        "into",
        "onto",
        "over",
        "under",
        "also",
        "just",
        "only",
        "please",
        "make",
        "sure",
        "does",
        "done",
        "been",
        "were",
        "being",
        "each",
        "some",
        "more",
        "most",
        "very",
        "much",
        "such",
        "like",
        "want",
        "need",
        "file",
        "files",
    ]
)
MAX_WORDS = 12
KEPT_SHARE = 0.6


def _words(text: str) -> set[str]:
    out = set()
    for raw in text.lower().split():
        word = "".join(c for c in raw if c.isalnum() or c in "-_")
        if word:
            out.add(word)
    return out


def _telling(text: str) -> list[str]:
    seen: list[str] = []
    for raw in text.lower().split():
        word = "".join(c for c in raw if c.isalnum() or c in "-_")
        if len(word) >= 4 and word not in _COMMON and word not in seen:
            seen.append(word)
        if len(seen) >= MAX_WORDS:
            break
    return seen


def _text_mentioned(text: str, summary_words: set[str]) -> bool:
    telling = _telling(text)
    if not telling:
        return True
    return sum(w in summary_words for w in telling) >= KEPT_SHARE * len(telling)


def _path_mentioned(path: str, summary: str) -> bool:
    return os.path.basename(path.rstrip("/")).lower() in summary


def facts(memory: dict) -> list[tuple[str, str, str]]:
    """(kind, what is shown, how it is looked for: path | command | text) of each fact."""
    found: list[tuple[str, str, str]] = []
    requests = memory.get("requests") or {}
    first = requests.get("first")
    if first:
        found.append(("first request", first["text"], "text"))
    recent = requests.get("recent") or []
    if recent and (not first or recent[-1]["line"] != first["line"]):
        found.append(("latest request", recent[-1]["text"], "text"))
    found += [("standing instruction", c["text"], "text") for c in requests.get("constraints") or []]
    for failure in memory.get("failures") or []:
        how = "command" if failure.get("tool") == "Bash" else "text"
        found.append(("open failure", failure.get("command") or failure.get("key") or "", how))
    found += [("changed file", path, "path") for path in memory.get("files") or {}]
    for item in (memory.get("tasks") or {}).get("items") or []:
        found.append((f"task ({item.get('status')})", str(item.get("subject") or ""), "text"))
    for agent in memory.get("agents") or []:
        found.append((f"agent ({agent.get('status')})", str(agent.get("description") or ""), "text"))
    plan = memory.get("plan")
    if plan and plan.get("path"):
        found.append((f"plan ({plan.get('status')})", plan["path"], "path"))
    elif plan and plan.get("text"):
        found.append((f"plan ({plan.get('status')})", plan["text"], "text"))
    found += [("working document", path, "path") for path in memory.get("documents") or {}]
    return found


def lost(memory: dict, summary: str) -> tuple[list[tuple[str, str]], int]:
    """The facts of `memory` that `summary` does not mention, and how many facts there were."""
    from session_kit.memory.failures import family

    low = summary.lower()
    summary_words = _words(summary)
    missing = []
    every = facts(memory)
    for kind, what, how in every:
        if how == "path":
            kept = _path_mentioned(what, low)
        elif how == "command":
            shape = family("Bash", {"command": what})
            program = shape["head"].split()[0].lower() if shape["head"] else ""
            kept = " ".join(what.split()).lower() in " ".join(low.split()) or (
                bool(program)
                and program in summary_words
                and all(_path_mentioned(t, low) for t in shape.get("targets") or [])
            )
        else:
            kept = _text_mentioned(what, summary_words)
        if not kept:
            missing.append((kind, what))
    return missing, len(every)

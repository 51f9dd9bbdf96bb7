"""What a compaction dropped: the facts the kit's memory held at a compaction that the
client's own summary of it does not mention.

Owns: the facts of a memory worth checking (the first and latest requests, each standing
instruction, each open failure, each changed file, each task, each agent still running, the
plan's file unless spent, and the working documents) and the rule that a summary mentions one:
a path by its file name; a command by its program and the files it names; an agent's failing
test by its id; a task by its number in a range the summary names ("Tasks #1-#7", "Phases
1-8"), a name from code in its title, or its words; a text by most of its telling words (four
letters or more, the commonest left out). Standard library only. Does not read
transcripts (`capture.memories_at_compactions`) or print.
"""

from __future__ import annotations

import os
import re

from session_kit.base.agents import RUNNING
from session_kit.memory.parts import plan_spent

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
# "Tasks #1-#7", "Phases 1-8", "task 3", "steps 2 to 4": numbers a summary names together.
_NUMBERED = re.compile(r"\b(?:tasks?|phases?|steps?)\s*#?(\d{1,3})(?:\s*(?:-|–|to|through)\s*#?(\d{1,3}))?")
_OWN_NUMBER = re.compile(r"(?:task|phase|step)\s*#?(\d{1,3})\b")
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
    """(kind, what is shown, how it is looked for: path | command | id | task | text) of each
    fact the kit can check against a summary. Agents that ended are left out (a summary tells
    them by their type or all together, their work is in the files and tasks), and so is a
    plan-mode plan a later tracker item made spent: the kit does not hold it as the plan."""
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
        found.append(_failure_fact(failure))
    found += [("changed file", path, "path") for path in memory.get("files") or {}]
    for n, item in enumerate((memory.get("tasks") or {}).get("items") or [], start=1):
        number = str(item.get("id") or n)
        found.append((f"task ({item.get('status')})", str(item.get("subject") or ""), f"task #{number}"))
    for agent in memory.get("agents") or []:
        if str(agent.get("status")).startswith(RUNNING):
            found.append((f"agent ({agent.get('status')})", str(agent.get("description") or ""), "text"))
    plan = memory.get("plan")
    if plan and not plan_spent(memory) and plan.get("path"):
        found.append((f"plan ({plan.get('status')})", plan["path"], "path"))
    elif plan and not plan_spent(memory) and plan.get("text"):
        found.append((f"plan ({plan.get('status')})", plan["text"], "text"))
    found += [("working document", path, "path") for path in memory.get("documents") or {}]
    return found


def _failure_fact(failure: dict) -> tuple[str, str, str]:
    """An agent's report is looked for by the test or file it names; a command by its
    program and files; anything else by its words."""
    what = failure.get("command") or failure.get("key") or ""
    if failure.get("tool") == "Bash":
        return ("open failure", what, "command")
    key = str(failure.get("key") or "")
    for mark, how in ((" test: ", "id"), (" file: ", "path")):
        if failure.get("tool") == "agent" and mark in key:
            return ("open failure", what, f"{how} {key.split(mark, 1)[1]}")
    return ("open failure", what, "text")


def _numbers_told(summary: str) -> set[str]:
    """The task, phase and step numbers a summary names, ranges spelt out ("Tasks #1-#7",
    "Phases 1-8", "task 3")."""
    told: set[str] = set()
    for match in _NUMBERED.finditer(summary):
        low, high = match.group(1), match.group(2) or match.group(1)
        if int(high) - int(low) < 200:
            told.update(str(n) for n in range(int(low), int(high) + 1))
    return told


def _task_mentioned(subject: str, number: str, summary: str, summary_words: set[str], told: set[str]) -> bool:
    """By its number in a range the summary names, by its own number ("Phase 5: …"), by a name
    from code it holds (`_fetch_plans`), or by most of its telling words."""
    own = _OWN_NUMBER.match(subject.lower())
    if number in told or (own and own.group(1) in told):
        return True
    names = [
        p for w in subject.split() for p in w.strip("`'\"(),:").split(".") if len(p) > 4 and ("_" in p or "/" in p)
    ]
    return any(name.lower() in summary for name in names) or _text_mentioned(subject, summary_words)


def lost(memory: dict, summary: str) -> tuple[list[tuple[str, str]], int]:
    """The facts of `memory` that `summary` does not mention, and how many facts there were."""
    from session_kit.memory.failures import family

    low = summary.lower()
    summary_words = _words(summary)
    told = _numbers_told(low)
    missing = []
    every = facts(memory)
    for kind, what, how in every:
        if how == "path":
            kept = _path_mentioned(what, low)
        elif how.startswith("path "):
            kept = _path_mentioned(how[5:], low)
        elif how.startswith("id "):
            kept = how[3:].lower() in low
        elif how.startswith("task #"):
            kept = _task_mentioned(what, how[6:], low, summary_words, told)
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

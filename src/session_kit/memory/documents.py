"""Working documents: the plan a session keeps in a file of its own.

Real sessions keep their plan in files (`.impl/plan.md`, `TODO.md`, notes, checklists) more
often than in plan mode, and since client 2.1.233 the task tools are off by default. Owns:
telling a file the session wrote or read as a working document (a plan/todo/notes/tasks/
checklist name, or a checkbox list in what was written; never a file of a folder of commands,
skills or agents the client loads), the memory's `documents` (`record`'s
shape: the latest touched, at most `MAX_DOCUMENTS`), and reading each from disk at capture
time (bounded, redacted): its open and done checkbox items, else its opening lines. Standard
library only. Does not read the transcript (`fold` names the files) or word the restore.
"""

from __future__ import annotations

import os

from session_kit.memory.text import clip, redact

MAX_DOCUMENTS = 6
MAX_DOCUMENT_BYTES = 64 * 1024
MAX_ITEMS = 60
MAX_EXCERPT = 3000
_NAMES = ("plan", "todo", "to-do", "tasks", "task-list", "tasklist", "notes", "checklist", "roadmap", "progress")
_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".org", ".rst", ""})
# Files the client itself re-attaches after a compaction, or that are instructions, not a plan.
_NOT_DOCUMENTS = frozenset({"claude.md", "claude.local.md", "agents.md", "readme.md", "changelog.md"})
_BOXES = ("[ ]", "[x]", "[X]", "[~]", "[-]", "[/]")
# Folders of instructions the client or a plugin loads (slash commands, skills, agents): a file
# there named `plan-save.md` is a command the session edits, never its plan.
_INSTRUCTION_FOLDERS = ("/.claude/commands/", "/.claude/skills/", "/.claude/agents/", "/.claude/hooks/")


def is_working_document(path: str, written: str | None = None) -> bool:
    """A plan/todo/notes file by its name, or any text file written with a checkbox list."""
    base = os.path.basename(path)
    stem, suffix = os.path.splitext(base.lower())
    if base.lower() in _NOT_DOCUMENTS or suffix not in _SUFFIXES:
        return False
    if any(folder in "/" + path.replace("\\", "/").lstrip("/") for folder in _INSTRUCTION_FOLDERS):
        return False
    if any(name in stem for name in _NAMES):
        return True
    return written is not None and has_checkboxes(written)


def has_checkboxes(text: str) -> bool:
    return any(_checkbox(line) for line in text[:MAX_DOCUMENT_BYTES].splitlines())


def _checkbox(line: str) -> tuple[bool, str] | None:
    """(done, text) of a `- [ ] item` line; None for any other line."""
    stripped = line.lstrip()
    if stripped[:2] not in ("- ", "* ", "+ ") and not stripped[:1].isdigit():
        return None
    body = stripped[2:] if not stripped[:1].isdigit() else stripped.partition(" ")[2]
    if body[:3] not in _BOXES:
        return None
    return body[1] in "xX", body[3:].strip()


def touched(documents: dict, path: str, how: str, line: int, at: str | None) -> None:
    """A working document the session wrote or read (the latest last)."""
    documents.pop(path, None)
    documents[path] = {"path": path, "how": how, "line": line, "at": at}
    for old in list(documents)[:-MAX_DOCUMENTS]:
        del documents[old]


def read_documents(documents: dict, read: object) -> None:
    """Each working document as it is on disk now: `read(path, limit)` gives its bytes."""
    for doc in documents.values():
        try:
            data = read(doc["path"], MAX_DOCUMENT_BYTES)
        except OSError:
            doc.update(found=False, items=[], done=0, total=0, excerpt=None)
            continue
        text = redact(data.decode("utf-8", "replace"))
        items = [box for box in map(_checkbox, text.splitlines()) if box is not None]
        doc["found"] = True
        doc["total"] = len(items)
        doc["done"] = sum(1 for done, _ in items if done)
        doc["items"] = [{"done": done, "text": clip(item, 300)} for done, item in items[:MAX_ITEMS]]
        doc["excerpt"] = None if items else clip(text.strip(), MAX_EXCERPT)

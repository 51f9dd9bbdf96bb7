"""The task list in the working memory: what TodoWrite, TaskCreate and TaskUpdate leave there.

Owns: the memory's `tasks` (`record`'s shape): a TodoWrite list replaces the whole list once
the call worked; TaskCreate adds an item with the id its result gives; TaskUpdate changes an
item's status or subject (`deleted` removes it). A task call still running when the capture
stops (the client compacts between a call and its result) is applied as it will be: the model
made it, and the list it sees next holds it. Standard library only. Does not read lines
(`fold`) or word the restore (`parts`).
"""

from __future__ import annotations

from session_kit.base.tools import TASK_UPDATE, TODO_WRITE
from session_kit.memory.text import clip, redact, result_text

MAX_TASKS = 100


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def todo_items(todos: object, line: int) -> list[dict] | None:
    """A TodoWrite call's list, as the memory keeps it (redacted when the call is read)."""
    if not isinstance(todos, list):
        return None
    items = []
    for n, todo in enumerate(todos[:MAX_TASKS], 1):
        if isinstance(todo, dict):
            subject = _str(todo.get("content")) or _str(todo.get("subject")) or ""
            items.append(
                {
                    "id": str(todo.get("id") or n),
                    "subject": clip(redact(subject), 300),
                    "status": _str(todo.get("status")) or "pending",
                    "line": line,
                }
            )
    return items


def todos(memory: dict, items: list[dict] | None) -> None:
    if items is not None:
        memory["tasks"] = {"source": "TodoWrite", "items": items}


def task_created(memory: dict, call: dict, extra: object, block: dict | None) -> None:
    task_id = None
    if isinstance(extra, dict) and isinstance(extra.get("task"), dict):
        task_id = extra["task"].get("id")
    if task_id is None and block is not None:
        text = result_text(block.get("content"))
        at = text.find("#")
        digits = ""
        while at >= 0 and at + 1 + len(digits) < len(text) and text[at + 1 + len(digits)].isdigit():
            digits += text[at + 1 + len(digits)]
        task_id = digits or None
    tasks = memory["tasks"]
    if tasks.get("source") != "Task":
        tasks = memory["tasks"] = {"source": "Task", "items": []}
    tasks["items"].append(
        {
            "id": str(task_id) if task_id is not None else None,
            "subject": call.get("subject") or "",
            "status": "pending",
            "line": call["line"],
        }
    )
    del tasks["items"][:-MAX_TASKS]


def task_update(memory: dict, update: dict, line: int) -> None:
    task_id = str(update.get("taskId") or update.get("id") or "")
    for item in memory["tasks"].get("items", []):
        if item.get("id") == task_id:
            status = _str(update.get("status"))
            if status == "deleted":
                memory["tasks"]["items"].remove(item)
                return
            if status:
                item["status"] = status
            subject = _str(update.get("subject"))
            if subject:
                item["subject"] = subject
            item["line"] = line
            return


def running_calls_applied(memory: dict) -> dict:
    """`memory` with the task calls still waiting for their result applied (a copy when there
    are any): what the list is once they return."""
    running = [c for c in memory.get("pending", {}).values() if c.get("tool") in (TODO_WRITE, TASK_UPDATE)]
    if not running:
        return memory
    import copy

    memory = {**memory, "tasks": copy.deepcopy(memory.get("tasks") or {"source": None, "items": []})}
    for call in running:
        if call["tool"] == TODO_WRITE:
            todos(memory, call.get("todos"))
        else:
            task_update(memory, call.get("update") or {}, call["line"])
    return memory

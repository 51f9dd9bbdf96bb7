"""Folding a transcript's entries into the working memory, one line at a time.

Owns: deciding from a line's raw bytes whether it needs parsing at all (client noise, and the
results of calls whose outcome is already known, never are), and what each entry changes in
the memory (`record`'s shape): the person's requests, the plan and plan mode, the task list,
files changed and read, failed calls not yet fixed by a later success of the same command,
subagents, the assistant's latest words and the compactions. Every text kept is redacted and
cut to a size. Reads every dialect the kit knows (current, 2025, the seed docs'); an entry it
cannot read is counted and skipped. Standard library only, besides the kit's one vocabulary of
entry types and its raw-type reader (both standard library only). Does not: open the transcript
(`capture` does), or decide what goes back into the context (`restore`).
"""

from __future__ import annotations

from session_kit.base import fastjson
from session_kit.base.agents import FAILED, RUNNING, stopped_task
from session_kit.base.declines import denial_kind, is_declined
from session_kit.base.rawtype import top_level_type
from session_kit.base.tools import KEYED_BY_PATH, RESULT_MATTERS, SPAWNS_AGENT, STOPS_TASK, WRITES_FILE
from session_kit.base.vocabulary import (
    NOISE_TYPE_BYTES,
    TITLE_TYPE_BYTES,
    TYPE_ATTACHMENT,
    TYPE_PERMISSION_MODE,
    TYPE_QUEUE_OPERATION,
)
from session_kit.memory import agents, doing, tasks
from session_kit.memory import failures as open_failures
from session_kit.memory.documents import is_working_document, touched
from session_kit.memory.record import read_plan_file
from session_kit.memory.requests import MAX_REQUEST, keep_request, pastes_excerpted
from session_kit.memory.text import (
    agent_signals,
    call_key,
    clip,
    clip_tail,
    content_blocks,
    excerpt,
    kit_command,
    parse_time,
    person_request,
    redact,
    removed_paths,
    result_text,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


MAX_NEXT = 1500
MAX_SUMMARY = 64000  # real summaries run to 16,000 characters: `--dropped` reads all of it
MAX_PLAN = 12000
MAX_PENDING = 2000
MAX_READS = 12
MAX_FILES = 400

# Entry types never parsed (the vocabulary's bookkeeping and titles), told from the raw bytes.
NOISE = NOISE_TYPE_BYTES | TITLE_TYPE_BYTES
_ATTACHMENT = TYPE_ATTACHMENT.encode()
# Attachment lines worth parsing: plan mode, a background agent's ending (a notification, a
# task status), a hook's blocking feedback (and, while one is open, its hook's later success).
# Queue lines: only a notification enqueued mid-turn, which no user line repeats (2.1.6x).
_ATTACHMENTS_KEPT = (b'"plan_mode', *agents.NOTIFICATION_MARKS, b'"task_status"', b'"hook_blocking_error"')
# The attachment kinds that may hold one of those (a notification comes as a queued command or
# a prompt the client adds); any other kind, read from the line without parsing it, is skipped.
_KINDS_TO_SCAN = (b"plan_mode", b"task_status", b"hook_", b"queued_command", b"task_", b"agent_notification")
_ATTACHMENT_KIND = b'"attachment":{"type":"'
_QUEUE_OPERATION = TYPE_QUEUE_OPERATION.encode()
_HOOK_SUCCESS = b'"hook_success"'
_PERMISSION_MODE = TYPE_PERMISSION_MODE.encode()
_ERROR_MARKS = (b'"is_error":true', b'"is_error": true')
_RESULT_ID = b'"tool_use_id":"'


def _attachment_kind(raw: bytes) -> bytes | None:
    """The kind of an attachment line (`"attachment":{"type":"X"`), read without parsing it;
    None when the line does not say it in that form (then it is scanned)."""
    at = raw.find(_ATTACHMENT_KIND, 0, 2048)
    if at < 0:
        return None
    start = at + len(_ATTACHMENT_KIND)
    end = raw.find(b'"', start, start + 64)
    return raw[start:end] if end > 0 else None


class Fold:
    """Folds entries into one memory document. `feed` takes one line's bytes; `line` counts
    the lines fed (the transcript's line numbers the memory names)."""

    def __init__(self, memory: dict, *, keeps: Callable[[str], bool], session_id: str | None = None) -> None:
        self.memory = memory
        self.keeps = keeps
        self.session_id = session_id
        self.line = memory.get("lines", 0)
        self._next: tuple[str, int] | None = None  # the assistant's latest words, not yet redacted
        self._intent: tuple[str, int] | None = None  # its latest words, even with a call after them
        self._latest: tuple | None = None  # the latest call (`doing.last_call`), not yet redacted

    def finish(self) -> None:
        """What is kept of the lines fed, completed: call once they are all in."""
        if self._next is not None:
            text, line = self._next
            self.memory["next"] = {"text": clip_tail(redact(text), MAX_NEXT), "line": line}
            self._next = None
        if self._latest is not None or self._intent is not None:
            self.memory["doing"] = doing.doing(self.memory, self._latest, self._intent)
            self._latest = self._intent = None
        if self.keeps("tasks"):  # a task call the compaction came between and its result
            self.memory["tasks"] = tasks.running_calls_applied(self.memory)["tasks"]

    def current(self) -> dict:
        """The memory as `finish` would leave it now, without finishing (the words kept
        so far included)."""
        now = self.memory
        if self._next is not None:
            text, line = self._next
            now = {**now, "next": {"text": clip_tail(redact(text), MAX_NEXT), "line": line}}
        if self._latest is not None or self._intent is not None:
            now = {**now, "doing": doing.doing(now, self._latest, self._intent)}
        return tasks.running_calls_applied(now) if self.keeps("tasks") else now

    # --- lines ---------------------------------------------------------------------------
    def feed(self, raw: bytes) -> None:
        self.line += 1
        if not raw.strip():
            return
        kind = top_level_type(raw)
        if kind == _PERMISSION_MODE:
            self._permission_mode(raw)
            return
        if kind is not None and kind in NOISE and not self._kept_noise(kind, raw):
            return
        if self._known_result(raw):
            return
        try:
            entry = fastjson.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):
            self.memory["skipped"]["malformed"] += 1
            return
        if isinstance(entry, dict):
            try:
                self.entry(entry)
            except (TypeError, AttributeError, KeyError, ValueError):  # a field of an odd shape
                self.memory["skipped"]["malformed"] += 1

    def _kept_noise(self, kind: bytes, raw: bytes) -> bool:
        if kind == _QUEUE_OPERATION:
            return self.keeps("agents") and any(mark in raw for mark in agents.NOTIFICATION_MARKS)
        if kind != _ATTACHMENT:
            return False
        what = _attachment_kind(raw)
        if what is not None and not what.startswith(_KINDS_TO_SCAN):
            return False  # (the large listings, snapshots and deltas: never scanned whole)
        if any(mark in raw for mark in _ATTACHMENTS_KEPT):
            return True
        return _HOOK_SUCCESS in raw and any(f["tool"] == "hook" for f in self.memory["failures"])

    def _permission_mode(self, raw: bytes) -> None:
        """The mode the session is in (2.1.114+): plan mode is on only while it says `plan`."""
        try:
            mode = fastjson.loads(raw).get("permissionMode")
        except (ValueError, UnicodeDecodeError, RecursionError, AttributeError):
            return
        plan_mode = self.memory.get("plan_mode")
        if mode == "plan" and not (plan_mode and plan_mode.get("active")):
            self.memory["plan_mode"] = {"active": True, "path": (plan_mode or {}).get("path"), "line": self.line}
        elif mode != "plan" and plan_mode and plan_mode.get("active"):
            plan_mode.update(active=False, line=self.line)

    def _known_result(self, raw: bytes) -> bool:
        """True when the line is one successful result of a call whose outcome needs no
        more than 'it worked': settled without parsing the (often large) output."""
        at = raw.find(_RESULT_ID)
        if at < 0 or raw.find(_RESULT_ID, at + 1) >= 0:
            return False
        start = at + len(_RESULT_ID)
        call_id = raw[start : raw.find(b'"', start)].decode("utf-8", "replace")
        call = self.memory["pending"].get(call_id)
        if call is None or call["tool"] in RESULT_MATTERS:
            return False
        if any(mark in raw for mark in _ERROR_MARKS) or b'"isSidechain":true' in raw[:300]:
            return False
        if b'"toolUseResult":"' in raw:  # an error told only by a string result (older clients)
            return False
        del self.memory["pending"][call_id]
        self._succeeded(call, None, None)
        return True

    # --- entries -------------------------------------------------------------------------
    def entry(self, entry: dict) -> None:
        if entry.get("isSidechain") is True:  # an inline (1.0.x) thread: only its answer ends its agent
            self.keeps("agents") and agents.thread_answered(self.memory["agents"], entry)
            return
        kind = entry.get("type")
        at = entry.get("timestamp")
        at = at if isinstance(at, str) else None
        if self.memory.get("cwd") is None and isinstance(entry.get("cwd"), str):
            self.memory["cwd"] = entry["cwd"]
        message = entry.get("message")
        message = message if isinstance(message, dict) else {}
        if kind == "user":
            self._user(entry, message, at)
        elif kind == "assistant":
            if entry.get("isApiErrorMessage"):
                return
            for block in content_blocks(message.get("content")):
                if block.get("type") == "tool_use":
                    self._call(block, at)
                elif (
                    block.get("type") == "text"
                    and isinstance(block.get("text"), str)
                    and block["text"].strip()
                    and self.keeps("next")
                ):
                    # redacted once, by `finish`: only the latest words are kept
                    self._next = self._intent = (block["text"].strip(), self.line)
        elif kind == "tool_result":  # the seed docs' dialect
            self._result(message.get("tool_use_id"), message, entry, at)
        elif kind == "system" and entry.get("subtype") == "compact_boundary":
            meta = entry.get("compactMetadata") if isinstance(entry.get("compactMetadata"), dict) else {}
            trigger = meta.get("trigger") if isinstance(meta.get("trigger"), str) else None
            compactions = self.memory["compactions"]
            if compactions and compactions[-1].get("line") is None and compactions[-1].get("summary") is None:
                compactions[-1].update(line=self.line, trigger=compactions[-1].get("trigger") or trigger)
            else:  # (a compaction the PostCompact hook told of first is the same one)
                compactions.append({"at": at, "trigger": trigger, "summary": None, "line": self.line})
        elif kind in ("attachment", TYPE_QUEUE_OPERATION):
            self._attachment(entry.get("attachment"), at)
            if self.keeps("agents"):
                for ending in agent_signals().completions(entry):
                    self._agent_said(agents.agent_ended(self.memory["agents"], ending), at)

    def _user(self, entry: dict, message: dict, at: str | None) -> None:
        if entry.get("isCompactSummary"):
            summaries = self.memory["compactions"]
            text = message.get("content")
            text = text if isinstance(text, str) else "\n".join(b.get("text", "") for b in content_blocks(text))
            if summaries and summaries[-1].get("summary") is None:
                summaries[-1]["summary"] = clip(redact(text), MAX_SUMMARY)
            return
        content = message.get("content")
        results = [b for b in content_blocks(content) if b.get("type") == "tool_result"]
        for block in results:
            self._result(block.get("tool_use_id"), block, entry, at)
        if results:
            return
        if agents.notified(content):
            note = agent_signals().notification(result_text(content), parse_time(at))
            if note is not None and self.keeps("agents"):
                self._agent_said(agents.agent_ended(self.memory["agents"], note), at)
            return
        text = person_request(entry, self.line)
        if text is not None:  # a new turn: what the assistant meant to do before it is spent
            self._intent = None
            if (self.memory.get("doing") or {}).get("intent") is not None:
                self.memory["doing"] = {k: v for k, v in self.memory["doing"].items() if k != "intent"}
        if text is not None and self.keeps("requests") and not kit_command(text):
            kept, shown = redact(excerpt(text, MAX_REQUEST * 4)), pastes_excerpted(text)
            keep_request(self.memory["requests"], kept, self.line, at, shown=kept if shown == text else redact(shown))

    def _agent_said(self, agent: dict | None, at: str | None) -> None:
        """An agent's answer: a failure it reports is open until fixed (`failures`)."""
        whole = agent.pop("_said", None) if agent is not None else None
        if agent is not None and agent.get("status") != RUNNING and self.keeps("failures"):
            said = (whole or agent.get("answer")) if agent.get("status") != FAILED else None
            self.memory["failures"] = open_failures.agent_reported(self.memory["failures"], agent, said, self.line, at)

    def _attachment(self, attachment: object, at: str | None) -> None:
        if not isinstance(attachment, dict):
            return
        kind = attachment.get("type")
        if kind == "hook_blocking_error" and self.keeps("failures"):
            call = attachment.get("toolUseID")
            if not (call in self.memory["pending"] or any(f.get("call") == call for f in self.memory["failures"])):
                open_failures.hook_blocked(self.memory["failures"], attachment, self.line, at)
            return
        if kind == "hook_success":
            self.memory["failures"] = open_failures.hook_succeeded(self.memory["failures"], attachment.get("hookName"))
            return
        if not self.keeps("plan"):
            return
        path = attachment.get("planFilePath")
        path = path if isinstance(path, str) else None
        if kind in ("plan_mode", "plan_mode_reentry"):
            self.memory["plan_mode"] = {"active": True, "path": path, "line": self.line}
        elif kind == "plan_mode_exit":
            self.memory["plan_mode"] = {"active": False, "path": path, "line": self.line}

    # --- calls ---------------------------------------------------------------------------
    def _call(self, block: dict, at: str | None) -> None:
        call_id = block.get("id")
        name = block.get("name")
        tool_input = block.get("input")
        if not isinstance(call_id, str) or not isinstance(name, str):
            return
        tool_input = tool_input if isinstance(tool_input, dict) else {}
        if self.keeps("next"):
            self._latest = (call_id, name, call_key(name, tool_input), tool_input.get("description"), self.line)
        if self._next is not None or self.memory.get("next"):  # the words before it are done, or doing
            self._next = None
            self.memory["next"] = None
        # redacted from the start: what is kept (even a call waiting for its result) is saved;
        # redaction is deterministic, so the same command still gives the same key
        if name == "Bash":
            command = redact(str(tool_input.get("command") or ""))
            call = {"tool": name, "key": "Bash: " + " ".join(command.split()), "line": self.line, "at": at}
            call["command"] = clip(command, 2000)
        else:
            key = call_key(name, tool_input)
            # a file tool's key is its path: no secret's shape, and there are many of them
            call = {"tool": name, "key": key if name in KEYED_BY_PATH else redact(key), "line": self.line, "at": at}
        if name in KEYED_BY_PATH:
            path = tool_input.get("file_path") or tool_input.get("notebook_path")
            call["path"] = path if isinstance(path, str) else None
            written = tool_input.get("content") if name == "Write" else tool_input.get("new_string")
            if call["path"] and is_working_document(call["path"], written if isinstance(written, str) else None):
                call["document"] = True
        elif name == "ExitPlanMode":
            plan = tool_input.get("plan")
            if self.keeps("plan"):
                self.memory["plan"] = {
                    "text": clip(redact(plan), MAX_PLAN) if isinstance(plan, str) and plan.strip() else None,
                    "path": None,
                    "status": "proposed",
                    "line": self.line,
                    "at": at,
                }
        elif name == "TodoWrite":
            call["todos"] = tasks.todo_items(tool_input.get("todos"), self.line) if self.keeps("tasks") else None
        elif name == "TaskCreate":
            call["subject"] = clip(redact(str(tool_input.get("subject") or tool_input.get("description") or "")), 300)
        elif name == "TaskUpdate":
            call["update"] = {k: tool_input.get(k) for k in ("taskId", "id", "status")}
            if isinstance(tool_input.get("subject"), str):
                call["update"]["subject"] = clip(redact(tool_input["subject"]), 300)
        elif name in SPAWNS_AGENT and self.keeps("agents"):
            agents.agent_started(self.memory["agents"], call_id, tool_input, self.line, at)
        elif name in STOPS_TASK:
            call["stops"] = stopped_task(name, tool_input)
        pending = self.memory["pending"]
        pending[call_id] = call
        if len(pending) > MAX_PENDING:  # calls that never got a result: forget the oldest
            for stale in list(pending)[: len(pending) - MAX_PENDING]:
                del pending[stale]

    def _result(self, call_id: object, block: dict, entry: dict, at: str | None) -> None:
        if not isinstance(call_id, str):
            return
        call = self.memory["pending"].pop(call_id, None)
        if call is None:
            return
        extra = entry.get("toolUseResult")
        failed = block.get("is_error") is True or (
            isinstance(extra, str) and extra.startswith("Error") and call["tool"] != "Read"
        )
        if failed:
            text = result_text(block.get("content"))
            version = entry.get("version")
            kind = denial_kind(entry)
            declined = is_declined(
                text, tool=call["tool"], version=version if isinstance(version, str) else None, kind=kind
            )
            self._failed(call, call_id, text, at, declined=declined, denial=kind)
        else:
            self._succeeded(call, block, extra, call_id=call_id, at=at)

    def _succeeded(
        self, call: dict, block: dict | None, extra: object, *, call_id: str | None = None, at: str | None = None
    ) -> None:
        tool = call["tool"]
        self.memory["failures"] = open_failures.call_succeeded(self.memory["failures"], call)
        if call.get("document") and self.keeps("plan"):
            touched(self.memory["documents"], call["path"], "read" if tool == "Read" else "wrote", call["line"], at)
        if tool in WRITES_FILE and call.get("path"):
            created = tool == "Write" and isinstance(extra, dict) and extra.get("type") == "create"
            self._file_changed(call["path"], "created" if created else "edited", call)
        elif tool == "Read" and call.get("path") and self.keeps("reads"):
            reads = [r for r in self.memory["reads"] if r["path"] != call["path"]]
            reads.insert(0, {"path": call["path"], "line": call["line"]})
            self.memory["reads"] = reads[:MAX_READS]
        elif tool == "Bash":
            for path in removed_paths(call.get("command") or ""):
                self._file_changed(path, "deleted", call)
            if self.keeps("plan") and any(f"{name} " in (call.get("command") or "") for name in doing.TRACKERS):
                doing.tracker_command(self.memory, call.get("command") or "", call["line"])
        elif tool == "ExitPlanMode":
            self._plan_answered("approved", extra, block)
        elif tool == "TaskCreate" and self.keeps("tasks"):
            tasks.task_created(self.memory, call, extra, block)
        elif tool == "TodoWrite":  # applied once it worked: a refused call changed nothing
            tasks.todos(self.memory, call.get("todos"))
        elif tool == "TaskUpdate" and self.keeps("tasks"):
            tasks.task_update(self.memory, call.get("update") or {}, self.line)
        elif tool in SPAWNS_AGENT:
            self._agent_said(
                agents.agent_answered(self.memory["agents"], call_id, extra, block, failed=False, at=at), at
            )
        elif tool in STOPS_TASK and call.get("stops") and self.keeps("agents"):
            self._agent_said(agents.agent_stopped(self.memory["agents"], call["stops"], parse_time(at)), at)
        elif tool == "TaskOutput" and block is not None and self.keeps("agents"):
            polled = agent_signals().task_output(extra, result_text(block.get("content")), parse_time(at))
            if polled is not None:
                self._agent_said(agents.agent_ended(self.memory["agents"], polled), at)

    def _failed(
        self, call: dict, call_id: str, text: str, at: str | None, *, declined: bool = False, denial: str | None = None
    ) -> None:
        """A call that did not go through: failed, or `declined` by the person (never an open
        failure: their decision, `base.declines`)."""
        tool = call["tool"]
        if tool == "ExitPlanMode":
            self._plan_answered("refused", None, {"content": text})
            return
        if tool in SPAWNS_AGENT:
            agents.agent_answered(
                self.memory["agents"], call_id, None, {"content": text}, failed=True, at=at, denial=denial
            )
        if self.keeps("failures") and declined:
            open_failures.call_declined(self.memory.setdefault("declined", []), call, text, self.line)
        elif self.keeps("failures"):
            open_failures.call_failed(self.memory["failures"], call, call_id, text, at, self.line)

    # --- files, plan, tasks, agents ------------------------------------------------------
    def _file_changed(self, path: str, change: str, call: dict) -> None:
        if not self.keeps("files"):
            return
        files = self.memory["files"]
        known = files.pop(path, None)  # re-inserted: the dict stays in order of last change
        if known is None:
            known = {"change": change, "times": 0}
        elif change == "deleted" or known["change"] == "deleted":
            known["change"] = change
        known["times"] += 1
        known["line"] = call["line"]
        known["at"] = call.get("at")
        files[path] = known
        if len(files) > MAX_FILES:
            del files[next(iter(files))]
        mode = self.memory.get("plan_mode")
        if mode and mode.get("path") == path and change != "deleted" and self.keeps("plan"):
            plan = self.memory.get("plan")
            if not plan or plan.get("path") != path or plan.get("status") != "writing":
                self.memory["plan"] = {
                    "text": None,
                    "path": path,
                    "status": "writing",
                    "line": call["line"],
                    "at": call.get("at"),
                }

    def _plan_answered(self, status: str, extra: object, block: dict | None) -> None:
        plan = self.memory.get("plan")
        if not plan or not self.keeps("plan"):
            return
        plan["status"] = status
        mode = self.memory.get("plan_mode")
        if status == "approved" and mode and mode.get("active"):  # approving the plan leaves plan mode
            mode.update(active=False, line=self.line)
        if isinstance(extra, dict):
            path = extra.get("filePath")
            if isinstance(path, str) and path:
                plan["path"] = path
            if not plan.get("text") and isinstance(extra.get("plan"), str) and extra["plan"].strip():
                plan["text"] = clip(redact(extra["plan"]), MAX_PLAN)
        if status == "refused" and block is not None:
            reason = result_text(block.get("content")).replace("<tool_use_error>", "").replace("</tool_use_error>", "")
            plan["reason"] = clip(redact(reason.strip()), 300)
        if not plan.get("text") and plan.get("path"):
            text = read_plan_file(plan["path"])
            if text:
                plan["text"] = clip(redact(text), MAX_PLAN)

"""Builds small transcript files by hand, in each dialect the kit reads.

`Transcript` writes the current client's shape by default (ISO timestamps, tool results in
user entries with `toolUseResult`, one assistant line per content block sharing a message
id); `dialect="seed"` writes the seed docs' shape (top-level `tool_result` entries, float
`message.timestamp`).
"""

from __future__ import annotations

import itertools
import json
import uuid as uuidlib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from session_kit.base.encoding import encode_project_dir

_ids = itertools.count(1)


def new_id(prefix: str = "toolu_") -> str:
    return f"{prefix}{next(_ids):06d}"


class Transcript:
    def __init__(
        self,
        session_id: str | None = None,
        *,
        cwd: str = "/work/proj",
        branch: str = "main",
        start: datetime = datetime(2026, 11, 1, 9, 0, 0, tzinfo=timezone.utc),
        dialect: str = "current",
        agent_id: str | None = None,
        slug: str | None = None,
        version: str = "2.1.328",
    ) -> None:
        self.session_id = session_id or str(uuidlib.uuid4())
        self.slug = slug  # the current client's per-session slug, written on every entry
        self.cwd = cwd
        self.branch = branch
        self.clock = start
        self.dialect = dialect
        self.agent_id = agent_id
        self.version = version
        self.lines: list[dict[str, Any]] = []
        self._last_uuid: str | None = None
        self._sidechain = agent_id is not None

    # --- time ---
    def tick(self, seconds: float = 1.0) -> datetime:
        self.clock += timedelta(seconds=seconds)
        return self.clock

    def _base(self, kind: str) -> dict[str, Any]:
        stamp = self.tick()
        u = str(uuidlib.uuid4())
        entry: dict[str, Any] = {"type": kind, "sessionId": self.session_id}
        if self.dialect == "seed":
            entry["_stamp"] = stamp.timestamp()
            return entry
        entry.update(
            {
                "parentUuid": self._last_uuid,
                "isSidechain": self._sidechain,
                "uuid": u,
                "timestamp": stamp.isoformat().replace("+00:00", "Z"),
                "cwd": self.cwd,
                "gitBranch": self.branch,
                "version": self.version,
            }
        )
        if self.agent_id:
            entry["agentId"] = self.agent_id
        if self.slug:
            entry["slug"] = self.slug
        self._last_uuid = u
        return entry

    def _message(self, entry: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
        if self.dialect == "seed":
            message["timestamp"] = entry.pop("_stamp")
        entry["message"] = message
        self.lines.append(entry)
        return entry

    def inline_agent(self) -> Transcript:
        """A 1.0.x subagent thread written INLINE into this file: its entries have
        `isSidechain: true`, no `agentId`, and their own `parentUuid` chain from a null root.
        Share the clock back with `main.clock = thread.clock` when it is done."""
        thread = Transcript(self.session_id, cwd=self.cwd, branch=self.branch, start=self.clock, version=self.version)
        thread.lines = self.lines  # one file
        thread._sidechain = True
        return thread

    # --- conversation ---
    def user(self, text: str, **extra: Any) -> dict[str, Any]:
        entry = self._base("user")
        entry.update(extra)
        content: Any = text if self.dialect == "current" else [{"type": "text", "text": text}]
        return self._message(entry, {"role": "user", "content": content})

    def slash_command(self, name: str, body: str, args: str = "") -> None:
        """A prompt slash command as 2.1.328 writes it: the request echo (`<command-message>`,
        `<command-name>`, `<command-args>` when given), then the body the command file was
        expanded into (its `!` lines' output in it) as a meta user entry, child of the echo."""
        echo = f"<command-message>{name.lstrip('/')}</command-message>\n<command-name>{name}</command-name>"
        if args:
            echo += f"\n<command-args>{args}</command-args>"
        self.user(echo)
        entry = self._base("user")
        entry.update({"isMeta": True, "turnCompanion": True})
        self._message(entry, {"role": "user", "content": [{"type": "text", "text": body}]})

    def assistant(
        self, *blocks: dict[str, Any], message_id: str | None = None, usage: dict[str, int] | None = None
    ) -> list[dict[str, Any]]:
        """One API response: one line per block (current), or one line (seed)."""
        message_id = message_id or new_id("msg_")
        usage = usage or {
            "input_tokens": 10,
            "output_tokens": 5,
            "cache_creation_input_tokens": 100,
            "cache_read_input_tokens": 1000,
        }
        if self.dialect == "seed":
            entry = self._base("assistant")
            return [self._message(entry, {"role": "assistant", "content": list(blocks)})]
        written = []
        for block in blocks:
            entry = self._base("assistant")
            written.append(
                self._message(
                    entry,
                    {
                        "id": message_id,
                        "role": "assistant",
                        "model": "claude-test",
                        "content": [block],
                        "usage": dict(usage),
                    },
                )
            )
        return written

    def say(self, text: str) -> list[dict[str, Any]]:
        return self.assistant({"type": "text", "text": text})

    def tool_use(
        self, name: str, tool_input: dict[str, Any], *, text: str | None = None, call_id: str | None = None
    ) -> str:
        call_id = call_id or new_id()
        blocks = ([{"type": "text", "text": text}] if text else []) + [
            {"type": "tool_use", "id": call_id, "name": name, "input": tool_input}
        ]
        self.assistant(*blocks)
        return call_id

    def tool_result(self, call_id: str, content: Any, *, is_error: bool = False, extra: Any = None) -> dict[str, Any]:
        if self.dialect == "seed":
            entry = self._base("tool_result")
            return self._message(entry, {"tool_use_id": call_id, "content": content, "is_error": is_error})
        entry = self._base("user")
        if extra is not None:
            entry["toolUseResult"] = extra
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
        if is_error:
            block["is_error"] = True
        return self._message(entry, {"role": "user", "content": [block]})

    def bash(self, command: str, output: str = "", *, exit_code: int = 0, stderr: str = "") -> str:
        call_id = self.tool_use("Bash", {"command": command, "description": "run"})
        if exit_code:
            text = f"Exit code {exit_code}\n{stderr or output}"
            self.tool_result(call_id, text, is_error=True, extra=f"Error: {text}")
        else:
            self.tool_result(call_id, output, extra={"stdout": output, "stderr": stderr, "interrupted": False})
        return call_id

    # --- client bookkeeping ---
    def noise(self, kind: str = "attachment", size: int = 200, **fields: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "type": kind,
            "sessionId": self.session_id,
            "timestamp": self.tick().isoformat().replace("+00:00", "Z"),
        }
        if kind == "attachment":
            entry["attachment"] = {"type": "skill_listing", "content": "x" * size}
        else:
            entry["data"] = "y" * size
        entry.update(fields)
        self.lines.append(entry)
        return entry

    def attachment(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A client `attachment` entry, e.g. `attachment("plan_mode", planFilePath=...)`."""
        entry = self._base("attachment")
        entry["attachment"] = {"type": kind, **fields}
        self.lines.append(entry)
        return entry

    def progress(self, hook_event: str = "PostToolUse", *, tool_use_id: str | None = None) -> dict[str, Any]:
        """A 2.1.x `progress` line: one hook run, keys in the client's order (`type` mid-line)."""
        stamp = self.tick(0.01).isoformat().replace("+00:00", "Z")
        entry: dict[str, Any] = {
            "parentUuid": self._last_uuid,
            "isSidechain": self._sidechain,
            "userType": "external",
            "cwd": self.cwd,
            "sessionId": self.session_id,
            "version": self.version,
            "gitBranch": self.branch,
            "type": "progress",
            "data": {
                "type": "hook_progress",
                "hookEvent": hook_event,
                "hookName": f"{hook_event}:Bash",
                "command": "${CLAUDE_PLUGIN_ROOT}/hooks/run-hook post-tool-use",
            },
            "parentToolUseID": tool_use_id,
            "toolUseID": tool_use_id,
            "timestamp": stamp,
            "uuid": str(uuidlib.uuid4()),
        }
        self.lines.append(entry)
        return entry

    def permission_mode(self, mode: str = "acceptEdits") -> dict[str, Any]:
        """A `permission-mode` line (2.1.114+): the mode the session is in."""
        entry = {"type": "permission-mode", "permissionMode": mode, "sessionId": self.session_id}
        self.lines.append(entry)
        return entry

    def api_error(self, text: str) -> dict[str, Any]:
        """The assistant entry the client writes when an API call failed."""
        [entry] = self.say(text)
        entry.update({"isApiErrorMessage": True, "error": "unknown"})
        return entry

    def compact(self, summary: str, *, trigger: str = "manual", pre_tokens: int = 12345) -> None:
        boundary = self._base("system")
        boundary.update(
            {
                "subtype": "compact_boundary",
                "content": "Conversation compacted",
                "parentUuid": None,
                "logicalParentUuid": boundary.get("parentUuid"),
                "compactMetadata": {"trigger": trigger, "preTokens": pre_tokens},
            }
        )
        self.lines.append(boundary)
        self.user(summary, isCompactSummary=True, isVisibleInTranscriptOnly=True)

    def ai_title(self, title: str) -> None:
        """A current client's generated title line, repeated as the session goes on."""
        self.lines.append({"type": "ai-title", "aiTitle": title, "sessionId": self.session_id})

    def custom_title(self, title: str) -> None:
        """A `/rename`: the person's title, which wins over every generated one."""
        self.lines.append({"type": "custom-title", "customTitle": title, "sessionId": self.session_id})

    def summary_2025(self, summary: str) -> None:
        self.lines.append({"type": "summary", "summary": summary, "leafUuid": str(uuidlib.uuid4())})

    def raw(self, obj: dict[str, Any]) -> None:
        self.lines.append(obj)

    # --- output ---
    def text(self) -> str:
        return "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in self.lines)

    def write(self, path: Path, *, tail: bytes = b"", head: bytes = b"") -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(head + self.text().encode("utf-8") + tail)
        return path

    def write_session(self, root: Path) -> Path:
        """As the main session file of its cwd's project under `root`."""
        return self.write(root / "projects" / encode_project_dir(self.cwd) / f"{self.session_id}.jsonl")

    def write_subagent(self, root: Path, parent: Transcript, *, meta: dict[str, Any] | None = None) -> Path:
        """As a current-layout subagent log of `parent`, with its meta file."""
        assert self.agent_id
        folder = root / "projects" / encode_project_dir(parent.cwd) / parent.session_id / "subagents"
        path = self.write(folder / f"agent-{self.agent_id}.jsonl")
        if meta is not None:
            (folder / f"agent-{self.agent_id}.meta.json").write_text(json.dumps(meta))
        return path

    def write_legacy_agent(self, root: Path, parent: Transcript) -> Path:
        """As a 2025-layout agent log beside the sessions."""
        assert self.agent_id
        return self.write(root / "projects" / encode_project_dir(parent.cwd) / f"agent-{self.agent_id}.jsonl")

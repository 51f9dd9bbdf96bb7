"""A loopback fake of the Anthropic Messages API, for driving the real Claude Code client.

This module owns the fake server, its script and its request log. It does not start the
client (that is ``client.py``) and knows nothing of the kit. Standard library only.

Endpoints: ``POST /v1/messages`` (streamed as server-sent events when ``"stream": true``, else
one JSON message; both with usage numbers), ``POST /v1/messages/count_tokens`` (a size-based
count) and ``GET /v1/models`` (an empty list); anything else gets a 404 error body. Every
request is logged, whatever its path.

Script API
----------
A reply ("turn") is a list of content blocks, built with the helpers below::

    text("Done.")                              # a text block
    thinking("Let me think.")                  # a thinking block (with a fake signature)
    tool_use("Read", {"file_path": "/x"})      # any tool; id is generated unless given
    bash("ls /nonexistent-dir")                # = tool_use("Bash", {"command": ..., ...})
    agent("Plan", "PLAN-AGENT: plan it", background=False)  # Agent tool with subagent_type
    exit_plan_mode("1. Do it\\n2. Check it")    # ExitPlanMode with a plan

A reply containing a tool_use ends with ``stop_reason: "tool_use"``; otherwise ``end_turn``.
A plain string stands for ``[text(string)]``.

A ``Script`` says which reply answers which request::

    Script(
        main=[turn1, turn2, ...],              # the main conversation, or a dict (see below)
        agents={"substring of the subagent prompt": [turn1, turn2, ...]},
        compact_summary="Summary: ...",        # the reply to a /compact summary request
    )

- Conversations. A request that asks for a conversation summary (``/compact``) gets
  ``compact_summary``. A subagent's requests carry an ``x-claude-code-agent-id`` header; one
  whose first human text (its prompt) contains a key of ``agents`` is that agent's (first
  matching key wins), another gets ``default_reply``. Otherwise a request that offers the
  ``Bash`` tool and has a system prompt is the main conversation. Anything else is a side
  request (title, topic, ...) and gets ``side_reply``. "Human text" is a user message's own
  text: tool results and ``<system-reminder>`` blocks do not count.
- Turns. Each ``claude -p PROMPT`` run adds a human prompt; the turn index is the number of
  assistant messages after the latest human prompt (tool results do not count as human). So
  ``main=[...]`` scripts every prompt the same way from its first turn. To script several runs
  (``--resume``) differently, give ``main`` as a dict ``{"substring of the prompt": [turns]}``;
  the first key found in the latest human prompt wins.
- Past the end of a list the answer is ``default_reply`` (a short text, ``end_turn``), so a
  conversation always ends.
- ``Script(decide=fn)`` (or ``Script(fn)``): ``fn(exchange: Exchange) -> reply | None`` decides
  first; ``None`` falls back to the lists above.

Request log
-----------
Every request is kept in ``fake.exchanges`` as an ``Exchange`` (method, path, headers, parsed
JSON body, the conversation it was classified into, the turn and the reply given). Helpers:
``fake.requests_containing(text)``, ``fake.main_requests()``, ``fake.last_main_request()``,
``fake.agent_requests(key)``, ``fake.paths()``, ``fake.log_tail(n)`` (for assertion messages),
``fake.dump(path)`` (the whole log as JSON lines, for exploring), and ``flatten_request(body)``
which renders system + messages as plain text. ``fake.errors`` lists exceptions raised while
answering (a broken ``decide``), which are answered with a 500.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

Block = dict[str, Any]
Reply = str | Sequence[Block]

DEFAULT_REPLY = "OK."
DEFAULT_COMPACT_SUMMARY = (
    "<summary>\nThe user asked for a scripted end-to-end session; it ran Bash, file tools and "
    "two subagents. Nothing is pending.\n</summary>"
)
SIDE_REPLY = "Scripted session"

_ids = itertools.count(1)


# --- reply blocks -------------------------------------------------------------------------


def text(value: str) -> Block:
    return {"type": "text", "text": value}


def thinking(value: str) -> Block:
    return {"type": "thinking", "thinking": value, "signature": "fake-signature"}


def tool_use(name: str, input: Mapping[str, Any], *, id: str | None = None) -> Block:
    return {
        "type": "tool_use",
        "id": id or f"toolu_fake{next(_ids):04d}{uuid.uuid4().hex[:12]}",
        "name": name,
        "input": dict(input),
    }


def bash(command: str, *, description: str | None = None, id: str | None = None) -> Block:
    args: dict[str, Any] = {"command": command}
    if description:
        args["description"] = description
    return tool_use("Bash", args, id=id)


def agent(
    subagent_type: str,
    prompt: str,
    *,
    description: str = "Scripted subagent",
    background: bool | None = None,
    id: str | None = None,
) -> Block:
    """The Agent tool. The client runs an agent in the background unless ``background=False``."""
    args: dict[str, Any] = {"description": description, "prompt": prompt, "subagent_type": subagent_type}
    if background is not None:
        args["run_in_background"] = background
    return tool_use("Agent", args, id=id)


def exit_plan_mode(plan: str, *, id: str | None = None) -> Block:
    return tool_use("ExitPlanMode", {"plan": plan}, id=id)


def _blocks(reply: Reply) -> list[Block]:
    if isinstance(reply, str):
        return [text(reply)]
    return [dict(b) for b in reply]


# --- reading requests ---------------------------------------------------------------------


def _block_text(block: Any) -> str:
    if isinstance(block, str):
        return block
    if not isinstance(block, Mapping):
        return ""
    kind = block.get("type")
    if kind == "text":
        return str(block.get("text", ""))
    if kind == "thinking":
        return str(block.get("thinking", ""))
    if kind == "tool_use":
        return f"[tool_use {block.get('name')} {json.dumps(block.get('input'), sort_keys=True)}]"
    if kind == "tool_result":
        content = block.get("content")
        inner = content if isinstance(content, str) else "\n".join(map(_block_text, content or []))
        return f"[tool_result{' error' if block.get('is_error') else ''}] {inner}"
    return f"[{kind}]"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(_block_text(b) for b in content or [])


def flatten_request(body: Mapping[str, Any] | None) -> str:
    """System prompt and messages of a Messages API request, as plain text."""
    if not body:
        return ""
    parts = [f"[system] {_content_text(body.get('system'))}"]
    for message in body.get("messages") or []:
        parts.append(f"[{message.get('role')}] {_content_text(message.get('content'))}")
    return "\n".join(parts)


def _own_texts(message: Mapping[str, Any]) -> list[str]:
    """The texts a user message carries itself: not tool results, not ``<system-reminder>``s."""
    if message.get("role") != "user":
        return []
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    return [
        str(b.get("text", ""))
        for b in blocks
        if isinstance(b, Mapping)
        and b.get("type") == "text"
        and not str(b.get("text", "")).lstrip().startswith("<system-reminder>")
    ]


def _is_human_message(message: Mapping[str, Any]) -> bool:
    return bool(_own_texts(message))


def _human_text(message: Mapping[str, Any]) -> str:
    return "\n".join(_own_texts(message))


def _tool_names(body: Mapping[str, Any]) -> set[str]:
    return {t.get("name") for t in body.get("tools") or [] if isinstance(t, Mapping)}


_COMPACT_MARKERS = (
    "create a detailed summary of the conversation",
    "summary of the conversation so far",
    "Your task is to create a detailed summary",
)


# --- the log --------------------------------------------------------------------------------


@dataclass
class Exchange:
    """One request the client made, and what the fake answered."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any
    at: float = field(default_factory=time.time)
    conversation: str = "other"  # "main", "agent:<key>", "agent:?", "compact", "side", "other"
    turn: int | None = None
    reply: list[Block] | None = None
    status: int = 200
    usage: dict[str, Any] | None = None  # what the fake answered: message id, input and final output tokens

    @property
    def messages(self) -> list[Mapping[str, Any]]:
        return list((self.body or {}).get("messages") or []) if isinstance(self.body, Mapping) else []

    @property
    def first_human_text(self) -> str:
        return next((_human_text(m) for m in self.messages if _is_human_message(m)), "")

    @property
    def last_human_text(self) -> str:
        humans = [m for m in self.messages if _is_human_message(m)]
        return _human_text(humans[-1]) if humans else ""

    @property
    def agent_id(self) -> str | None:
        """Subagents' requests carry the agent id in a header (the main conversation's do not)."""
        return self.headers.get("x-claude-code-agent-id")

    @property
    def tool_names(self) -> set[str]:
        return _tool_names(self.body) if isinstance(self.body, Mapping) else set()

    def text(self) -> str:
        return flatten_request(self.body if isinstance(self.body, Mapping) else None)

    def summary(self) -> str:
        reply = ""
        if self.reply is not None:
            reply = " -> " + ", ".join(b["name"] if b["type"] == "tool_use" else b["type"] for b in self.reply)
        return (
            f"{self.method} {self.path} [{self.conversation} turn={self.turn}] "
            f"msgs={len(self.messages)} prompt={self.last_human_text[-60:]!r}{reply}"
        )


# --- the script -----------------------------------------------------------------------------


@dataclass
class Script:
    main: Sequence[Reply] | Mapping[str, Sequence[Reply]] = ()
    agents: Mapping[str, Sequence[Reply]] = field(default_factory=dict)
    compact_summary: str = DEFAULT_COMPACT_SUMMARY
    side_reply: str = SIDE_REPLY
    default_reply: str = DEFAULT_REPLY
    decide: Callable[[Exchange], Reply | None] | None = None

    def __post_init__(self) -> None:
        if callable(self.main) and not isinstance(self.main, (Sequence, Mapping)):
            self.decide, self.main = self.main, ()

    def classify(self, exchange: Exchange) -> None:
        """Set ``exchange.conversation`` and ``exchange.turn``."""
        body = exchange.body if isinstance(exchange.body, Mapping) else {}
        messages = exchange.messages
        last_human = max((i for i, m in enumerate(messages) if _is_human_message(m)), default=-1)
        exchange.turn = sum(1 for m in messages[last_human + 1 :] if m.get("role") == "assistant")
        if any(marker in exchange.last_human_text for marker in _COMPACT_MARKERS):
            exchange.conversation = "compact"
            return
        if exchange.agent_id:
            first = exchange.first_human_text
            key = next((k for k in self.agents if k in first), "?")  # "?": not in the script
            exchange.conversation = f"agent:{key}"
        elif "Bash" in exchange.tool_names and body.get("system"):
            exchange.conversation = "main"
        else:
            exchange.conversation = "side"

    def reply_for(self, exchange: Exchange) -> list[Block]:
        if self.decide is not None:
            decided = self.decide(exchange)
            if decided is not None:
                return _blocks(decided)
        conv, turn = exchange.conversation, exchange.turn or 0
        if conv == "compact":
            return [text(self.compact_summary)]
        if conv == "side":
            return [text(self.side_reply)]
        turns: Sequence[Reply] = ()
        if conv == "main":
            if isinstance(self.main, Mapping):
                prompt = exchange.last_human_text
                turns = next((t for k, t in self.main.items() if k in prompt), ())
            else:
                turns = self.main
        elif conv.startswith("agent:") and conv != "agent:?":
            turns = self.agents[conv[len("agent:") :]]
        if turn < len(turns):
            return _blocks(turns[turn])
        return [text(self.default_reply)]


# --- the server -----------------------------------------------------------------------------


def _usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _sse_events(message_id: str, model: str, blocks: list[Block], input_tokens: int) -> Iterable[tuple[str, dict]]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    yield (
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": message_id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": _usage(input_tokens, 1),
            },
        },
    )
    yield "ping", {"type": "ping"}
    for index, block in enumerate(blocks):
        kind = block["type"]
        if kind == "text":
            start = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": block["text"]}]
        elif kind == "thinking":
            start = {"type": "thinking", "thinking": "", "signature": ""}
            deltas = [
                {"type": "thinking_delta", "thinking": block["thinking"]},
                {"type": "signature_delta", "signature": block.get("signature", "fake-signature")},
            ]
        elif kind == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            payload = json.dumps(block["input"])
            # Two chunks, so the client really assembles partial JSON.
            cut = len(payload) // 2
            deltas = [
                {"type": "input_json_delta", "partial_json": payload[:cut]},
                {"type": "input_json_delta", "partial_json": payload[cut:]},
            ]
        else:
            raise ValueError(f"unsupported block type {kind!r}")
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
        for delta in deltas:
            yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens(blocks)},
        },
    )
    yield "message_stop", {"type": "message_stop"}


def output_tokens(blocks: list[Block]) -> int:
    """The final `output_tokens` of a streamed reply (`message_start` says 1)."""
    return 1 + sum(max(1, len(json.dumps(block)) // 4) for block in blocks)


class FakeMessagesAPI:
    """A running fake: ``with FakeMessagesAPI(script) as fake: ... fake.base_url``."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or Script()
        self.exchanges: list[Exchange] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # lifecycle
    def start(self) -> FakeMessagesAPI:
        fake = self

        class Handler(_Handler):
            api = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeMessagesAPI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "fake API not started"
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    # log helpers
    def record(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)

    def message_requests(self) -> list[Exchange]:
        return [e for e in list(self.exchanges) if urlsplit(e.path).path == "/v1/messages"]

    def requests_containing(self, needle: str) -> list[Exchange]:
        return [e for e in self.message_requests() if needle in e.text()]

    def main_requests(self) -> list[Exchange]:
        return [e for e in self.message_requests() if e.conversation == "main"]

    def last_main_request(self) -> Exchange:
        requests = self.main_requests()
        assert requests, "no main-conversation request was made\n" + self.log_tail()
        return requests[-1]

    def agent_requests(self, key: str | None = None) -> list[Exchange]:
        prefix = "agent:" if key is None else f"agent:{key}"
        return [e for e in self.message_requests() if e.conversation.startswith(prefix)]

    def paths(self) -> list[str]:
        return [f"{e.method} {e.path}" for e in list(self.exchanges)]

    def log_tail(self, n: int = 15) -> str:
        lines = [e.summary() for e in list(self.exchanges)[-n:]]
        lines += [f"ERROR {err}" for err in self.errors[-5:]]
        return "fake API log (last requests):\n  " + "\n  ".join(lines or ["<no requests>"])

    def dump(self, path: str) -> None:
        """Write the whole log as JSON lines (for exploring what the client sends)."""
        with open(path, "w", encoding="utf-8") as f:
            for e in list(self.exchanges):
                row = {
                    k: getattr(e, k)
                    for k in ("method", "path", "headers", "conversation", "turn", "reply", "status", "body")
                }
                f.write(json.dumps(row) + "\n")


class _Handler(BaseHTTPRequestHandler):
    api: FakeMessagesAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet; `format` is the base class's name
        pass

    def _read_body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode("utf-8", "replace")

    def _exchange(self) -> Exchange:
        return Exchange(
            method=self.command,
            path=self.path,
            headers={k.lower(): v for k, v in self.headers.items()},
            body=self._read_body() if self.command in ("POST", "PUT", "PATCH") else None,
        )

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", f"req_fake_{uuid.uuid4().hex[:16]}")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        exchange = self._exchange()
        self.api.record(exchange)
        route = urlsplit(self.path).path
        if route.startswith("/v1/models"):
            exchange.status = 200
            self._send_json(200, {"data": [], "has_more": False, "first_id": None, "last_id": None})
            return
        exchange.status = 404
        self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake"}})

    do_HEAD = do_GET
    do_DELETE = do_GET

    def do_POST(self) -> None:
        exchange = self._exchange()
        self.api.record(exchange)
        route = urlsplit(self.path).path
        try:
            if route == "/v1/messages":
                self._messages(exchange)
            elif route == "/v1/messages/count_tokens":
                size = len(json.dumps(exchange.body or {}))
                self._send_json(200, {"input_tokens": max(1, size // 4)})
            else:
                exchange.status = 404
                self._send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "fake"}})
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as error:  # a bug in a script must show up in the test, not hang it
            self.api.errors.append(f"{exchange.path}: {error!r}")
            exchange.status = 500
            try:
                self._send_json(500, {"type": "error", "error": {"type": "api_error", "message": repr(error)}})
            except OSError:
                pass

    def _messages(self, exchange: Exchange) -> None:
        body = exchange.body if isinstance(exchange.body, Mapping) else {}
        script = self.api.script
        script.classify(exchange)
        blocks = script.reply_for(exchange)
        exchange.reply = blocks
        model = str(body.get("model") or "claude-fake")
        message_id = f"msg_fake{uuid.uuid4().hex[:20]}"
        input_tokens = max(1, len(json.dumps(body)) // 4)
        streamed = bool(body.get("stream"))
        exchange.usage = {
            "message_id": message_id,
            "input_tokens": input_tokens,
            "output_tokens": output_tokens(blocks) if streamed else 10,
        }
        if not streamed:
            stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
            self._send_json(
                200,
                {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": blocks,
                    "stop_reason": stop,
                    "stop_sequence": None,
                    "usage": _usage(input_tokens, 10),
                },
            )
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.send_header("request-id", f"req_fake_{uuid.uuid4().hex[:16]}")
        self.end_headers()
        for event, data in _sse_events(message_id, model, blocks, input_tokens):
            self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True

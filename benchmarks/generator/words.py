"""What every generated text is made of: the client's version and model, the planted search
words, the sizes and clock of a history, the words and names texts are drawn from, and the
small encoders (JSON-escaped text, timestamps, ids) every line uses.

Owns constants and pure helpers only; does not build texts (`pools`) or lines (`transcript`).
"""

from __future__ import annotations

import json
import random
import time

CLIENT_VERSION = "2.1.328"
MODEL = "claude-opus-4-5-20251101"
# A word found in tool outputs (failing tests, tracebacks) across many sessions, and a token
# planted only in a handful of user prompts; the search benchmarks look for both.
COMMON_QUERY = "AssertionError"
RARE_QUERY = "quasar-kestrel"
RARE_EVERY = 997  # sessions whose index is a multiple of this get the rare token
NOISE_SHARE = 0.8  # of each file's bytes
START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
SPAN_MS = 300 * 86_400_000

WORDS = [
    "parser",
    "session",
    "token",
    "buffer",
    "stream",
    "cache",
    "index",
    "query",
    "router",
    "handler",
    "worker",
    "queue",
    "config",
    "schema",
    "record",
    "payload",
    "offset",
    "cursor",
    "snapshot",
    "reader",
    "writer",
    "encoder",
    "decoder",
    "request",
    "response",
    "timeout",
    "retry",
    "backoff",
    "socket",
    "channel",
    "thread",
    "process",
    "module",
    "package",
    "fixture",
    "assertion",
    "migration",
    "transaction",
    "commit",
    "branch",
    "rebase",
    "merge",
    "conflict",
    "deploy",
    "container",
    "image",
    "volume",
    "cluster",
    "node",
    "shard",
    "replica",
    "leader",
    "follower",
    "election",
    "heartbeat",
    "metric",
    "counter",
    "gauge",
    "histogram",
    "latency",
    "throughput",
    "budget",
    "quota",
    "limit",
    "window",
    "bucket",
    "template",
    "render",
    "layout",
    "widget",
    "component",
    "state",
    "reducer",
    "effect",
    "hook",
    "context",
    "provider",
    "tokenizer",
    "lexer",
    "grammar",
    "syntax",
    "tree",
    "visitor",
    "transform",
    "pass",
    "optimizer",
    "emitter",
    "linker",
    "compile",
    "build",
    "artifact",
    "wheel",
    "install",
    "resolve",
    "lock",
    "version",
    "pin",
    "upgrade",
    "rollback",
    "patch",
]
VERBS = [
    "refactor",
    "fix",
    "add",
    "remove",
    "rename",
    "split",
    "merge",
    "cache",
    "validate",
    "parse",
    "serialize",
    "stream",
    "retry",
    "log",
    "trace",
    "profile",
    "benchmark",
    "document",
    "test",
    "mock",
    "inline",
    "extract",
    "simplify",
]
TOOL_NAMES = [
    "Bash",
    "Read",
    "Edit",
    "Write",
    "Grep",
    "Glob",
    "Agent",
    "WebFetch",
    "WebSearch",
    "TodoWrite",
    "NotebookEdit",
    "BashOutput",
    "KillShell",
    "ExitPlanMode",
    "SlashCommand",
    "Skill",
    "AskUserQuestion",
]
EXCEPTIONS = [
    "AssertionError",
    "KeyError",
    "ValueError",
    "TypeError",
    "AttributeError",
    "ModuleNotFoundError",
    "ConnectionResetError",
    "TimeoutError",
    "FileNotFoundError",
    "IndexError",
    "RuntimeError",
]
AGENT_TYPES = ("general-purpose", "Explore", "Plan")
NOISE_ATTACHMENTS = (
    "skill_listing",
    "agent_listing_delta",
    "deferred_tools_delta",
    "environment",
    "session_context",
    "prompt_snapshot",
    "date",
    "plan_mode",
)


def esc(text: str) -> str:
    """The body of a JSON string literal (ASCII, escaped) for `text`."""
    return json.dumps(text)[1:-1]


def iso(ms: int) -> str:
    s, milli = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + ".%03dZ" % milli


def random_uuid(rng: random.Random) -> str:
    h = "%032x" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def hexid(rng: random.Random, n: int) -> str:
    return ("%0*x" % (n, rng.getrandbits(4 * n)))[:n]

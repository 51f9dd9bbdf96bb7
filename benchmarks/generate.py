"""Deterministic generator of large, realistic Claude Code histories for the benchmarks.

Owns: writing a Claude root in the current client dialect (see docs: claude-code-facts) --
`projects/<encoded-cwd>/<session-id>.jsonl`, subagent logs in
`<project>/<session-id>/subagents/agent-<id>.jsonl` with their `agent-<id>.meta.json`,
compaction boundaries, tool results with `toolUseResult`, and the noise entries that make up
about 80% of a real transcript's bytes -- plus a `benchmark-manifest.json` at the root that
says what was written (the big session's id, the planted search words, byte counts).
Does not measure anything (that is `run.py`) and never writes malformed lines.

Speed: every text (tool outputs, listings, prose) is built and JSON-escaped once into pools
at start-up; a session is then assembled from `%`-templates with ids and timestamps
substituted, so no `json.dumps` runs per entry. Each session draws from its own
`random.Random(f"{seed}:{index}")`, so the output does not depend on worker count or order.

    .venv/bin/python benchmarks/generate.py --out /tmp/root --sessions 10000 --big-mb 60
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

try:  # the kit's own encoding rule, when the kit is importable
    from session_kit.claude.encoding import encode_project_dir
except ImportError:  # pragma: no cover - only when run outside the venv
    import re

    def encode_project_dir(path: str) -> str:
        return re.sub(r"[^A-Za-z0-9]", "-", path)


GENERATOR_VERSION = 1
MANIFEST_NAME = "benchmark-manifest.json"
CLIENT_VERSION = "2.1.328"
MODEL = "claude-opus-4-5-20251101"
# A word found in tool outputs (failing tests, tracebacks) across many sessions, and a token
# planted only in a handful of user prompts; `run.py` searches for both.
COMMON_QUERY = "AssertionError"
RARE_QUERY = "quasar-kestrel"
RARE_EVERY = 997  # sessions whose index is a multiple of this get the rare token
NOISE_SHARE = 0.8  # of each file's bytes
START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z
SPAN_MS = 300 * 86_400_000

_WORDS = [
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
_VERBS = [
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
_TOOL_NAMES = [
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
_EXCEPTIONS = [
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
_AGENT_TYPES = ("general-purpose", "Explore", "Plan")
_NOISE_ATTACHMENTS = (
    "skill_listing",
    "agent_listing_delta",
    "deferred_tools_delta",
    "environment",
    "session_context",
    "prompt_snapshot",
    "date",
    "plan_mode",
)


def _esc(text: str) -> str:
    """The body of a JSON string literal (ASCII, escaped) for `text`."""
    return json.dumps(text)[1:-1]


def _iso(ms: int) -> str:
    s, milli = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + ".%03dZ" % milli


def _uuid(rng: random.Random) -> str:
    h = "%032x" % rng.getrandbits(128)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _hexid(rng: random.Random, n: int) -> str:
    return ("%0*x" % (n, rng.getrandbits(4 * n)))[:n]


# --------------------------------------------------------------------------------------------
# Pools: every text built and escaped once.


@dataclass(frozen=True, slots=True)
class _Text:
    esc: str  # JSON-escaped body
    size: int  # len(esc), what it adds to the file


@dataclass(frozen=True, slots=True)
class _FileRead:
    path: str
    numbered: str  # escaped, `cat -n` style, as the model sees it
    raw: str  # escaped, as in toolUseResult.file.content
    lines: int
    size: int


@dataclass(frozen=True, slots=True)
class _Bash:
    command: str  # escaped
    output: str  # escaped stdout (or the whole error text)
    stderr: str  # escaped
    code: int
    size: int


def _sized(items: list, budget: float, rng: random.Random):
    """A random item no bigger than `budget` (items sorted by size); the smallest if none fits."""
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if items[mid].size <= budget:
            lo = mid + 1
        else:
            hi = mid
    return items[rng.randrange(lo)] if lo else items[0]


class _Pools:
    def __init__(self, seed: int) -> None:
        rng = random.Random(f"pools:{seed}")
        self.prose = sorted(
            (self._text(self._prose(rng, rng.randint(8, 900))) for _ in range(300)), key=lambda t: t.size
        )
        self.thinking = sorted(
            (self._text(self._prose(rng, rng.randint(100, 3000))) for _ in range(120)), key=lambda t: t.size
        )
        self.prompts = [self._prompt(rng) for _ in range(200)]
        self.files = sorted((self._file(rng, i) for i in range(80)), key=lambda f: f.size)
        self.bash_ok = sorted((self._bash_ok(rng) for _ in range(80)), key=lambda b: b.size)
        self.bash_fail = sorted((self._bash_fail(rng) for _ in range(60)), key=lambda b: b.size)
        self.grep = sorted((self._text(self._grep(rng)) for _ in range(50)), key=lambda t: t.size)
        self.noise = sorted((self._text(self._listing(rng)) for _ in range(120)), key=lambda t: t.size)
        self.tool_list = json.dumps(_TOOL_NAMES)

    @staticmethod
    def _text(text: str) -> _Text:
        e = _esc(text)
        return _Text(e, len(e))

    @staticmethod
    def _sentence(rng: random.Random) -> str:
        words = [rng.choice(_WORDS) for _ in range(rng.randint(5, 16))]
        words[0] = words[0].capitalize()
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words)), f"`{rng.choice(_WORDS)}_{rng.choice(_WORDS)}()`")
        return " ".join(words) + rng.choice((".", ".", ".", ":", "?"))

    def _prose(self, rng: random.Random, chars: int) -> str:
        out: list[str] = []
        n = 0
        while n < chars:
            s = self._sentence(rng)
            if rng.random() < 0.08:
                s += "\n\n"
            out.append(s)
            n += len(s) + 1
        return " ".join(out)

    def _prompt(self, rng: random.Random) -> str:
        verb = rng.choice(_VERBS)
        text = (
            f"{verb} the {rng.choice(_WORDS)} {rng.choice(_WORDS)} in src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py"
        )
        if rng.random() < 0.5:
            text += ". " + self._prose(rng, rng.randint(20, 400))
        return _esc(text)

    def _code_line(self, rng: random.Random, depth: int) -> str:
        a, b, c = rng.choice(_WORDS), rng.choice(_WORDS), rng.choice(_WORDS)
        kind = rng.random()
        if kind < 0.15:
            line = f"def {a}_{b}(self, {c}: str | None = None) -> dict[str, int]:"
        elif kind < 0.25:
            line = f"# {self._sentence(rng)}"
        elif kind < 0.35:
            line = f'raise {rng.choice(_EXCEPTIONS)}(f"bad {a}: {{{c}!r}}")'
        elif kind < 0.45:
            line = f"for {a} in self.{b}s:"
        elif kind < 0.5:
            line = ""
        else:
            line = f"{a}_{b} = self.{c}.get({a!r}, {rng.randint(0, 999)})"
        return "    " * depth + line if line else line

    def _file(self, rng: random.Random, i: int) -> _FileRead:
        # Most reads are short; some are whole 1000-line files.
        n = rng.choice((20, 40, 60, 120, 200, 400)) if rng.random() < 0.8 else rng.randint(800, 1200)
        lines = [self._code_line(rng, rng.randint(0, 3)) for _ in range(n)]
        path = f"/home/user/code/app/src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}_{i}.py"
        numbered = "\n".join(f"{k + 1:>6}\t{line}" for k, line in enumerate(lines))
        raw = "\n".join(lines)
        e_num, e_raw = _esc(numbered), _esc(raw)
        return _FileRead(_esc(path), e_num, e_raw, n, len(e_num) + len(e_raw))

    def _traceback(self, rng: random.Random, frames: int, exc: str) -> str:
        out = ["Traceback (most recent call last):"]
        for _ in range(frames):
            out.append(
                f'  File "/home/user/code/app/src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py", '
                f"line {rng.randint(1, 2000)}, in {rng.choice(_WORDS)}_{rng.choice(_WORDS)}"
            )
            out.append("    " + self._code_line(rng, 0))
        out.append(f"{exc}: {self._sentence(rng)}")
        return "\n".join(out)

    def _bash_ok(self, rng: random.Random) -> _Bash:
        kind = rng.random()
        if kind < 0.3:
            n = rng.randint(3, 300)
            cmd = "python -m pytest -q"
            body = [f"tests/test_{rng.choice(_WORDS)}.py " + "." * rng.randint(1, 60) for _ in range(n // 4 + 1)]
            body.append(f"{n} passed in {rng.uniform(0.1, 30):.2f}s")
        elif kind < 0.5:
            cmd = "git log --oneline -n 30"
            body = [
                f"{_hexid(rng, 7)} {rng.choice(_VERBS)} {rng.choice(_WORDS)} {rng.choice(_WORDS)}"
                for _ in range(rng.randint(1, 30))
            ]
        elif kind < 0.7:
            cmd = "ls -la src/"
            body = [
                f"-rw-r--r--  1 user user {rng.randint(100, 99999):>6} Nov 21 10:{rng.randint(10, 59)} "
                f"{rng.choice(_WORDS)}.py"
                for _ in range(rng.randint(1, 80))
            ]
        elif kind < 0.85:
            cmd = "npm install"
            body = [
                f"npm WARN deprecated {rng.choice(_WORDS)}@{rng.randint(1, 9)}.{rng.randint(0, 20)}.0: "
                + self._sentence(rng)
                for _ in range(rng.randint(1, 40))
            ]
            body.append(f"added {rng.randint(10, 900)} packages in {rng.randint(1, 60)}s")
        else:
            cmd = "git status"
            body = ["On branch main", "Changes not staged for commit:"] + [
                f"\tmodified:   src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py" for _ in range(rng.randint(1, 12))
            ]
        out = _esc("\n".join(body))
        return _Bash(_esc(cmd), out, "", 0, len(out))

    def _bash_fail(self, rng: random.Random) -> _Bash:
        kind = rng.random()
        code = rng.choice((1, 1, 1, 2, 127, 137))
        if kind < 0.5:
            cmd = "python -m pytest -x -q"
            frames = rng.randint(2, 12)
            name = f"tests/test_{rng.choice(_WORDS)}.py::test_{rng.choice(_WORDS)}_{rng.choice(_WORDS)}"
            text = "\n".join(
                [
                    "=" * 30 + " FAILURES " + "=" * 30,
                    f"_____ test_{rng.choice(_WORDS)} _____",
                    self._traceback(rng, frames, "AssertionError"),
                    f"E       AssertionError: assert {rng.randint(0, 99)} == {rng.randint(100, 199)}",
                    f"FAILED {name} - AssertionError",
                    f"1 failed, {rng.randint(0, 400)} passed in {rng.uniform(0.5, 40):.2f}s",
                ]
            )
        elif kind < 0.85:
            cmd = f"python -m app.{rng.choice(_WORDS)}"
            # Some very long traces (deep recursion, framework stacks).
            frames = rng.randint(3, 30) if rng.random() < 0.8 else rng.randint(200, 900)
            text = self._traceback(rng, frames, rng.choice(_EXCEPTIONS))
        else:
            cmd = "npm test"
            text = "\n".join(
                [f"TypeError: Cannot read properties of undefined (reading '{rng.choice(_WORDS)}')"]
                + [
                    f"    at {rng.choice(_WORDS)} (/home/user/code/web/src/{rng.choice(_WORDS)}.js:"
                    f"{rng.randint(1, 900)}:{rng.randint(1, 80)})"
                    for _ in range(rng.randint(5, 60))
                ]
            )
        full = _esc(f"Exit code {code}\n{text}")
        return _Bash(_esc(cmd), full, _esc(text), code, 2 * len(full))

    def _grep(self, rng: random.Random) -> str:
        return "\n".join(
            f"src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py:{rng.randint(1, 900)}:{self._code_line(rng, 1)}"
            for _ in range(rng.randint(1, 150))
        )

    def _listing(self, rng: random.Random) -> str:
        """Skill / agent / tool listings and environment dumps: the bulk of a real file's bytes."""
        n = rng.choice((2, 5, 10, 20, 40, 80, 150))
        return "\n".join(
            f"- {rng.choice(_WORDS)}-{rng.choice(_WORDS)}: {self._prose(rng, rng.randint(40, 240))}" for _ in range(n)
        )


# --------------------------------------------------------------------------------------------
# One transcript file.

_ENVELOPE = (
    '{"parentUuid":%s,"isSidechain":%s,"userType":"external","cwd":"%s","sessionId":"%s",'
    '"version":"' + CLIENT_VERSION + '","gitBranch":"%s"%s,'
)
_USAGE = (
    '"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,'
    '"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":%d},'
    '"output_tokens":%d,"service_tier":"standard"}'
)


class _Transcript:
    """Appends entries to one JSONL file, keeping the parent chain, clock and byte shares."""

    def __init__(
        self,
        pools: _Pools,
        rng: random.Random,
        fh,
        *,
        session_id: str,
        cwd: str,
        branch: str,
        start_ms: int,
        agent_id: str | None = None,
        noise_share: float = NOISE_SHARE,
    ) -> None:
        self.p, self.rng, self.fh = pools, rng, fh
        self.session_id, self.cwd, self.branch = session_id, _esc(cwd), branch
        self.agent_id = agent_id
        self.sidechain = "true" if agent_id else "false"
        self.agent_field = f',"agentId":"{agent_id}"' if agent_id else ""
        self.ms = start_ms
        self.parent: str | None = None
        self.conv = 0
        self.noise = 0
        self.ratio = noise_share / (1 - noise_share)
        self.buf: list[str] = []
        self.buffered = 0
        self.tools_used: set[str] = set()
        # (agent_id, tool_use_id, agent type, description, prompt, ms) of each Agent call
        self.spawn: list[tuple[str, str, str, str, str, int]] = []

    # -- plumbing
    @property
    def written(self) -> int:
        return self.conv + self.noise

    def _tick(self, lo: int = 200, hi: int = 8000) -> str:
        self.ms += self.rng.randint(lo, hi)
        return _iso(self.ms)

    def _emit(self, line: str, *, noise: bool) -> None:
        n = len(line) + 1
        if noise:
            self.noise += n
        else:
            self.conv += n
        self.buf.append(line)
        self.buffered += n
        if self.buffered > 1 << 22:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            self.buf.append("")
            self.fh.write("\n".join(self.buf))
            self.buf.clear()
            self.buffered = 0

    def _env(self) -> str:
        p = self.parent
        return _ENVELOPE % (
            f'"{p}"' if p else "null",
            self.sidechain,
            self.cwd,
            self.session_id,
            self.branch,
            self.agent_field,
        )

    def _chained(self, body: str, *, noise: bool) -> str:
        uid = _uuid(self.rng)
        line = self._env() + body + f',"uuid":"{uid}","timestamp":"{self._tick()}"}}'
        self.parent = uid
        self._emit(line, noise=noise)
        return uid

    # -- noise
    def _noise_entry(self, budget: float) -> None:
        r = self.rng.random()
        sid, ts = self.session_id, self._tick(5, 50)
        if r < 0.45:
            kind = self.rng.choice(_NOISE_ATTACHMENTS)
            text = _sized(self.p.noise, budget, self.rng)
            extra = f',"itemCount":{text.esc.count("- ")}' if kind.endswith(("listing", "delta")) else ""
            self._chained(
                f'"type":"attachment","attachment":{{"type":"{kind}","content":"{text.esc}"{extra}}}', noise=True
            )
        elif r < 0.7:
            text = _sized(self.p.noise, budget, self.rng)
            self._emit(
                f'{{"type":"api-request","timestamp":"{ts}","sessionId":"{sid}","requestId":'
                f'"req_011CV{_hexid(self.rng, 18)}","model":"{MODEL}","querySource":"repl_main_thread",'
                f'"system":"{text.esc}","tools":{self.p.tool_list},"stream":true}}',
                noise=True,
            )
        elif r < 0.78:
            self._emit(
                f'{{"type":"api-request-shape","timestamp":"{ts}","sessionId":"{sid}","shape":'
                f'{{"messages":{self.rng.randint(1, 400)},"systemBlocks":3,"tools":{self.p.tool_list},'
                f'"betas":["claude-code-20250219","interleaved-thinking-2025-05-14"]}}}}',
                noise=True,
            )
        elif r < 0.84:
            uid = _uuid(self.rng)
            self._emit(
                f'{{"type":"file-history-snapshot","messageId":"{uid}","snapshot":{{"messageId":"{uid}",'
                f'"trackedFileBackups":{{"src/{self.rng.choice(_WORDS)}.py":{{"backupFileName":'
                f'"{_hexid(self.rng, 16)}@v2","version":2,"backupTime":"{ts}"}}}},"timestamp":"{ts}"}},'
                f'"isSnapshotUpdate":false}}',
                noise=True,
            )
        elif r < 0.9:
            self._emit(
                f'{{"type":"cost-state","sessionId":"{sid}","timestamp":"{ts}","totalCostUSD":'
                f'{self.rng.uniform(0, 40):.4f},"totalInputTokens":{self.rng.randint(0, 10**6)},'
                f'"totalOutputTokens":{self.rng.randint(0, 10**5)},"modelUsage":{{"{MODEL}":'
                f'{{"inputTokens":{self.rng.randint(0, 10**6)},"outputTokens":{self.rng.randint(0, 10**5)}}}}}}}',
                noise=True,
            )
        elif r < 0.94:
            self._emit(f'{{"type":"tools-used","sessionId":"{sid}","tools":{self.p.tool_list}}}', noise=True)
        elif r < 0.97:
            self._emit(f'{{"type":"atis-latch","sessionId":"{sid}","timestamp":"{ts}","latched":false}}', noise=True)
        else:
            self._emit(f'{{"type":"mode","sessionId":"{sid}","mode":"default","timestamp":"{ts}"}}', noise=True)

    def fill_noise(self) -> None:
        """Noise until it is `NOISE_SHARE` of what the file holds so far."""
        while True:
            missing = self.conv * self.ratio - self.noise
            if missing <= 0:
                return
            self._noise_entry(max(missing, 200))

    def queue(self, prompt: str) -> None:
        for op in ("enqueue", "dequeue"):
            content = f',"content":"{prompt}"' if op == "enqueue" else ""
            self._emit(
                f'{{"type":"queue-operation","operation":"{op}","timestamp":"{self._tick(1, 5)}",'
                f'"sessionId":"{self.session_id}"{content}}}',
                noise=True,
            )

    def last_prompt(self, prompt: str) -> None:
        self._emit(f'{{"type":"last-prompt","lastPrompt":"{prompt}","sessionId":"{self.session_id}"}}', noise=True)

    # -- conversation
    def user_text(self, text: str, *, extra: str = "") -> str:
        return self._chained(f'"type":"user","message":{{"role":"user","content":"{text}"}}{extra}', noise=False)

    def _assistant_block(self, msg_id: str, req: str, usage: str, block: str, stop: str) -> None:
        self._chained(
            f'"message":{{"model":"{MODEL}","id":"{msg_id}","type":"message","role":"assistant",'
            f'"content":[{block}],"stop_reason":{stop},"stop_sequence":null,{usage}}},'
            f'"requestId":"{req}","type":"assistant"',
            noise=False,
        )

    def assistant(self, blocks: list[str], *, final: bool) -> None:
        """One API response: one line per content block, sharing `message.id` and `usage`."""
        rng = self.rng
        msg_id = f"msg_01{_hexid(rng, 22)}"
        req = f"req_011CV{_hexid(rng, 18)}"
        usage = _USAGE % (
            rng.randint(1, 30),
            rng.randint(0, 20000),
            rng.randint(0, 200000),
            rng.randint(0, 20000),
            rng.randint(1, 4000),
        )
        for i, block in enumerate(blocks):
            last = i == len(blocks) - 1
            stop = ('"end_turn"' if final else '"tool_use"') if last else "null"
            self._assistant_block(msg_id, req, usage, block, stop)

    def tool_result(self, tool_use_id: str, content: str, result: str, *, is_error: bool) -> None:
        err = "true" if is_error else "false"
        self._chained(
            f'"type":"user","message":{{"role":"user","content":[{{"tool_use_id":"{tool_use_id}",'
            f'"type":"tool_result","content":"{content}","is_error":{err}}}]}},'
            f'"toolUseResult":{result}',
            noise=False,
        )

    def compact(self) -> None:
        """A `/compact`: the command, the boundary, the summary, the command's output."""
        self.user_text(
            "<command-name>/compact</command-name>\\n<command-message>compact</command-message>"
            "\\n<command-args></command-args>"
        )
        logical = self.parent
        self.parent = None
        self._chained(
            f'"logicalParentUuid":"{logical}","type":"system","subtype":"compact_boundary",'
            f'"content":"Conversation compacted","isMeta":false,"level":"info",'
            f'"compactMetadata":{{"trigger":"manual","preTokens":{self.rng.randint(20000, 190000)}}}',
            noise=False,
        )
        summary = (
            "This session is being continued from a previous conversation that ran out of context. "
            "The conversation is summarized below:\\n" + _sized(self.p.prose, 1e9, self.rng).esc
        )
        self.user_text(summary, extra=',"isCompactSummary":true,"isVisibleInTranscriptOnly":true')
        self.user_text("<local-command-stdout>Compacted </local-command-stdout>")

    # -- tools
    def _tool_call(self, budget: float) -> tuple[str, tuple[str, str, str, bool]]:
        """A tool_use block, and (tool_use_id, result content, toolUseResult, is_error)."""
        rng = self.rng
        tid = f"toolu_01{_hexid(rng, 22)}"
        r = rng.random()
        if r < 0.30:
            b = _sized(self.p.bash_ok, budget, rng)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Bash","input":{{"command":"{b.command}",'
                f'"description":"Run {rng.choice(_WORDS)} check"}}}}'
            )
            result = f'{{"stdout":"{b.output}","stderr":"","interrupted":false,"isImage":false}}'
            self.tools_used.add("Bash")
            return use, (tid, b.output, result, False)
        if r < 0.40:
            b = _sized(self.p.bash_fail, budget, rng)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Bash","input":{{"command":"{b.command}",'
                f'"description":"Run the tests"}}}}'
            )
            self.tools_used.add("Bash")
            return use, (tid, b.output, f'"Error: {b.output}"', True)
        if r < 0.65:
            f = _sized(self.p.files, budget, rng)
            use = f'{{"type":"tool_use","id":"{tid}","name":"Read","input":{{"file_path":"{f.path}"}}}}'
            result = (
                f'{{"type":"text","file":{{"filePath":"{f.path}","content":"{f.raw}","numLines":{f.lines},'
                f'"startLine":1,"totalLines":{f.lines}}}}}'
            )
            self.tools_used.add("Read")
            return use, (tid, f.numbered, result, False)
        if r < 0.77:
            path = _esc(f"/home/user/code/app/src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py")
            old = _esc(self.p._code_line(rng, 1))
            new = _esc(self.p._code_line(rng, 1))
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Edit","input":{{"file_path":"{path}",'
                f'"old_string":"{old}","new_string":"{new}"}}}}'
            )
            self.tools_used.add("Edit")
            if rng.random() < 0.1:
                msg = "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>"
                return use, (tid, msg, f'"Error: {msg}"', True)
            line = rng.randint(1, 900)
            content = (
                f"The file {path} has been updated. Here's the result of running `cat -n` on a "
                f"snippet of the edited file:\\n{line:>6}\\t{new}"
            )
            result = (
                f'{{"filePath":"{path}","oldString":"{old}","newString":"{new}","structuredPatch":'
                f'[{{"oldStart":{line},"oldLines":1,"newStart":{line},"newLines":1,"lines":["-{old}","+{new}"]}}],'
                f'"userModified":false,"replaceAll":false}}'
            )
            return use, (tid, content, result, False)
        if r < 0.9:
            g = _sized(self.p.grep, budget, rng)
            pattern = rng.choice(_WORDS)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Grep","input":{{"pattern":"{pattern}",'
                f'"output_mode":"content","-n":true}}}}'
            )
            n = g.esc.count("\\n") + 1
            result = f'{{"mode":"content","numFiles":{n},"filenames":[],"content":"{g.esc}","numLines":{n}}}'
            self.tools_used.add("Grep")
            return use, (tid, g.esc, result, False)
        if r < 0.96:
            files = [f"src/{rng.choice(_WORDS)}/{rng.choice(_WORDS)}.py" for _ in range(rng.randint(0, 40))]
            use = f'{{"type":"tool_use","id":"{tid}","name":"Glob","input":{{"pattern":"src/**/*.py"}}}}'
            content = "\\n".join(files) if files else "No files found"
            result = (
                f'{{"filenames":{json.dumps(files)},"durationMs":{rng.randint(1, 90)},'
                f'"numFiles":{len(files)},"truncated":false}}'
            )
            self.tools_used.add("Glob")
            return use, (tid, content, result, False)
        todos = ",".join(
            f'{{"content":"{rng.choice(_VERBS)} {rng.choice(_WORDS)}","status":"pending","activeForm":"Working"}}'
            for _ in range(rng.randint(1, 6))
        )
        use = f'{{"type":"tool_use","id":"{tid}","name":"TodoWrite","input":{{"todos":[{todos}]}}}}'
        content = "Todos have been modified successfully. Ensure that you continue to use the todo list."
        self.tools_used.add("TodoWrite")
        return use, (tid, content, f'{{"oldTodos":[],"newTodos":[{todos}]}}', False)

    def agent_call(self) -> tuple[str, tuple[str, str, str, bool]]:
        rng = self.rng
        tid = f"toolu_01{_hexid(rng, 22)}"
        agent_id = "a" + _hexid(rng, 16)
        agent_type = rng.choice(_AGENT_TYPES)
        desc = f"{rng.choice(_VERBS).capitalize()} {rng.choice(_WORDS)} {rng.choice(_WORDS)}"
        prompt = rng.choice(self.p.prompts)
        use = (
            f'{{"type":"tool_use","id":"{tid}","name":"Agent","input":{{"description":"{desc}",'
            f'"prompt":"{prompt}","subagent_type":"{agent_type}"}}}}'
        )
        report = _sized(self.p.prose, 4000, rng).esc
        if rng.random() < 0.3:
            content = f"Async agent launched successfully. agentId: {agent_id}"
            result = f'{{"agentId":"{agent_id}","status":"async_launched","prompt":"{prompt}","description":"{desc}"}}'
        else:
            content = report
            result = (
                f'{{"agentId":"{agent_id}","status":"completed","prompt":"{prompt}","description":"{desc}",'
                f'"content":[{{"type":"text","text":"{report}"}}],"totalDurationMs":{rng.randint(2000, 400000)},'
                f'"totalTokens":{rng.randint(1000, 90000)},"totalToolUseCount":{rng.randint(1, 40)}}}'
            )
        self.spawn.append((agent_id, tid, agent_type, desc, prompt, self.ms))
        self.tools_used.add("Agent")
        return use, (tid, content, result, False)

    def turn(self, prompt: str, *, budget: float, rounds: int, agents: int = 0, stop_at: float = math.inf) -> None:
        """A user prompt, then up to `rounds` tool round trips (fewer once the file holds
        `stop_at` bytes), then a final answer."""
        rng = self.rng
        if self.agent_id is None:
            self.queue(prompt)
        self.user_text(prompt)
        self.fill_noise()
        for r in range(rounds):
            # A tool round trip costs ~2.5 KB of conversation, so ~12 KB of file with its noise.
            if self.written + 12_000 > stop_at and not agents:
                break
            blocks = []
            if rng.random() < 0.6:
                t = _sized(self.p.thinking, budget / 4, rng)
                blocks.append(f'{{"type":"thinking","thinking":"{t.esc}","signature":"{_hexid(rng, 88)}"}}')
            if rng.random() < 0.7:
                blocks.append(f'{{"type":"text","text":"{_sized(self.p.prose, budget / 4, rng).esc}"}}')
            calls = []
            for _ in range(1 if rng.random() < 0.75 else rng.randint(2, 3)):
                if agents and r == 0:
                    agents -= 1
                    calls.append(self.agent_call())
                else:
                    calls.append(self._tool_call(budget / 2))
            blocks.extend(use for use, _ in calls)
            self.assistant(blocks, final=False)
            for _, (tid, content, result, is_error) in calls:
                self.tool_result(tid, content, result, is_error=is_error)
            self.fill_noise()
        final = [f'{{"type":"text","text":"{_sized(self.p.prose, budget / 2, rng).esc}"}}']
        if rng.random() < 0.3:
            final.insert(
                0,
                f'{{"type":"thinking","thinking":"{_sized(self.p.thinking, budget / 4, rng).esc}",'
                f'"signature":"{_hexid(rng, 88)}"}}',
            )
        self.assistant(final, final=True)
        if self.agent_id is None:
            self.last_prompt(prompt)
            self._emit(
                f'{{"type":"tools-used","sessionId":"{self.session_id}","tools":'
                f"{json.dumps(sorted(self.tools_used))}}}",
                noise=True,
            )
        self.fill_noise()

    def start(self, budget: float) -> None:
        """What the client writes before the first prompt: listings of skills, agents, tools."""
        if self.agent_id is not None:
            return
        for kind in ("skill_listing", "agent_listing_delta", "deferred_tools_delta", "environment"):
            text = _sized(self.p.noise, budget, self.rng)
            self._chained(f'"type":"attachment","attachment":{{"type":"{kind}","content":"{text.esc}"}}', noise=True)


# --------------------------------------------------------------------------------------------
# Sessions, projects, the whole root.


@dataclass(frozen=True, slots=True)
class SessionPlan:
    index: int
    session_id: str
    project_dir: str  # encoded name under projects/
    cwd: str
    target_bytes: int
    start_ms: int
    compactions: int
    agents: int
    rare: bool


@dataclass(slots=True)
class Manifest:
    generator_version: int
    seed: int
    sessions: int
    projects: int
    big_mb: float
    session_kb: float | None
    subagents: bool
    big_session_id: str | None = None
    big_session_path: str | None = None
    common_query: str = COMMON_QUERY
    rare_query: str = RARE_QUERY
    files: int = 0
    total_bytes: int = 0
    noise_bytes: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)


def _project_paths(rng: random.Random, n: int) -> list[str]:
    # A few names with characters the encoding folds (`.`, `_`, space) as real users have.
    out = []
    for i in range(n):
        name = f"{rng.choice(_WORDS)}-{rng.choice(_WORDS)}"
        style = rng.random()
        if style < 0.1:
            name = f"{name}.v{rng.randint(1, 9)}"
        elif style < 0.2:
            name = name.replace("-", "_")
        elif style < 0.25:
            name = f"My {name.capitalize()}"
        out.append(f"/home/user/code/{name}-{i}")
    return out


def _session_size(rng: random.Random) -> int:
    r = rng.random()
    if r < 0.97:
        lo, hi = 5_000, 80_000
    elif r < 0.997:
        lo, hi = 80_000, 1_000_000
    else:
        lo, hi = 1_000_000, 5_000_000
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def plan_sessions(
    *, sessions: int, seed: int, projects: int | None = None, session_kb: float | None = None, subagents: bool = True
) -> list[SessionPlan]:
    rng = random.Random(f"plan:{seed}")
    n_projects = projects or max(1, round(sessions / 50))
    paths = _project_paths(rng, n_projects)
    # Zipf-ish: a few projects hold most sessions, as on a real machine.
    weights = [1 / (k + 1) ** 0.8 for k in range(n_projects)]
    plans = []
    for i in range(sessions):
        srng = random.Random(f"{seed}:{i}")
        # Ids, projects and times first, so roots that differ only in sizes share them.
        session_id = _uuid(srng)
        k = i if i < n_projects else srng.choices(range(n_projects), weights)[0]
        start_ms = START_MS + srng.randrange(SPAN_MS)
        target = int(session_kb * 1000 * srng.uniform(0.9, 1.1)) if session_kb else _session_size(srng)
        compactions = 0
        if srng.random() < 0.15 and target > 50_000:
            compactions = 1 + (target > 1_000_000) + (target > 3_000_000)
        agents = 0
        if srng.random() < 0.12 and subagents:
            agents = srng.randint(1, 3)
        plans.append(
            SessionPlan(
                index=i,
                session_id=session_id,
                project_dir=encode_project_dir(paths[k]),
                cwd=paths[k],
                target_bytes=target,
                start_ms=start_ms,
                compactions=compactions,
                agents=agents,
                rare=(i % RARE_EVERY == 7),
            )
        )
    return plans


def _write_subagent(
    pools: _Pools, parent: _Transcript, sub_dir: Path, spawn, rng: random.Random
) -> tuple[int, int, int]:
    agent_id, tool_use_id, agent_type, desc, prompt, start_ms = spawn
    sub_dir.mkdir(parents=True, exist_ok=True)
    path = sub_dir / f"agent-{agent_id}.jsonl"
    target = int(math.exp(rng.uniform(math.log(5_000), math.log(40_000))))
    with open(path, "w", encoding="ascii") as fh:
        t = _Transcript(
            pools,
            rng,
            fh,
            session_id=parent.session_id,
            cwd=json.loads(f'"{parent.cwd}"'),
            branch=parent.branch,
            start_ms=start_ms,
            agent_id=agent_id,
        )
        t.turn(prompt, budget=target * 0.05, rounds=rng.randint(1, 4), stop_at=target)
        while t.written < target:
            t.turn(rng.choice(pools.prompts), budget=target * 0.05, rounds=rng.randint(1, 4), stop_at=target)
        t.flush()
    meta = {
        "agentType": agent_type,
        "description": json.loads(f'"{desc}"'),
        "toolUseId": tool_use_id,
        "spawnDepth": 1,
        "model": MODEL,
        "finished": True,
    }
    (sub_dir / f"agent-{agent_id}.meta.json").write_text(json.dumps(meta), encoding="ascii")
    os.utime(path, ns=(t.ms * 1_000_000, t.ms * 1_000_000))
    return 2, t.written, t.noise


def write_session(pools: _Pools, root: Path, plan: SessionPlan, *, seed: int) -> tuple[int, int, int]:
    """Write one session (and its subagents); returns (files, bytes, noise bytes)."""
    rng = random.Random(f"{seed}:{plan.index}:body")
    project = root / "projects" / plan.project_dir
    project.mkdir(parents=True, exist_ok=True)
    path = project / f"{plan.session_id}.jsonl"
    files, total, noise = 1, 0, 0
    target = plan.target_bytes
    compact_at = [target * (k + 1) / (plan.compactions + 1) for k in range(plan.compactions)]
    agent_at = [target * (k + 0.5) / (plan.agents + 1) for k in range(plan.agents)]
    with open(path, "w", encoding="ascii") as fh:
        t = _Transcript(
            pools,
            rng,
            fh,
            session_id=plan.session_id,
            cwd=plan.cwd,
            branch=rng.choice(("main", "main", "main", f"feature/{rng.choice(_WORDS)}")),
            start_ms=plan.start_ms,
        )
        t.start(300.0)
        first = True
        while first or t.written < target:
            # How much one text or tool output may take: a 5 KB session holds no 1000-line read.
            budget = max(300.0, (target - t.written) * 0.2 / 4)
            prompt = rng.choice(pools.prompts)
            if first and plan.rare:
                prompt += f" (ticket {RARE_QUERY})"
            if not first and rng.random() < 0.05:
                t.user_text(
                    "<command-name>/cost</command-name>\\n<command-message>cost</command-message>"
                    "\\n<command-args></command-args>"
                )
                t.user_text(f"<local-command-stdout>Total cost: ${rng.uniform(0, 30):.2f}</local-command-stdout>")
            use_agents = 0
            if agent_at and t.written >= agent_at[0]:
                agent_at.pop(0)
                use_agents = 1
            rounds = rng.choice((0, 1, 1, 2, 3, 4, 6))
            t.turn(prompt, budget=budget, rounds=max(rounds, use_agents), agents=use_agents, stop_at=target)
            first = False
            if compact_at and t.written >= compact_at[0]:
                compact_at.pop(0)
                t.compact()
                t.start(budget)
                t.fill_noise()
        t.flush()
    os.utime(path, ns=(t.ms * 1_000_000, t.ms * 1_000_000))
    total, noise = t.written, t.noise
    for spawn in t.spawn:
        f, b, nb = _write_subagent(pools, t, project / plan.session_id / "subagents", spawn, rng)
        files, total, noise = files + f, total + b, noise + nb
    return files, total, noise


_WORKER_POOLS: _Pools | None = None


def _worker_init(seed: int) -> None:
    global _WORKER_POOLS
    _WORKER_POOLS = _Pools(seed)


def _write_chunk(root: str, plans: list[SessionPlan], seed: int) -> tuple[int, int, int]:
    assert _WORKER_POOLS is not None
    files = total = noise = 0
    for plan in plans:
        f, b, n = write_session(_WORKER_POOLS, Path(root), plan, seed=seed)
        files, total, noise = files + f, total + b, noise + n
    return files, total, noise


def _chunks(items: list, n: int) -> Iterator[list]:
    for i in range(0, len(items), n):
        yield items[i : i + n]


def generate(
    out: str | os.PathLike[str],
    *,
    sessions: int,
    big_mb: float = 0.0,
    seed: int = 0,
    projects: int | None = None,
    session_kb: float | None = None,
    subagents: bool = True,
    workers: int | None = None,
) -> Manifest:
    """Write a Claude root at `out` and its manifest; the same arguments give the same bytes."""
    began = time.perf_counter()
    root = Path(out)
    (root / "projects").mkdir(parents=True, exist_ok=True)
    plans = plan_sessions(sessions=sessions, seed=seed, projects=projects, session_kb=session_kb, subagents=subagents)
    manifest = Manifest(
        GENERATOR_VERSION, seed, sessions, len({p.project_dir for p in plans}), big_mb, session_kb, subagents
    )
    workers = workers or min(os.cpu_count() or 1, 8)
    totals = [0, 0, 0]

    def add(res: tuple[int, int, int]) -> None:
        for k in range(3):
            totals[k] += res[k]

    if big_mb > 0:
        brng = random.Random(f"big:{seed}")
        big = SessionPlan(
            index=-1,
            session_id=_uuid(brng),
            project_dir=encode_project_dir("/home/user/code/monorepo"),
            cwd="/home/user/code/monorepo",
            target_bytes=int(big_mb * 1_000_000),
            start_ms=START_MS + SPAN_MS,
            compactions=max(1, int(big_mb // 15)),
            agents=6 if subagents else 0,
            rare=True,
        )
        manifest.big_session_id = big.session_id
        manifest.big_session_path = f"projects/{big.project_dir}/{big.session_id}.jsonl"
        plans_big = [big]
    else:
        plans_big = []

    if workers <= 1 or sessions < 200:
        pools = _Pools(seed)
        for plan in plans_big + plans:
            add(write_session(pools, root, plan, seed=seed))
    else:
        # Big session first, on its own, so it overlaps with the many small ones.
        work = [plans_big] if plans_big else []
        work += list(_chunks(plans, max(1, len(plans) // (workers * 8))))
        with ProcessPoolExecutor(workers, initializer=_worker_init, initargs=(seed,)) as ex:
            for res in ex.map(_write_chunk, [str(root)] * len(work), work, [seed] * len(work)):
                add(res)
    manifest.files, manifest.total_bytes, manifest.noise_bytes = totals
    manifest.projects = len({p.project_dir for p in plans + plans_big})
    manifest.seconds = round(time.perf_counter() - began, 2)
    (root / MANIFEST_NAME).write_text(json.dumps(asdict(manifest), indent=2) + "\n", encoding="utf-8")
    return manifest


# The real client's bookkeeping entries, for the manifest's count: the kit's `NOISE_TYPES`.
try:
    from session_kit.transcript.entries import NOISE_TYPES as _GROWN_NOISE
except ImportError:  # pragma: no cover - only when run outside the venv
    _GROWN_NOISE = frozenset()
# Ids a real transcript links its lines with: uuids (entries, prompts, parents) and the API's
# message, request and tool-use ids. `grow` renames them round by round.
_LINK_IDS = None


def grow(source: str | os.PathLike[str], out: str | os.PathLike[str], *, mb: float) -> Manifest:
    """A Claude root holding one session grown from a real client's transcript: the session's
    lines written again and again, every id but the session's renamed in each round after the
    first (so no round repeats an entry: nothing is dropped as a copy), until about `mb` MB;
    its subagent logs and meta files copied as they are. For benchmarks on the current
    client's own dialect, where the generator writes its idea of it."""
    import re
    import shutil

    global _LINK_IDS
    if _LINK_IDS is None:
        _LINK_IDS = re.compile(
            rb'"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:toolu|msg|req)_[0-9A-Za-z]+)"'
        )
    began = time.perf_counter()
    source = Path(source)
    session_id = source.stem
    project = Path(out) / "projects" / source.parent.name
    project.mkdir(parents=True, exist_ok=True)
    if (source.parent / session_id).is_dir():
        shutil.copytree(source.parent / session_id, project / session_id, dirs_exist_ok=True)
    lines = [ln if ln.endswith(b"\n") else ln + b"\n" for ln in source.read_bytes().splitlines(keepends=True)]
    target = int(mb * 1e6)
    keep = session_id.encode()
    written = rounds = 0
    with open(project / source.name, "wb") as f:
        while written < target:
            if rounds == 0:
                chunk = b"".join(lines)
            else:
                tag = b"%06x" % rounds

                def rename(m: re.Match[bytes], tag: bytes = tag) -> bytes:
                    value = m.group(1)
                    if value == keep:
                        return m.group(0)
                    return b'"' + (value[:-6] + tag if value[8:9] == b"-" else value + tag) + b'"'

                chunk = _LINK_IDS.sub(rename, b"".join(lines))
            f.write(chunk)
            written += len(chunk)
            rounds += 1
    files = list(Path(out).rglob("*.jsonl"))
    manifest = Manifest(GENERATOR_VERSION, 0, 1, 1, mb, None, True)
    noise_per_round = sum(len(ln) for ln in lines if json.loads(ln).get("type") in _GROWN_NOISE)
    manifest.noise_bytes = round(written * noise_per_round / max(1, sum(map(len, lines))))
    manifest.big_session_id = session_id
    manifest.big_session_path = str((project / source.name).relative_to(out))
    manifest.files = len(files)
    manifest.total_bytes = sum(p.stat().st_size for p in files)
    manifest.seconds = round(time.perf_counter() - began, 2)
    manifest.extra = {"grown_from": str(source), "rounds": rounds}
    (Path(out) / MANIFEST_NAME).write_text(json.dumps(asdict(manifest), indent=2), encoding="utf-8")
    return manifest


def read_manifest(root: str | os.PathLike[str]) -> dict | None:
    try:
        return json.loads((Path(root) / MANIFEST_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="the Claude root to write (created)")
    ap.add_argument("--sessions", type=int, default=10_000)
    ap.add_argument("--big-mb", type=float, default=0.0, help="also write one session of about M MB")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--projects", type=int, default=None, help="default: sessions / 50")
    ap.add_argument(
        "--session-kb",
        type=float,
        default=None,
        help="make every session about this size (default: a realistic spread)",
    )
    ap.add_argument("--no-subagents", action="store_true")
    ap.add_argument("--workers", type=int, default=None, help="processes (default: cpu count)")
    args = ap.parse_args(argv)
    m = generate(
        args.out,
        sessions=args.sessions,
        big_mb=args.big_mb,
        seed=args.seed,
        projects=args.projects,
        session_kb=args.session_kb,
        subagents=not args.no_subagents,
        workers=args.workers,
    )
    share = m.noise_bytes / m.total_bytes if m.total_bytes else 0
    print(
        f"wrote {m.files} files, {m.total_bytes / 1e6:.1f} MB ({share:.0%} noise) in {m.seconds:.1f}s to {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""One transcript file: entries appended from `%`-templates, the parent chain, the clock and
the share of noise kept as a real file's.

Owns the lines of one file (conversation, tool calls and results, agent launches,
compactions, noise entries); does not decide what a session holds or where it goes
(`sessions`).
"""

from __future__ import annotations

import json
import math
import random

from benchmarks.generator.pools import Pools, sized
from benchmarks.generator.words import (
    AGENT_TYPES,
    CLIENT_VERSION,
    MODEL,
    NOISE_ATTACHMENTS,
    NOISE_SHARE,
    VERBS,
    WORDS,
    esc,
    hexid,
    iso,
    random_uuid,
)

_ENVELOPE = (
    '{"parentUuid":%s,"isSidechain":%s,"userType":"external","cwd":"%s","sessionId":"%s",'
    '"version":"' + CLIENT_VERSION + '","gitBranch":"%s"%s,'
)
_USAGE = (
    '"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,'
    '"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":%d},'
    '"output_tokens":%d,"service_tier":"standard"}'
)


class Transcript:
    """Appends entries to one JSONL file, keeping the parent chain, clock and byte shares."""

    def __init__(
        self,
        pools: Pools,
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
        self.session_id, self.cwd, self.branch = session_id, esc(cwd), branch
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
        return iso(self.ms)

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
        uid = random_uuid(self.rng)
        line = self._env() + body + f',"uuid":"{uid}","timestamp":"{self._tick()}"}}'
        self.parent = uid
        self._emit(line, noise=noise)
        return uid

    # -- noise
    def _noise_entry(self, budget: float) -> None:
        r = self.rng.random()
        sid, ts = self.session_id, self._tick(5, 50)
        if r < 0.45:
            kind = self.rng.choice(NOISE_ATTACHMENTS)
            text = sized(self.p.noise, budget, self.rng)
            extra = f',"itemCount":{text.esc.count("- ")}' if kind.endswith(("listing", "delta")) else ""
            self._chained(
                f'"type":"attachment","attachment":{{"type":"{kind}","content":"{text.esc}"{extra}}}', noise=True
            )
        elif r < 0.7:
            text = sized(self.p.noise, budget, self.rng)
            self._emit(
                f'{{"type":"api-request","timestamp":"{ts}","sessionId":"{sid}","requestId":'
                f'"req_011CV{hexid(self.rng, 18)}","model":"{MODEL}","querySource":"repl_main_thread",'
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
            uid = random_uuid(self.rng)
            self._emit(
                f'{{"type":"file-history-snapshot","messageId":"{uid}","snapshot":{{"messageId":"{uid}",'
                f'"trackedFileBackups":{{"src/{self.rng.choice(WORDS)}.py":{{"backupFileName":'
                f'"{hexid(self.rng, 16)}@v2","version":2,"backupTime":"{ts}"}}}},"timestamp":"{ts}"}},'
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
        msg_id = f"msg_01{hexid(rng, 22)}"
        req = f"req_011CV{hexid(rng, 18)}"
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
            "The conversation is summarized below:\\n" + sized(self.p.prose, 1e9, self.rng).esc
        )
        self.user_text(summary, extra=',"isCompactSummary":true,"isVisibleInTranscriptOnly":true')
        self.user_text("<local-command-stdout>Compacted </local-command-stdout>")

    # -- tools
    def _tool_call(self, budget: float) -> tuple[str, tuple[str, str, str, bool]]:
        """A tool_use block, and (tool_use_id, result content, toolUseResult, is_error)."""
        rng = self.rng
        tid = f"toolu_01{hexid(rng, 22)}"
        r = rng.random()
        if r < 0.30:
            b = sized(self.p.bash_ok, budget, rng)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Bash","input":{{"command":"{b.command}",'
                f'"description":"Run {rng.choice(WORDS)} check"}}}}'
            )
            result = f'{{"stdout":"{b.output}","stderr":"","interrupted":false,"isImage":false}}'
            self.tools_used.add("Bash")
            return use, (tid, b.output, result, False)
        if r < 0.40:
            b = sized(self.p.bash_fail, budget, rng)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Bash","input":{{"command":"{b.command}",'
                f'"description":"Run the tests"}}}}'
            )
            self.tools_used.add("Bash")
            return use, (tid, b.output, f'"Error: {b.output}"', True)
        if r < 0.65:
            f = sized(self.p.files, budget, rng)
            use = f'{{"type":"tool_use","id":"{tid}","name":"Read","input":{{"file_path":"{f.path}"}}}}'
            result = (
                f'{{"type":"text","file":{{"filePath":"{f.path}","content":"{f.raw}","numLines":{f.lines},'
                f'"startLine":1,"totalLines":{f.lines}}}}}'
            )
            self.tools_used.add("Read")
            return use, (tid, f.numbered, result, False)
        if r < 0.77:
            path = esc(f"/home/user/code/app/src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py")
            old = esc(self.p.code_line(rng, 1))
            new = esc(self.p.code_line(rng, 1))
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
            g = sized(self.p.grep, budget, rng)
            pattern = rng.choice(WORDS)
            use = (
                f'{{"type":"tool_use","id":"{tid}","name":"Grep","input":{{"pattern":"{pattern}",'
                f'"output_mode":"content","-n":true}}}}'
            )
            n = g.esc.count("\\n") + 1
            result = f'{{"mode":"content","numFiles":{n},"filenames":[],"content":"{g.esc}","numLines":{n}}}'
            self.tools_used.add("Grep")
            return use, (tid, g.esc, result, False)
        if r < 0.96:
            files = [f"src/{rng.choice(WORDS)}/{rng.choice(WORDS)}.py" for _ in range(rng.randint(0, 40))]
            use = f'{{"type":"tool_use","id":"{tid}","name":"Glob","input":{{"pattern":"src/**/*.py"}}}}'
            content = "\\n".join(files) if files else "No files found"
            result = (
                f'{{"filenames":{json.dumps(files)},"durationMs":{rng.randint(1, 90)},'
                f'"numFiles":{len(files)},"truncated":false}}'
            )
            self.tools_used.add("Glob")
            return use, (tid, content, result, False)
        todos = ",".join(
            f'{{"content":"{rng.choice(VERBS)} {rng.choice(WORDS)}","status":"pending","activeForm":"Working"}}'
            for _ in range(rng.randint(1, 6))
        )
        use = f'{{"type":"tool_use","id":"{tid}","name":"TodoWrite","input":{{"todos":[{todos}]}}}}'
        content = "Todos have been modified successfully. Ensure that you continue to use the todo list."
        self.tools_used.add("TodoWrite")
        return use, (tid, content, f'{{"oldTodos":[],"newTodos":[{todos}]}}', False)

    def agent_call(self) -> tuple[str, tuple[str, str, str, bool]]:
        rng = self.rng
        tid = f"toolu_01{hexid(rng, 22)}"
        agent_id = "a" + hexid(rng, 16)
        agent_type = rng.choice(AGENT_TYPES)
        desc = f"{rng.choice(VERBS).capitalize()} {rng.choice(WORDS)} {rng.choice(WORDS)}"
        prompt = rng.choice(self.p.prompts)
        use = (
            f'{{"type":"tool_use","id":"{tid}","name":"Agent","input":{{"description":"{desc}",'
            f'"prompt":"{prompt}","subagent_type":"{agent_type}"}}}}'
        )
        report = sized(self.p.prose, 4000, rng).esc
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
                t = sized(self.p.thinking, budget / 4, rng)
                blocks.append(f'{{"type":"thinking","thinking":"{t.esc}","signature":"{hexid(rng, 88)}"}}')
            if rng.random() < 0.7:
                blocks.append(f'{{"type":"text","text":"{sized(self.p.prose, budget / 4, rng).esc}"}}')
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
        final = [f'{{"type":"text","text":"{sized(self.p.prose, budget / 2, rng).esc}"}}']
        if rng.random() < 0.3:
            final.insert(
                0,
                f'{{"type":"thinking","thinking":"{sized(self.p.thinking, budget / 4, rng).esc}",'
                f'"signature":"{hexid(rng, 88)}"}}',
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
            text = sized(self.p.noise, budget, self.rng)
            self._chained(f'"type":"attachment","attachment":{{"type":"{kind}","content":"{text.esc}"}}', noise=True)

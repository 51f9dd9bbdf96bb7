"""A Claude root full of hostile files, generated (never committed as blobs): what a careful
attacker, a crashed client or a careless copy leaves where the kit reads.

`build_corpus(root)` writes one project whose sessions are each one case (a broken line, a
lone surrogate, an exit code of 4,300 digits, repeated content, wrong types for every field
the kit reads…), plus the file-system traps around them: FIFOs and `/dev/zero` links named
like transcripts, meta, plan and settings files, symlink loops, folders named like logs, a
meta file nested 1,000 deep, a legacy `agent-.jsonl`. `Corpus.sessions` are the session ids
a command can be pointed at; every read command must survive each of them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.transcripts import Transcript

CWD_NAME = "hostile-project"
SURROGATE = "\ud83d"  # the first half of 😀: what a cut emoji leaves
DIGITS = "9" * 4301  # past Python's int-from-string limit of 4,300 digits
LONGEST_INT = "9" * 4300  # the longest integer JSON text gives Python (sums of it overflow printing)


@dataclass(frozen=True)
class Corpus:
    root: Path  # the Claude root
    project: Path  # the project folder under `projects/`
    cwd: Path  # the project's working folder (holds a FIFO `.claude/settings.json`)
    sessions: tuple[str, ...]  # every session id of a case, in the order written
    traps: tuple[Path, ...]  # FIFOs, links and folders named like files the kit reads


def _line(value: Any) -> bytes:
    # ensure_ascii keeps a lone surrogate as its `\ud83d` escape, as the client writes it.
    return json.dumps(value, ensure_ascii=True).encode() + b"\n"


def _fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def _link(path: Path, target: str | Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def _nested(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def ordinary(sid: str, cwd: Path, **kw: Any) -> Transcript:
    """A small well-formed session to hang a case on."""
    t = Transcript(sid, cwd=str(cwd), **kw)
    t.user("please do the thing")
    t.bash("ls", "a\nb\n")
    t.say("done")
    return t


def build_corpus(root: Path, work: Path | None = None, *, traps: bool = True) -> Corpus:
    """The corpus under the Claude root `root`; `work` holds the project's working folder.

    `traps=False` leaves out the FIFOs and `/dev/zero` links (and the other file-system
    traps), for tests that read in-process, where a regression would hang the test run
    instead of timing out a subprocess.
    """
    work = work or root.parent / "hostile-work"
    cwd = work / CWD_NAME
    cwd.mkdir(parents=True, exist_ok=True)
    project = root / "projects" / "-hostile-project"
    project.mkdir(parents=True, exist_ok=True)
    sessions: list[str] = []
    laid: list[Path] = []

    def write(sid: str, data: bytes | Transcript) -> Path:
        path = project / f"{sid}.jsonl"
        path.write_bytes(b"".join(_line(v) for v in data.lines) if isinstance(data, Transcript) else data)
        sessions.append(sid)
        return path

    def subagent(agent: Transcript, *, meta: dict[str, Any]) -> None:
        folder = project / agent.session_id / "subagents"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"agent-{agent.agent_id}.jsonl").write_bytes(lines(*agent.lines))
        (folder / f"agent-{agent.agent_id}.meta.json").write_bytes(_line(meta))

    def fifo(path: Path) -> None:
        if traps:  # a FIFO blocks whoever opens it for reading, until a writer comes
            laid.append(_fifo(path))

    def zero(path: Path) -> None:
        if traps:  # /dev/zero never ends
            path.unlink(missing_ok=True)
            laid.append(_link(path, "/dev/zero"))

    def lines(*values: Any) -> bytes:
        return b"".join(_line(v) for v in values)

    base = {"sessionId": "", "cwd": str(cwd), "timestamp": "2026-11-01T09:00:00Z"}

    def entry(sid: str, **fields: Any) -> dict[str, Any]:
        return {**base, "sessionId": sid, **fields}

    # --- lone surrogates, in every field a command shows ---------------------------------------
    sid = "h-surrogate"
    t = Transcript(sid, cwd=str(cwd) + SURROGATE, branch="main" + SURROGATE, slug="slug-surrogate")
    t.user("find the emoji " + SURROGATE)
    call = t.tool_use("Bash", {"command": "echo " + SURROGATE, "description": SURROGATE})
    t.tool_result(call, "Exit code 1\nbroken " + SURROGATE, is_error=True, extra="Error: " + SURROGATE)
    t.tool_use("Agent" + SURROGATE, {"prompt": SURROGATE})
    t.tool_use("ExitPlanMode", {"plan": "# plan " + SURROGATE})
    t.compact("summary " + SURROGATE)
    t.say("answer " + SURROGATE)
    t.raw({"type": "weird" + SURROGATE, "uuid": SURROGATE, "timestamp": SURROGATE})
    write(sid, t)
    agent = Transcript(sid, cwd=str(cwd), agent_id="asurrogate")
    agent.user("agent prompt " + SURROGATE)
    agent.bash("false " + SURROGATE, exit_code=1, stderr="agent failed " + SURROGATE)
    agent.say("agent answer " + SURROGATE)
    subagent(agent, meta={"agentType": "Plan" + SURROGATE, "description": SURROGATE})

    # --- `Exit code ` and 4,300 digits -----------------------------------------------------------
    sid = "h-exit-digits"
    t = ordinary(sid, cwd)
    call = t.tool_use("Bash", {"command": "big"})
    t.tool_result(call, "Exit code " + DIGITS + "\nboom", is_error=True)
    call = t.tool_use("Bash", {"command": "big-ok"})
    t.tool_result(call, "Exit code -" + DIGITS)
    # Inputs JSON output cannot hold as they are: 1e400 (inf), nesting near the parser's limit.
    odd_input = (
        b'{"type":"assistant","uuid":"u-odd","timestamp":"2026-11-01T10:00:00Z","message":{"id":"m-odd",'
        b'"content":[{"type":"tool_use","id":"t-odd","name":"Bash","input":{"command":1e400,"n":-1e400,"deep":'
        + _nested(400).encode()
        + b',"big":'
        + LONGEST_INT.encode()
        + b"}}]}}\n"
    )
    write(sid, lines(*t.lines) + odd_input)

    # --- time at the edges of the calendar (checked under non-UTC zones too) ---------------------
    sid = "h-times"
    write(
        sid,
        lines(
            entry(sid, type="user", timestamp="0001-01-01T00:00:00Z", message={"role": "user", "content": "year one"}),
            entry(sid, type="assistant", timestamp="9999-12-31T23:59:59Z", message={"content": "year 9999"}),
            entry(sid, type="user", timestamp="0001-01-01T00:00:00+14:00", message={"content": "east of year one"}),
            entry(sid, type="user", timestamp="9999-12-31T23:59:59-12:00", message={"content": "west of 9999"}),
            entry(sid, type="user", timestamp=1e300, message={"content": "float far"}),
            entry(sid, type="user", timestamp=-1e18, message={"content": "before time"}),
            entry(sid, type="user", timestamp=True, message={"content": "boolean time"}),
        ),
    )

    # --- repeated content: a file resumed or copied into itself ---------------------------------
    sid = "h-repeated"
    t = ordinary(sid, cwd)
    t.compact("compacted once")
    t.user("after the compaction")
    write(sid, lines(*t.lines) * 3)

    # --- one tool_use id used seven times, two of the calls failing -----------------------------
    sid = "h-dup-ids"
    t = Transcript(sid, cwd=str(cwd))
    t.user("run seven things")
    for n in range(7):
        t.tool_use("Bash", {"command": f"step {n}"}, call_id="toolu_same")
        if n in (2, 5):
            t.tool_result("toolu_same", f"Exit code {n}\nstep {n} failed", is_error=True)
        else:
            t.tool_result("toolu_same", f"step {n} ok")
    write(sid, t)

    # --- broken lines -----------------------------------------------------------------------------
    sid = "h-broken-lines"
    good = lines(*ordinary(sid, cwd).lines)
    write(
        sid,
        b"\xef\xbb\xbf"
        + good
        + b'{"type":"user","message":{"content":"trunc'  # cut mid-line, then more lines
        + b"\n"
        + b"\x00\x00\x00\n"
        + b'{"type":"user","sessionId":"'
        + sid.encode()
        + b'","message":{"content":"nul \x00 inside"}}\n'
        + b'{"type":"user","message":{"content":"bad utf8 \xff\xfe \xc3"}}\n'
        + b'\xef\xbb\xbf{"type":"user","message":{"content":"bom in the middle"}}\n'
        + b'[1,2,3]\n42\n"a string"\nnull\ntrue\n'
        + b'{"type":"user","x":1e400,"message":{"content":"huge number","usage":{"input_tokens":1e400}}}\n'
        + b'{"type":"assistant","message":{"id":"m","usage":{"input_tokens":'
        + DIGITS.encode()
        + b"}}}\n"
        + b'{"type":"assistant","message":{"id":"m1","usage":{"input_tokens":'
        + LONGEST_INT.encode()
        + b"}}}\n"
        + b'{"type":"assistant","message":{"id":"m2","usage":{"input_tokens":'
        + LONGEST_INT.encode()
        + b"}}}\n"
        + b"{}{}\n"
        + b"   \n\r\n"
        + _nested(100_000).encode()
        + b"\n"
        + ("[" * 100_000).encode()
        + b"\n"
        + b'{"type":"user","message":{"content":"'
        + b"h" * 3_000_000
        + b'"}}\n'
        + b'{"type":"assistant","message":{"content":[{"type":"text","text":"half-writ',
    )

    # --- wrong types for every field the kit reads --------------------------------------------
    sid = "h-wrong-types"
    odd_values: list[Any] = [None, 7, -1.5, True, [], {}, ["x"], {"x": 1}, "", "s" + SURROGATE]
    wrong = []
    for n, odd in enumerate(odd_values):
        wrong += [
            entry(sid, type=odd, uuid=odd, parentUuid=odd, message=odd),
            entry(
                sid, type="user", uuid=odd, timestamp=odd, cwd=odd, gitBranch=odd, slug=odd, message={"content": odd}
            ),
            entry(
                sid, type="user", isSidechain=odd, isMeta=odd, origin=odd, promptSource=odd, message={"content": [odd]}
            ),
            entry(
                sid,
                type="assistant",
                uuid=f"u-{n}-a",
                isApiErrorMessage=odd,
                message={
                    "id": odd,
                    "model": odd,
                    "usage": odd,
                    "content": [
                        {"type": "tool_use", "id": odd, "name": odd, "input": odd},
                        {"type": "tool_use", "id": f"t-{n}", "name": {"not": "a name"}, "input": {"command": odd}},
                        {"type": "tool_use", "id": f"e-{n}", "name": "ExitPlanMode", "input": {"plan": odd}},
                        {
                            "type": "tool_use",
                            "id": f"w-{n}",
                            "name": "Write",
                            "input": {"file_path": odd, "content": odd},
                        },
                        {
                            "type": "tool_use",
                            "id": f"g-{n}",
                            "name": "Agent",
                            "input": {"subagent_type": odd, "prompt": odd},
                        },
                        {"type": "tool_use", "id": f"d-{n}", "name": "TodoWrite", "input": {"todos": odd}},
                        {"type": "text", "text": odd},
                        {"type": "thinking", "thinking": odd},
                        {"type": odd},
                        odd,
                    ],
                },
            ),
            entry(
                sid,
                type="user",
                uuid=f"u-{n}-r",
                toolUseResult=odd,
                message={
                    "content": [
                        {"type": "tool_result", "tool_use_id": odd, "content": odd, "is_error": odd},
                        {
                            "type": "tool_result",
                            "tool_use_id": f"t-{n}",
                            "content": [odd, {"type": "text", "text": odd}],
                        },
                        {"type": "tool_result", "tool_use_id": f"e-{n}", "content": odd},
                        {"type": "tool_result", "tool_use_id": f"g-{n}", "content": odd},
                    ]
                },
            ),
            entry(sid, type="user", uuid=f"u-{n}-e", toolUseResult={"agentId": odd, "filePath": odd, "plan": odd}),
            entry(sid, type="system", subtype="compact_boundary", compactMetadata=odd),
            entry(sid, type="system", subtype="compact_boundary", compactMetadata={"trigger": odd, "preTokens": odd}),
            entry(sid, type="user", isCompactSummary=True, message={"content": odd}),
            entry(sid, type="summary", summary=odd, leafUuid=odd),
            entry(sid, type="tool_result", message={"tool_use_id": odd, "content": odd, "is_error": odd}),
            entry(sid, type="attachment", attachment=odd),
            entry(sid, type="attachment", attachment={"type": "plan_mode", "planFilePath": odd}),
            {"type": "user", "message": {"timestamp": odd, "content": "seed time"}},
        ]
    wrong.append(entry(sid, type="user", message={"role": "user", "content": "a real request"}))
    write(sid, lines(*wrong))

    # --- files that are not files ---------------------------------------------------------------
    sid = "h-empty"
    write(sid, b"")
    sid = "h-blank"
    write(sid, b"\n \n\t\n")
    sid = "h-only-noise"
    write(sid, lines(*[{"type": "attachment", "attachment": {"type": "x"}} for _ in range(3)]))

    # --- agents: traps in both layouts ----------------------------------------------------------
    sid = "h-agents"
    t = ordinary(sid, cwd, slug="slug-agents")
    call = t.tool_use("Agent", {"subagent_type": "Plan", "description": "plan it", "prompt": "make a plan"})
    t.tool_result(call, "the plan", extra={"agentId": "agood"})
    write(sid, t)
    good_agent = Transcript(sid, cwd=str(cwd), agent_id="agood")
    good_agent.user("make a plan")
    good_agent.say("the plan")
    subagents = project / sid / "subagents"
    subagent(good_agent, meta={"agentType": "Plan", "toolUseId": call})
    (subagents / "agent-adeep.jsonl").write_bytes(lines(*good_agent.lines))
    (subagents / "agent-adeep.meta.json").write_text(_nested(1000))
    (subagents / "agent-alist.jsonl").write_bytes(lines(*good_agent.lines))
    (subagents / "agent-alist.meta.json").write_text("[1, 2]")
    (subagents / "agent-abadutf.jsonl").write_bytes(lines(*good_agent.lines))
    (subagents / "agent-abadutf.meta.json").write_bytes(b'{"agentType": "\xff\xfe"}')
    (subagents / "agent-afifo.jsonl").write_bytes(lines(*good_agent.lines))
    fifo(subagents / "agent-afifo.meta.json")
    fifo(subagents / "agent-apipe.jsonl")
    zero(subagents / "agent-azero.jsonl")
    laid.append(_link(subagents / "agent-azero2.jsonl", subagents / "agent-agood.jsonl"))
    zero(subagents / "agent-azero2.meta.json")
    laid.append(_link(subagents / "agent-aloop.jsonl", subagents / "agent-aloop.jsonl"))
    (subagents / "agent-adir.jsonl").mkdir()
    laid.append(subagents / "agent-adir.jsonl")
    # 2025 layout beside the sessions: an empty agent id, a folder, a FIFO, a loop.
    legacy = Transcript(sid, cwd=str(cwd), agent_id="")
    legacy.user("legacy agent with no id")
    legacy.say("legacy answer")
    (project / "agent-.jsonl").write_bytes(lines(*legacy.lines))
    laid.append(project / "agent-.jsonl")
    (project / "agent-x.jsonl").mkdir()
    laid.append(project / "agent-x.jsonl")
    fifo(project / "agent-fifo.jsonl")
    laid.append(_link(project / "agent-loop.jsonl", project / "agent-loop.jsonl"))
    zero(project / "agent-zero.jsonl")

    # --- plan and settings files that are not files ------------------------------------------
    sid = "h-plans"
    t = ordinary(sid, cwd, slug="slug-fifo")
    t.attachment("plan_mode", planFilePath=str(root / "plans" / "zero.md"))
    t.tool_use("ExitPlanMode", {"plan": "# a plan"})
    write(sid, t)
    fifo(root / "plans" / "slug-fifo.md")
    zero(root / "plans" / "zero.md")
    fifo(root / "settings.json")
    fifo(cwd / ".claude" / "settings.json")
    zero(cwd / ".claude" / "settings.local.json")

    # --- session files that are not files -----------------------------------------------------
    fifo(project / "t-fifo.jsonl")
    zero(project / "t-zero.jsonl")
    laid.append(_link(project / "t-loop.jsonl", project / "t-loop.jsonl"))
    laid.append(_link(project / "t-dangling.jsonl", project / "nowhere"))
    (project / "t-folder.jsonl").mkdir()
    laid.append(project / "t-folder.jsonl")

    return Corpus(root, project, cwd, tuple(sessions), tuple(laid))

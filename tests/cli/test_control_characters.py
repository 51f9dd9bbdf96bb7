"""No command lets a transcript drive the terminal: escape sequences (ESC, CSI, OSC, C1),
bidi controls and invisible characters from any field are written out visibly, in text and
JSON alike, and only the command line's own colours go out as escape sequences."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.cli import invoke, run
from tests.support.transcripts import Transcript

# Set a window title, clear the screen, a hidden hyperlink, a C1 CSI, a cursor move, a bell.
ESCAPES = "\x1b]0;PWNED\x07\x1b[2J\x1b[H\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\\x9b31m\x1b[5A\r\x08\x07"
# Right-to-left override, isolates, zero-width space and joiner, BOM, a tag character, LRM.
INVISIBLE = "\u202eexe.txt\u202c \u2066x\u2069 a\u200bb\u200dc \ufeff\U000e0041\u200e"
HOSTILE = f"{ESCAPES} {INVISIBLE}"

# What must never reach a reader raw: C0 but tab and newline, DEL, C1, bidi, zero-width, tags.
RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2060\ufeff\U000e0000-\U000e007f]"
)

SID = "e5c00000-1111-2222-3333-444455556666"


def hostile_session(root: Path) -> Transcript:
    """A session with the hostile text in every field a command prints."""
    t = Transcript(SID, cwd=f"/work/{HOSTILE}", branch=f"b{HOSTILE}")
    t.summary_2025(f"title {HOSTILE}")
    t.user(f"please {HOSTILE} fix it")
    t.assistant({"type": "thinking", "thinking": f"thinking {HOSTILE}"})
    t.say(f"answer {HOSTILE}")
    t.bash(f"echo '{HOSTILE}'", f"out {HOSTILE}")
    t.bash(f"make {HOSTILE}", exit_code=2, stderr=f"error {HOSTILE}")
    t.tool_use("TodoWrite", {"todos": [{"content": f"todo {HOSTILE}", "status": "pending", "activeForm": "x"}]})
    t.tool_use("Write", {"file_path": f"/tmp/{HOSTILE}.py", "content": f"x = '{HOSTILE}'"})
    call = t.tool_use(
        "Agent", {"subagent_type": "general-purpose", "description": f"agent {HOSTILE}", "prompt": f"do {HOSTILE}"}
    )
    agent = Transcript(SID, cwd=t.cwd, agent_id="a11ce00000000001", start=t.clock)
    agent.user(f"do {HOSTILE}")
    agent.bash(f"rm {HOSTILE}", exit_code=1, stderr=f"denied {HOSTILE}")
    agent.say(f"Failed: {HOSTILE}")
    t.clock = agent.clock
    t.tool_result(call, [{"type": "text", "text": f"Failed {HOSTILE}"}], extra={"agentId": agent.agent_id})
    t.tool_use("ExitPlanMode", {"plan": f"# Plan {HOSTILE}\n\n1. step {HOSTILE}"})
    t.compact(f"Summary: {HOSTILE}")
    t.user(f"after {HOSTILE} compaction")
    t.write_session(root)
    agent.write_subagent(
        root, t, meta={"agentType": f"general{HOSTILE}", "description": f"agent {HOSTILE}", "toolUseId": call}
    )
    return t


READS = [
    ("sessions", "--all"),
    ("sessions", "--all", "--tokens"),
    ("show", SID),
    ("events", SID),
    ("info", SID, "--full"),
    ("plan", SID, "--all"),
    ("debug-agent", SID, "--all", "--full"),
    ("search", "please", "--all", "--scan"),
    ("search", "please", "--all"),
    ("memory", SID, "--whole"),
    ("usage", "--by", "session"),
    ("usage", "--by", "project"),
    ("view", SID, "--format", "md", "-o", "-", "--thinking"),
    ("view", SID, "--format", "html", "-o", "-"),
    ("preprocess", SID, "--stdout", "--thinking"),
]
NO_JSON = ("view", "preprocess")  # they write a page or a document, not a JSON report


@pytest.fixture
def hostile(claude_root: Path) -> Path:
    hostile_session(claude_root)
    return claude_root


CASES = [(args, False) for args in READS] + [(args, True) for args in READS if args[0] not in NO_JSON]


@pytest.mark.parametrize(("args", "as_json"), CASES, ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_no_command_prints_a_transcripts_control_or_invisible_characters(hostile: Path, args, as_json: bool):
    result = invoke(*args, "--claude-dir", str(hostile), *(["--json"] if as_json else []))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip(), "the command printed nothing to check"
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        raw = sorted({f"U+{ord(c):04X}" for c in RAW.findall(text)})
        assert not raw, f"{' '.join(args)}: raw {raw} on {name}"
    if as_json:
        json.loads(result.stdout)  # the escapes are JSON's own: still one valid document


def test_the_escapes_are_visible_in_text(hostile: Path):
    out = invoke("show", SID, "--claude-dir", str(hostile)).stdout
    assert "\\u001b]0;PWNED\\u0007" in out
    assert "\\u202eexe.txt" in out


def test_json_escapes_decode_back_to_the_transcripts_text(hostile: Path):
    document = json.loads(invoke("plan", SID, "--claude-dir", str(hostile), "--json").stdout)
    decoded = json.dumps(document, ensure_ascii=False)
    assert "\u202eexe.txt\u202c" in decoded and "\x9b31m" in decoded


def test_only_the_command_lines_own_colours_reach_a_coloured_output(hostile: Path):
    proc = run("events", SID, "--claude-dir", str(hostile), env={"FORCE_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    own = ("\x1b[31m", "\x1b[33m", "\x1b[1m", "\x1b[0m")  # failures red, matches yellow, bold, reset
    sequences = re.findall(r"\x1b\[[0-9;]*m", proc.stdout)
    assert sequences, "the failed call is coloured"
    assert set(sequences) <= set(own)
    assert not RAW.findall(re.sub("|".join(map(re.escape, own)), "", proc.stdout))


def test_an_error_message_quoting_the_command_line_is_made_safe(hostile: Path):
    proc = run("show", "\x1b]0;PWNED\x07", "--claude-dir", str(hostile))
    assert proc.returncode != 0
    assert "\x1b" not in proc.stderr and "\x07" not in proc.stderr

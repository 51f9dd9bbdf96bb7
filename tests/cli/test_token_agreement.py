"""Every command that gives a session's tokens gives the same figures: `export` (the index),
`show`, `usage --by session`, `sessions --tokens` and the status line, on sessions of each
client generation (1.0.x inline agents, 2.0.x logs beside the sessions and warmup logs, 2.1.x
`subagents/` with workflow runs and agents whose logs are gone), each with a message written
as several lines whose output count grows, as those clients streamed it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from session_kit.cli.tokens import human_tokens
from session_kit.usage import statusline
from session_kit.usage.spend import session_logs
from tests.support import dialects
from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

FIGURES = ("input", "output", "cache_read", "cache_creation")


def streamed(t: Transcript, path: Path, *, version: str) -> None:
    """Append to `path` a response written a line per block, its output count growing, and
    the result of an agent whose log is gone, which reports the agent's usage."""
    more = Transcript(t.session_id, cwd=t.cwd, start=t.clock, version=version)
    more.user("one more thing")
    lines = more.assistant(*({"type": "text", "text": f"part {n}"} for n in range(3)))
    for line, output in zip(lines, (12, 340, 1210)):
        line["message"]["usage"] = {
            "input_tokens": 3,
            "output_tokens": output,
            "cache_read_input_tokens": 2000,
            "cache_creation_input_tokens": 50,
        }
    call = more.tool_use("Agent", {"description": "gone", "prompt": "GONE: look"})
    usage = {"input_tokens": 40, "output_tokens": 9, "cache_read_input_tokens": 300}
    more.tool_result(call, "looked", extra={"agentId": "agonewithusage01", "usage": usage, "status": "completed"})
    with path.open("a", encoding="utf-8") as out:
        out.write(more.text())


def build_1_0(root: Path) -> tuple[Transcript, Path]:
    built = dialects.inline_1_0(root)
    streamed(built.session, built.path, version="1.0.98")
    return built.session, built.path


def build_2_0(root: Path) -> tuple[Transcript, Path]:
    built = dialects.legacy_2_0(root)
    streamed(built.session, built.path, version="2.0.30")
    return built.session, built.path


def build_2_1(root: Path) -> tuple[Transcript, Path]:
    built = dialects.subagents_2_1(root)
    streamed(built.session, built.path, version="2.1.40")
    return built.session, built.path


def status_figures(transcript: Path, session_id: str) -> tuple[int, ...]:
    """The status line's figures, from the very records it counts into."""
    paths = [str(transcript), *session_logs(str(transcript), session_id)]
    files = {p: statusline.count_file(p, {}, main=p == str(transcript)) for p in paths}
    per_model = statusline.session_tokens(files, paths)
    totals = [sum(fields[i] for fields in per_model.values()) for i in range(5)]
    return totals[0], totals[1], totals[2], totals[3] + totals[4]


@pytest.mark.parametrize("build", [build_1_0, build_2_0, build_2_1], ids=["1.0.x", "2.0.x", "2.1.x"])
def test_export_show_usage_sessions_and_the_status_line_agree_on_every_figure(
    claude_root: Path, tmp_path: Path, build: Callable[[Path], tuple[Transcript, Path]]
):
    t, path = build(claude_root)
    show = invoke_json("show", str(path))["usage"]["total"]["tokens"]
    expected = tuple(show[f] for f in FIGURES)
    assert show["output"] > 1210  # the streamed message's last line, and more

    usage = {row["key"]: row["tokens"] for row in invoke_json("usage", "--by", "session")["rows"]}
    listed = {row["id"]: row["tokens"] for row in invoke_json("sessions", "--all", "--tokens")["sessions"]}
    invoke("export", "--output-dir", str(tmp_path / "out"))
    exported = {
        row["id"]: (row["input_tokens"], row["output_tokens"], row["cache_read_tokens"], row["cache_write_tokens"])
        for row in map(json.loads, (tmp_path / "out" / "sessions.jsonl").read_text().splitlines())
    }
    assert tuple(usage[t.session_id][f] for f in FIGURES) == expected
    assert tuple(listed[t.session_id][f] for f in FIGURES) == expected
    assert exported[t.session_id] == expected
    assert status_figures(path, t.session_id) == expected
    # the budget per session counts what `show` counts (its running count, folded past 16 messages)
    budget = invoke_json("budget", str(path))
    assert budget["spent_tokens"] == show["total"]
    assert budget["spent_usd"] == pytest.approx(invoke_json("show", str(path))["usage"]["total"]["cost"]["usd"])

    event = {"session_id": t.session_id, "transcript_path": str(path), "cwd": t.cwd}
    line = statusline.status_line(event, root=str(tmp_path / "state"))
    assert f" {human_tokens(show['total'])} tok " in line


def test_the_status_line_counts_an_agent_whose_log_is_gone_from_its_result(claude_root: Path, tmp_path: Path):
    t = Transcript()
    t.user("go")
    t.say("ok")
    path = t.write_session(claude_root)
    streamed(t, path, version="2.1.328")
    show = invoke_json("show", str(path))["usage"]
    [gone] = [a for a in show["agents"] if a["agent_id"] == "agonewithusage01"]
    assert gone["source"] == "result" and gone["tokens"]["output"] == 9
    assert status_figures(path, t.session_id)[1] == show["total"]["tokens"]["output"]


def test_the_status_line_reads_the_head_of_a_log_beside_the_sessions_once(claude_root: Path, tmp_path: Path):
    built = dialects.legacy_2_0(claude_root)
    sid = built.session.session_id
    event = {"session_id": sid, "transcript_path": str(built.path), "cwd": built.session.cwd}
    first = statusline.status_line(event, root=str(tmp_path / "state"))
    log = built.path.parent / f"agent-{built.agent}.jsonl"
    other = sid[:-1] + ("0" if sid[-1] != "0" else "1")  # same length: the file keeps its size
    log.write_bytes(log.read_bytes().replace(sid.encode(), other.encode()))
    assert statusline.status_line(event, root=str(tmp_path / "state")) == first  # its verdict was kept

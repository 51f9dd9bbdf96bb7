"""The benchmark data generator, at a tiny scale: it writes what the real client writes.

Times and memory are measured by `benchmarks/run.py`, never asserted here; this only checks
that the generated Claude root is well-formed, laid out like the current client's, and mostly
noise by bytes, as real transcripts are.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks import areas
from benchmarks.harness.context import BENCHMARKS, QUICK, scale_for
from session_kit.base.encoding import encode_project_dir
from tests.support.benchmarks import load_generator

CONVERSATION_TYPES = {"user", "assistant", "system"}


generate = load_generator()


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bench") / "claude"
    generate.generate(out, sessions=20, big_mb=1, seed=7, workers=1)
    return out


def _entries(path: Path) -> Iterator[tuple[dict, int]]:
    with open(path, "rb") as fh:
        for line in fh:
            yield json.loads(line), len(line)


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name != generate.MANIFEST_NAME:
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def test_every_line_of_every_file_is_json_and_ends_with_a_newline(root: Path) -> None:
    files = list(root.rglob("*.jsonl"))
    assert len(files) >= 21
    for path in files:
        data = path.read_bytes()
        assert data.endswith(b"\n"), path
        for line in data.splitlines():
            assert isinstance(json.loads(line), dict), path


def test_sessions_sit_in_encoded_project_dirs_named_after_their_cwd(root: Path) -> None:
    manifest = json.loads((root / generate.MANIFEST_NAME).read_text())
    sessions = list((root / "projects").glob("*/*.jsonl"))
    assert len(sessions) == manifest["sessions"] + 1  # and the big one
    for path in sessions:
        entry = next(e for e, _ in _entries(path) if e.get("type") == "user")
        assert entry["sessionId"] == path.stem
        assert path.parent.name == encode_project_dir(entry["cwd"])


def test_subagent_logs_have_meta_and_point_back_to_their_parent(root: Path) -> None:
    logs = list((root / "projects").glob("*/*/subagents/agent-*.jsonl"))
    assert logs, "some sessions spawn subagents"
    for log in logs:
        session_id = log.parent.parent.name
        meta = json.loads(log.with_name(log.name.replace(".jsonl", ".meta.json")).read_text())
        assert meta["agentType"] in {"general-purpose", "Explore", "Plan"}
        parent = log.parent.parent.parent / f"{session_id}.jsonl"
        tool_uses = {
            b["id"]: b
            for e, _ in _entries(parent)
            if e.get("type") == "assistant"
            for b in e["message"]["content"]
            if b["type"] == "tool_use"
        }
        assert tool_uses[meta["toolUseId"]]["name"] == "Agent"
        convo = [e for e, _ in _entries(log) if e.get("type") in ("user", "assistant")]
        assert all(e["sessionId"] == session_id and e["isSidechain"] for e in convo)
        assert convo[0]["message"]["content"] == tool_uses[meta["toolUseId"]]["input"]["prompt"]


def test_noise_is_most_of_the_bytes(root: Path) -> None:
    total = noise = 0
    for path in root.rglob("*.jsonl"):
        for entry, size in _entries(path):
            total += size
            if entry["type"] not in CONVERSATION_TYPES:
                noise += size
    assert 0.7 < noise / total < 0.9


def test_one_response_is_several_lines_sharing_id_and_usage(root: Path) -> None:
    by_id: dict[str, list[dict]] = {}
    for path in (root / "projects").glob("*/*.jsonl"):
        for entry, _ in _entries(path):
            if entry["type"] == "assistant":
                by_id.setdefault(entry["message"]["id"], []).append(entry["message"])
    multi = [msgs for msgs in by_id.values() if len(msgs) > 1]
    assert multi
    for msgs in multi:
        assert all(len(m["content"]) == 1 and m["usage"] == msgs[0]["usage"] for m in msgs)


def test_tool_results_and_failures_look_like_the_clients(root: Path) -> None:
    failures = results = 0
    for path in (root / "projects").glob("*/*.jsonl"):
        for entry, _ in _entries(path):
            content = entry.get("message", {}).get("content") if entry["type"] == "user" else None
            if isinstance(content, list) and content[0]["type"] == "tool_result":
                results += 1
                assert "toolUseResult" in entry
                if content[0]["content"].startswith("Exit code "):
                    failures += 1
                    assert content[0]["is_error"] is True
                    assert isinstance(entry["toolUseResult"], str)
    assert results and failures


def test_the_big_session_is_about_its_size_and_compacted(root: Path) -> None:
    manifest = json.loads((root / generate.MANIFEST_NAME).read_text())
    big = root / manifest["big_session_path"]
    assert 0.8e6 < big.stat().st_size < 1.6e6
    entries = [e for e, _ in _entries(big)]
    i = next(i for i, e in enumerate(entries) if e.get("subtype") == "compact_boundary")
    assert entries[i]["parentUuid"] is None and entries[i]["logicalParentUuid"]
    assert entries[i + 1]["isCompactSummary"] is True
    assert entries[i + 1]["parentUuid"] == entries[i]["uuid"]


def test_the_same_seed_gives_the_same_bytes(root: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate.generate(again, sessions=20, big_mb=1, seed=7, workers=1)
    assert _digest(again) == _digest(root)


def test_a_session_grown_from_the_real_clients_transcript_repeats_no_entry(tmp_path: Path):
    source = Path(__file__).parent / "fixtures/real/projects/-tmp-real-fixture-project"
    session = next(source.glob("*.jsonl"))
    manifest = generate.grow(session, tmp_path / "grown", mb=1.5)
    grown = tmp_path / "grown" / manifest.big_session_path
    assert grown.stat().st_size >= 1_500_000
    rows = [e for e, _ in _entries(grown)]
    uuids = [e["uuid"] for e in rows if "uuid" in e]
    assert len(uuids) == len(set(uuids))  # every round's entries are new ones
    assert {e["sessionId"] for e in rows if "sessionId" in e} == {session.stem}
    assert (grown.parent / session.stem / "subagents").is_dir()  # its agents came along
    assert 0.5 < manifest.noise_bytes / manifest.total_bytes < 1


def test_the_runner_finds_every_area_and_keeps_the_reports_order():
    areas.load()
    assert list(BENCHMARKS) == [
        "listing",
        "search",
        "memory",
        "reads",
        "hooks",
        "guard",
        "startup",
        "mcp",
        "usage",
        "statusline",
        "compaction",
        "preprocess",
        "view",
        "baselines",
        "secrets",
        "redaction",
        "redaction-guard",
        "history",
        "indexed",
        "archive",
        "team",
    ]
    runner = Path(__file__).parents[1] / "benchmarks" / "run.py"
    shown = subprocess.run([sys.executable, runner, "--help"], capture_output=True, text=True, check=True).stdout
    assert "--only {archive,baselines,compaction,guard,history," in shown


def test_a_quick_run_keeps_the_quick_sizes_whatever_its_repeat_count():
    scale = scale_for(quick=True, repeat=7)
    assert (scale.repeat, scale.slow_repeat) == (7, QUICK.slow_repeat)
    assert (scale.sessions, scale.big_mb, scale.reads_mb) == (QUICK.sessions, QUICK.big_mb, QUICK.reads_mb)

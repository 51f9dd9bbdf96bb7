"""`sessions --lost` and `search --lost`: sessions the client deleted before the kit archived
them, as the client's `history.jsonl` remembers them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import make_session

KEPT = "11111111-0000-0000-0000-00000000aaaa"  # its transcript is on disk
ARCHIVED = "22222222-0000-0000-0000-00000000bbbb"  # deleted, but in the kit's archive
LOST = "33333333-0000-0000-0000-00000000cccc"  # only history.jsonl remembers it
ELSEWHERE = "44444444-0000-0000-0000-00000000dddd"  # lost too, in another project
T0 = 1_760_000_000_000  # ms, as the client writes `timestamp`


def _line(session: str | None, text: str, at: int, project: str = "/work/proj", pasted: str | None = None) -> str:
    entry = {
        "display": text,
        "pastedContents": {"1": {"id": 1, "type": "text", "content": pasted}} if pasted else {},
        "timestamp": at,
        "project": project,
    }
    if session:
        entry["sessionId"] = session
    return json.dumps(entry) + "\n"


@pytest.fixture
def history(claude_root: Path) -> Path:
    make_session(claude_root, KEPT, prompt="kept prompt")
    make_session(claude_root, ARCHIVED, prompt="archived prompt")
    assert invoke("archive").exit_code == 0
    (claude_root / "projects" / "-work-proj" / f"{ARCHIVED}.jsonl").unlink()
    lines = [
        _line(KEPT, "kept prompt", T0),
        _line(ARCHIVED, "archived prompt", T0 + 1000),
        _line(LOST, "migrate the billing tables to postgres", T0 + 2000),
        _line(LOST, "now write the rollback [Pasted text #1 +3 lines]", T0 + 62_000, pasted="DROP TABLE invoices_v2;"),
        _line(ELSEWHERE, "fix the flaky billing test", T0 + 90_000, project="/work/other"),
    ]
    path = claude_root / "history.jsonl"
    path.write_text("".join(lines))
    return path


def test_sessions_lost_lists_a_session_only_history_remembers_with_its_prompts_project_and_time(history: Path):
    found = invoke_json("sessions", "--lost", "--project", "/work/proj")
    assert found["kind"] == "sessions-lost"
    assert [s["id"] for s in found["sessions"]] == [LOST], "a transcript or an archived copy is not lost"
    lost = found["sessions"][0]
    assert lost["project"] == "/work/proj"
    assert (lost["start"], lost["end"]) == ("2025-10-09T08:53:22Z", "2025-10-09T08:54:22Z")
    assert [p["text"] for p in lost["prompts"]] == [
        "migrate the billing tables to postgres",
        "now write the rollback [Pasted text #1 +3 lines]",
    ]
    assert lost["prompts"][1]["pasted"] == ["DROP TABLE invoices_v2;"] and lost["prompts"][1]["line"] == 4

    everywhere = invoke_json("sessions", "--lost", "--all")
    assert [s["id"] for s in everywhere["sessions"]] == [ELSEWHERE, LOST]

    text = invoke("sessions", "--lost", "--all")
    assert text.exit_code == 0
    assert LOST in text.stdout and "migrate the billing tables" in text.stdout and "/work/other" in text.stdout
    assert KEPT not in text.stdout and ARCHIVED not in text.stdout


def test_search_lost_finds_the_prompts_typed_or_pasted_in_lost_sessions(history: Path):
    typed = invoke_json("search", "BILLING", "--all", "--lost")
    assert typed["mode"] == "lost"
    assert [(h["session_id"], h["line"]) for h in typed["hits"]] == [(LOST, 3), (ELSEWHERE, 5)]
    pasted = invoke_json("search", "invoices_v2", "--all", "--lost")
    assert [h["session_id"] for h in pasted["hits"]] == [LOST]
    assert invoke_json("search", "kept prompt", "--all", "--lost")["hits"] == []
    text = invoke("search", "rollback", "--all", "--lost")
    assert text.exit_code == 0 and LOST in text.stdout and "1 prompt of lost sessions" in text.stdout


def test_lost_prompts_are_shown_redacted(claude_root: Path):
    key = "sk-ant-api03-L0stPr0mptK3yXyZ-qQ9wE8rT7yU6iO5pA4sD3fGhJ"
    (claude_root / "history.jsonl").write_text(_line(LOST, f"deploy with {key}", T0))
    for args in (("sessions", "--lost", "--all"), ("search", "deploy", "--all", "--lost")):
        for fmt in ((), ("--json",)):
            result = invoke(*args, *fmt)
            assert (
                result.exit_code == 0 and key not in result.stdout and "[REDACTED:anthropic-api-key]" in result.stdout
            )


def test_no_history_means_no_lost_sessions_and_says_so(claude_root: Path):
    make_session(claude_root, KEPT)
    result = invoke("sessions", "--lost", "--all")
    assert result.exit_code == 0
    assert (
        result.stdout
        == f"No lost sessions: there is no history.jsonl in {claude_root} (the client writes it as you type).\n"
    )


def test_none_lost_in_this_project_names_those_lost_in_others(history: Path, tmp_path: Path):
    result = invoke("sessions", "--lost", "--project", str(tmp_path / "elsewhere"))
    assert result.exit_code == 0
    assert result.stdout == "No lost sessions in this project; 2 lost sessions in others (--all lists them).\n"


def test_lines_without_a_session_id_are_kept_by_project(claude_root: Path):
    (claude_root / "history.jsonl").write_text(_line(None, "an old prompt", T0) + "not json\n")
    found = invoke_json("sessions", "--lost", "--all")
    assert [(s["id"], s["project"], len(s["prompts"])) for s in found["sessions"]] == [(None, "/work/proj", 1)]


def test_a_history_that_is_not_a_file_is_skipped_with_a_warning(claude_root: Path):
    (claude_root / "history.jsonl").mkdir()
    result = invoke("sessions", "--lost", "--all")
    assert result.exit_code == 0 and "history.jsonl" in result.stderr and "No lost sessions" in result.stdout


def _history(path: Path, size: int) -> None:
    """A history of `size` bytes, each line a prompt of its own lost session (the most
    sessions a history can name: a CI runner's one-shot `claude -p` runs)."""
    words = [
        "migrate",
        "billing",
        "tables",
        "postgres",
        "deploy",
        "flaky",
        "test",
        "fix",
        "the",
        "a",
        "to",
        "of",
        "and",
        "refactor",
    ]
    with path.open("w") as f:
        i = written = 0
        while written < size:
            text = " ".join(words[(i * 7 + k) % len(words)] for k in range(150))
            line = _line(f"{i:08d}-0000-4000-8000-000000000000", text, T0 + i, project=f"/work/p{i % 50}")
            f.write(line)
            written += len(line)
            i += 1


def _peak_rss_kb(*args: str) -> int:
    """The peak RSS of `session-kit ARGS` run alone (its parent starts nothing else)."""
    code = (
        "import resource, subprocess, sys; "
        "done = subprocess.run([sys.executable, '-m', 'session_kit', *sys.argv[1:]], stdout=subprocess.DEVNULL); "
        "assert done.returncode == 0; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.parametrize(
    "args", [("sessions", "--lost", "--all", "--json"), ("search", "billing", "--lost", "--all", "--json")]
)
def test_lost_streams_a_large_history_in_memory_that_does_not_grow_with_it(claude_root: Path, tmp_path: Path, args):
    # Both histories are large enough for every fixed cost (the redactor's compiled pass, its
    # few MB of texts remembered): what is left of the difference grows with the file.
    size, smaller = 16_000_000, 4_000_000
    small, large = tmp_path / "small", tmp_path / "large"
    for root, length in ((small, smaller), (large, size)):
        (root / "projects").mkdir(parents=True)
        _history(root / "history.jsonl", length)
    grew = _peak_rss_kb(*args, "--claude-dir", str(large)) - _peak_rss_kb(*args, "--claude-dir", str(small))
    assert grew * 1024 < (size - smaller) / 2  # what is held is where the lines are, never their text

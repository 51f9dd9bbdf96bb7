"""A call denied on a client since 2.1.328 is told by the mark on its result's entry
(`toolDenialKind`), not by its text alone: a host's or a rule's deny with an empty message is
the person's decision for every reader (the call pairing behind `show`'s failures, the memory,
the agents, `preprocess`), while auto mode's own refusal stays a failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.base.declines import is_declined
from session_kit.memory import record
from session_kit.memory.capture import capture_file
from session_kit.transcript.calls import STATUS_DECLINED, STATUS_ERROR, pair_tool_calls
from session_kit.transcript.entries import read_entries
from tests.support.cli import invoke, invoke_json
from tests.support.dialects import Denials2_1_328, denials_2_1_328


@pytest.fixture
def denials(tmp_path: Path) -> Denials2_1_328:
    return denials_2_1_328(tmp_path / "claude")


@pytest.mark.parametrize("kind", ["user-rejected", "permission-rule", "interrupted", "cancelled"])
def test_the_persons_marks_are_declines_whatever_the_text(kind: str) -> None:
    assert is_declined("", tool="Bash", version="2.1.328", kind=kind)
    assert is_declined("Denied by the host", tool="Bash", version="2.1.328", kind=kind)


@pytest.mark.parametrize("kind", ["automode-blocked", "automode-unavailable", "automode-parsing-error"])
def test_auto_modes_own_refusal_is_no_decline_whatever_the_text(kind: str) -> None:
    text = "The user doesn't want to proceed with this tool use."
    assert not is_declined(text, tool="Bash", version="2.1.328", kind=kind)


def test_the_call_pairing_reads_the_mark(denials: Denials2_1_328) -> None:
    calls = {c.id: c for c in pair_tool_calls(read_entries(denials.path))}
    assert {i: calls[i].status for i in denials.declined} == dict.fromkeys(denials.declined, STATUS_DECLINED)
    assert {i: calls[i].status for i in denials.failed} == dict.fromkeys(denials.failed, STATUS_ERROR)


def test_show_lists_no_declined_call_among_the_failures(denials: Denials2_1_328) -> None:
    shown = invoke_json("show", str(denials.path), "--claude-dir", str(denials.root))
    assert [f["id"] for f in shown["failures"]] == list(denials.failed)


def test_the_memory_holds_the_declines_as_decisions_and_only_failures_as_failures(denials: Denials2_1_328) -> None:
    memory = capture_file(str(denials.path), record.empty_memory(), keeps=lambda part: True)
    failed = [f["command"] for f in memory["failures"]]
    assert failed == ["curl https://example.com/install.sh | sh", "pytest -q"], memory["failures"]
    assert len(memory["declined"]) == len(denials.declined)
    assert memory["agents"] == []  # the declined spawning call started nothing


def test_a_declined_spawning_call_is_no_agent(denials: Denials2_1_328) -> None:
    listed = invoke_json("agents", str(denials.path), "--claude-dir", str(denials.root))
    assert listed["agents"] == []


def test_preprocess_marks_the_empty_deny_declined(denials: Denials2_1_328) -> None:
    result = invoke("preprocess", str(denials.path), "--claude-dir", str(denials.root), "--stdout")
    assert result.exit_code == 0, result.stderr
    [by_rule] = [line for line in result.stdout.splitlines() if f'tool_use_id="{denials.declined[0]}"' in line]
    assert 'status="declined"' in by_rule

"""One transcript file into format-neutral units: no markup in them, texts redacted in batches."""

from __future__ import annotations

from pathlib import Path

from session_kit.conversation import steps
from session_kit.conversation.convert import BATCH_CHARS, ConvertOptions, LogConverter
from session_kit.conversation.items import Element, Omitted, texts
from session_kit.redaction.engine import Redactor
from session_kit.transcript.calls import STATUS_OK
from session_kit.transcript.reader import ReadStats
from tests.support.transcripts import Transcript

KEY = "sk-proj-4fT9kQ2wX7mN1pR8sV3yB6cH0jL5dG2e"


def convert(t: Transcript, tmp_path: Path, *, agent_id: str | None = None, redact: bool = True, **options):
    path = t.write(tmp_path / "t.jsonl")
    converter = LogConverter(
        path,
        ConvertOptions(session_id=t.session_id, agent_id=agent_id, **options),
        reduction=steps.Reduction(),
        read=ReadStats(),
        redactor=Redactor() if redact else None,
    )
    return list(converter.units()), converter


def test_units_are_elements_with_plain_text_not_markup(tmp_path: Path):
    t = Transcript()
    t.user("a < b & c")
    t.bash("seq 40", "\n".join(f"n{i}" for i in range(40)))
    units, _ = convert(t, tmp_path)
    user, call, result = units
    assert user == [Element("user", {"line": 1, "time": "2026-11-01T09:00:01Z", "kind": None}, ["a < b & c"])]
    (tool_use,) = call[0].children
    assert tool_use.name == "tool_use" and [p.attrs["name"] for p in tool_use.children] == ["command", "description"]
    (element,) = result
    assert element.attrs["lines"] == 40 and element.children[1] == Omitted(10)
    assert element.children[0].startswith("n0\nn1\n") and "".join(texts(units[0])) == "a < b & c"  # not escaped


def test_texts_are_cleaned_and_redacted_across_a_batch_and_only_changed_units_are_touched(tmp_path: Path):
    t = Transcript()
    t.user("bell\x07 and nul\x00 here")
    for i in range(3 * BATCH_CHARS // 1000):
        t.say(f"{i} " + "x" * 1000)  # several batches
    t.say(f"the key is {KEY}")
    units, converter = convert(t, tmp_path)
    flat = ["".join(texts(u)) for u in units]
    assert flat[0] == "bell\ufffd and nul\ufffd here"
    assert flat[-1] == "the key is [REDACTED:openai-api-key]"
    assert converter.reduction.steps[steps.STEP_REDACTION].entries == 1
    assert converter.redactor.counts == {"openai-api-key": 1}
    assert all(KEY not in text for text in flat)


def test_no_redactor_keeps_secrets_but_still_cleans(tmp_path: Path):
    t = Transcript()
    t.user(f"key {KEY} esc\x1b")
    units, _ = convert(t, tmp_path, redact=False)
    assert list(texts(units[0])) == [f"key {KEY} esc\ufffd"]


def test_spawning_calls_are_real_tool_calls_of_the_log_they_are_in(tmp_path: Path):
    t = Transcript(agent_id="a0000000000outer")
    t.user("Go")
    call = t.tool_use("Agent", {"subagent_type": "Explore", "description": "Inner", "prompt": "Look"})
    t.tool_result(call, "Done.", extra={"agentId": "a0000000000inner"})
    t.bash("true")
    _, converter = convert(t, tmp_path, agent_id="a0000000000outer")
    (spawn,) = converter.facts.spawn_calls.values()
    assert (spawn.id, spawn.name, spawn.agent_id, spawn.spawned_agent_id) == (
        call,
        "Agent",
        "a0000000000outer",
        "a0000000000inner",
    )
    assert (spawn.status, spawn.line, spawn.result_line, spawn.input["description"]) == (STATUS_OK, 2, 3, "Inner")


def test_a_dropped_tool_result_takes_no_text_with_it(tmp_path: Path):
    t = Transcript()
    t.user("Where are the logs?")
    call = t.tool_use("Bash", {"command": "ls ~/.claude/projects"})
    t.tool_result(call, "SECRET-LISTING")
    t.say("Found them.")
    units, converter = convert(t, tmp_path)
    assert [u[0].name for u in units] == ["user", "assistant"]
    assert converter.reduction.steps[steps.STEP_LOG_DISCOVERY].entries == 2

"""One transcript file into format-neutral units: no markup in them, texts redacted in batches."""

from __future__ import annotations

from pathlib import Path

from session_kit.conversation import steps
from session_kit.conversation.convert import BATCH_CHARS, ConvertOptions, LogConverter
from session_kit.conversation.items import Element, Omitted, texts
from session_kit.redact import Redactor
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


def _long_results_session() -> Transcript:
    t = Transcript()
    t.user("run the tests")
    many = "\n".join(f"line {i}" for i in range(80))
    trace = "\n".join(
        ["collected 90 items", *(f"test_{i} PASSED" for i in range(40)), "Traceback (most recent call last):"]
        + [f'  File "m{i}.py", line {i}, in f{i}' for i in range(70)]
        + ["ValueError: bad", *(f"more {i}" for i in range(40)), "FAILED test_x - AssertionError", "1 error"]
    )
    for i in range(30):
        t.bash(f"pytest -k {i}", trace if i % 3 == 0 else many + f"\nwarning: {i}\n" + many)
    call = t.tool_use("Read", {"file_path": "/w/a.py"})
    t.tool_result(call, [{"type": "text", "text": many}, {"type": "text", "text": "tail"}])
    first, second = t.tool_use("Bash", {"command": "a"}), t.tool_use("Bash", {"command": "b"})
    entry = t._base("user")
    t._message(
        entry,
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": first, "content": "short"},
                {"type": "tool_result", "tool_use_id": second, "content": trace},
            ],
        },
    )
    t.say("done")
    return t


def test_results_pruned_ahead_by_the_forked_reader_convert_as_pruned_here(tmp_path: Path, monkeypatch):
    from session_kit.conversation import elements, noise

    used: list[tuple[int, bool]] = []
    original = elements.UnitBuilder._pruned_ahead

    def record(self, index: int, text: str):
        found = original(self, index, text)
        used.append((index, found is not None))
        return found

    monkeypatch.setattr(elements.UnitBuilder, "_pruned_ahead", record)
    t = _long_results_session()
    monkeypatch.setattr(noise, "FORK_MIN_BYTES", 1 << 40)
    here, converter_here = convert(t, tmp_path)
    assert not any(found for _, found in used)  # the serial reader works nothing out ahead
    used.clear()
    monkeypatch.setattr(noise, "FORK_MIN_BYTES", 0)
    beside, converter_beside = convert(t, tmp_path)
    assert beside == here
    assert converter_beside.reduction == converter_here.reduction
    # Every long result was pruned ahead: the 30 runs, the Read, and the two-result entry's second.
    assert sum(found for _, found in used) == 32 and (1, True) in used


def test_a_result_worked_out_ahead_is_used_only_for_the_same_text(tmp_path: Path):
    builder = elements_builder()
    text = "\n".join(f"n{i}" for i in range(50))
    pruned = steps.prune_output(text)
    builder.next_entry([(0, len(text), pruned.pieces, pruned.lines, pruned.omitted)])
    assert builder._pruned_ahead(0, text) == pruned
    assert builder._pruned_ahead(1, text) is None  # another result of the entry
    assert builder._pruned_ahead(0, text + "x") is None  # another text: pruned again here


def elements_builder():
    from session_kit.conversation.elements import UnitBuilder

    return UnitBuilder(ConvertOptions(session_id=None), reduction=steps.Reduction(), redactor=None)

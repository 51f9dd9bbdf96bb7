"""A spawning call's result names its agent in `toolUseResult.agentId`, or (older clients) in
an `agentId: <id>` line of its text: the `<tool_result>` element says which, either way, by
the same rule as the call pairer (`transcript.calls`)."""

from __future__ import annotations

from session_kit.conversation import steps
from session_kit.conversation.elements import ConvertOptions, UnitBuilder
from session_kit.transcript.entries import Entry
from tests.support.transcripts import Transcript


def result_agent_ids(t: Transcript) -> list[str | None]:
    builder = UnitBuilder(ConvertOptions(session_id=t.session_id), reduction=steps.Reduction(), redactor=None)
    found = []
    for n, raw in enumerate(t.lines, 1):
        entry = Entry.from_raw(n, raw)
        units = builder.assistant([entry]) if entry.kind == "assistant" else builder.entry(entry)
        for element in units or ():
            if element.name == "tool_result":
                found.append(element.attrs.get("agent_id"))
    return found


def test_the_agent_named_in_the_result_text_is_the_results_agent_id():
    t = Transcript("e1e00000-0000-0000-0000-000000000001")
    t.user("go")
    call = t.tool_use("Task", {"subagent_type": "Explore", "description": "d", "prompt": "p"})
    t.tool_result(call, [{"type": "text", "text": "Done.\n\nagentId: 2e4c0de1"}])
    modern = t.tool_use("Agent", {"subagent_type": "Explore", "description": "d", "prompt": "p"})
    t.tool_result(modern, "Done.", extra={"agentId": "a0b1c2", "status": "completed"})
    assert result_agent_ids(t) == ["2e4c0de1", "a0b1c2"]

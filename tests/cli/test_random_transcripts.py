"""A property of every read command: over any transcript (random entries in the shapes the
kit reads, with wrong types, shared ids and uuids, lone surrogates, extreme numbers and
times, and lines that are not JSON at all), it ends with a documented exit code, never an
internal error, and prints valid UTF-8 (valid JSON under `--json`). In-process, for speed.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.test_hostile_inputs import DOCUMENTED, assert_survived
from tests.support.cli import invoke

NASTY_TEXT = ["", "\ud83d", "a\udfffb", "Exit code 7", "Exit code " + "9" * 4301, "\x00", "<tool_use_error>x", "😀"]
texts = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=20))
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 10**4299, float("inf"), float("-inf"), 1e300, -0.0]),
    st.floats(allow_nan=False),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(texts, inner, max_size=3)),
    max_leaves=8,
)
ids = st.sampled_from(["toolu_1", "toolu_2", "toolu_3"])  # few: uses and results share them
stamps = st.one_of(
    st.sampled_from(["2026-11-01T09:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00", "yesterday"]),
    numbers,
    values,
)
tool_names = st.one_of(st.sampled_from(["Bash", "Agent", "Task", "ExitPlanMode", "Write", "TodoWrite"]), values)
blocks = st.one_of(
    st.fixed_dictionaries({"type": st.just("text"), "text": st.one_of(texts, values)}),
    st.fixed_dictionaries({"type": st.just("thinking"), "thinking": texts}),
    st.fixed_dictionaries(
        {"type": st.just("tool_use"), "id": st.one_of(ids, values), "name": tool_names, "input": values}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("tool_result"),
            "tool_use_id": st.one_of(ids, values),
            "content": st.one_of(texts, values),
            "is_error": st.one_of(st.booleans(), values),
        }
    ),
    values,
)
entries = st.fixed_dictionaries(
    {
        "type": st.one_of(
            st.sampled_from(["user", "assistant", "system", "summary", "attachment", "tool_result"]), values
        ),
        "uuid": st.one_of(st.sampled_from(["u1", "u2", "u3"]), values),
        "timestamp": stamps,
        "message": st.one_of(
            st.fixed_dictionaries(
                {
                    "id": st.one_of(st.sampled_from(["m1", "m2"]), values),
                    "content": st.one_of(texts, st.lists(blocks, max_size=4), values),
                    "usage": st.one_of(st.dictionaries(st.just("input_tokens"), numbers), values),
                }
            ),
            values,
        ),
    },
    optional={
        "subtype": st.sampled_from(["compact_boundary"]),
        "isCompactSummary": st.booleans(),
        "compactMetadata": values,
        "toolUseResult": values,
        "cwd": texts,
        "slug": texts,
        "summary": values,
        "attachment": values,
    },
)


def line(value: object) -> bytes:
    try:
        return json.dumps(value, ensure_ascii=True).encode() + b"\n"
    except ValueError:  # an int past 4,300 digits: write what a careless writer would
        return b'{"type":"user","n":' + b"9" * 4400 + b"}\n"


lines = st.lists(
    st.one_of(entries.map(line), st.sampled_from([b"not json\n", b"[]\n", b'{"type":"us', b"\xff\xfe\n", b"\n"])),
    max_size=12,
)

READS = [
    ("show", "--json"),
    ("events", "--json"),
    ("debug-agent", "--all", "--json"),
    ("plan", "--all", "--json"),
    ("info",),
    ("preprocess", "--stdout"),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(main=lines, agent=lines)
def test_every_read_command_survives_any_transcript(main: list[bytes], agent: list[bytes], tmp_path: Path):
    root = tmp_path / uuid.uuid4().hex / ".claude"
    project = root / "projects" / "-random"
    (project / "s-random" / "subagents").mkdir(parents=True)
    (project / "s-random.jsonl").write_bytes(b"".join(main))
    (project / "s-random" / "subagents" / "agent-arandom.jsonl").write_bytes(b"".join(agent))
    for read in READS:
        command = [*read, "s-random", "--claude-dir", str(root)]
        result = invoke(*command)
        assert_survived(command, result.exit_code, result.stdout_bytes, result.stderr)
    for command in (["sessions", "--all", "--json"], ["search", "e", "--all", "--json"]):
        result = invoke(*command, "--claude-dir", str(root))
        assert_survived(command, result.exit_code, result.stdout_bytes, result.stderr)
        assert result.exit_code == 0


def test_the_documented_exit_codes_leave_out_the_internal_error():
    assert 1 not in DOCUMENTED


@pytest.mark.parametrize("bad", NASTY_TEXT)
def test_each_nasty_text_as_a_whole_prompt_is_read(bad: str, tmp_path: Path):
    root = tmp_path / ".claude"
    project = root / "projects" / "-random"
    project.mkdir(parents=True)
    (project / "s-one.jsonl").write_bytes(line({"type": "user", "message": {"content": bad}}))
    result = invoke("show", "s-one", "--json", "--claude-dir", str(root))
    assert_survived(["show", "--json"], result.exit_code, result.stdout_bytes, result.stderr)
    assert result.exit_code == 0

"""Standing instructions are the person's lasting directions, in any language: never a pasted
log or document, a question, a description or an opinion that happens to hold "only" or
"don't"."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.memory import record
from session_kit.memory.capture import capture_file
from session_kit.memory.requests import constraints_in
from tests.support.transcripts import Transcript


@pytest.mark.parametrize(
    "said",
    [
        "To be clear: don't use ClMail for communication, use the builtin subagent teams.",
        "I don't want to make it only work for me or make assumptions about people's env.",
        "also we don't need to check for the existence of the file, let's just launch it.",
        "So I'd like to keep it the same 3 simple files, but add the features from the TODOs.",
        "We're not doing these complex path selections, just picking the latest one.",
        "Use a token bucket, not a sliding window.",
        "Please never push to main.",
        "Can you please refactor it while keeping it dependency free?",
        "不要修改 migrations 目录下的任何文件。",
        "提交之前必须运行 ruff",
        "main ブランチには絶対に push しないでください。",
    ],
)
def test_a_lasting_direction_is_a_standing_instruction(said: str) -> None:
    assert constraints_in(said) == [said]


@pytest.mark.parametrize(
    "said",
    [
        "Wait, does it only run on main?",
        "I don't think we need to loop through all items, the group names should match the filters?",
        "There's only a README.md and LICENSE there, please also fill in the readme",
        "They don't look that bad.",
        "Never mind!",
        "I actually don't like much this idea, and I somewhat struggled with it.",
        "I saw in passing that in case of BadZipFile we don't do anything (pass); wouldn't there be a way?",
        "要不要把这个文件删掉？",
        "这个测试为什么不能通过？",
        "<ide_selection>The user selected lines 1 to 2:\nNever commit secrets.\n</ide_selection>\nWhat does this do?",
    ],
)
def test_a_question_a_description_or_an_opinion_is_none(said: str) -> None:
    assert constraints_in(said) == []


def test_a_pasted_page_after_the_persons_words_gives_none() -> None:
    page = "\n".join(
        [
            "It is strongly recommended never to mutate a tool environment manually.",
            "The bin directory must be in the PATH variable for tool executables to be available.",
            "The --no-project flag is not needed — tools are always run isolated from the project.",
        ]
        * 12
    )
    said = "We need a cleaner way to reinstall. Don't delete the cache by hand. Does this doc page help?\n\n" + page
    assert constraints_in(said) == ["Don't delete the cache by hand."]


def test_an_instruction_in_chinese_is_kept_across_requests(tmp_path: Path) -> None:
    t = Transcript()
    t.user("把命令行改成 click")
    t.user("好的。不要修改 migrations 目录下的任何文件。")
    for n in range(8):
        t.user(f"下一步 {n}")
    memory = capture_file(str(t.write(tmp_path / "s.jsonl")), record.empty_memory(), keeps=lambda part: True)
    assert [c["text"] for c in memory["requests"]["constraints"]] == ["不要修改 migrations 目录下的任何文件。"]

"""The texts of entries read for the memory: requests, errors, exit codes, removed paths."""

from __future__ import annotations

from session_kit.memory.text import error_lines, exit_code_of, person_request, removed_paths


def test_an_exit_code_of_thousands_of_digits_is_no_number_and_no_crash():
    assert exit_code_of("Exit code 2\nls: x") == 2
    assert exit_code_of("Error: Exit code 127\n") == 127
    assert exit_code_of("Exit code " + "9" * 4300) is None


def test_pytest_output_keeps_the_lines_that_say_what_failed():
    out = "\n".join(
        ["Exit code 1", "===== test session starts =====", *[f"collected line {i}" for i in range(40)]]
        + [
            "E       AssertionError: expected 3, got 2",
            "FAILED tests/test_x.py::test_y - AssertionError",
            "1 failed in 0.1s",
        ]
    )
    lines = error_lines(out)
    assert "E       AssertionError: expected 3, got 2" in lines and "FAILED tests/test_x.py::test_y" in lines
    assert "collected line 0" not in lines


def test_output_without_error_words_keeps_its_last_lines():
    lines = error_lines("Exit code 3\n" + "\n".join(f"line {i}" for i in range(30)))
    assert lines.splitlines() == [f"line {i}" for i in range(24, 30)]


def test_the_error_text_is_bounded():
    assert len(error_lines("error " * 100_000)) <= 1201


def test_a_tool_use_error_loses_its_wrapper():
    assert error_lines("<tool_use_error>File does not exist.</tool_use_error>") == "File does not exist."


def test_removed_paths_only_from_plain_rm():
    assert removed_paths("rm -f a.txt b/c.txt") == ["a.txt", "b/c.txt"]
    assert removed_paths("git rm old.py") == ["old.py"]
    assert removed_paths("rm $(cat list)") == [] and removed_paths("ls && rm x") == [] and removed_paths("") == []


def test_a_request_from_a_content_list_drops_reminders_and_ide_tags():
    entry = {
        "type": "user",
        "message": {
            "content": [
                {"type": "text", "text": "<system-reminder>stuff</system-reminder>"},
                {"type": "text", "text": "<ide_selection>x = 1</ide_selection>What does this do?"},
            ]
        },
    }
    assert person_request(entry) == "What does this do?"
    assert person_request({**entry, "isMeta": True}) is None
    assert person_request({**entry, "promptSource": "system"}) is None

"""Each reduction step on its own: what it keeps and what it drops."""

from __future__ import annotations

import pytest

from session_kit.conversation import steps
from session_kit.conversation.steps import (
    DocDeduper,
    Reduction,
    SessionCheck,
    is_log_discovery,
    prune_output,
    shorten_path,
    truncate_param,
)

# --- pruning tool output --------------------------------------------------------------------


def test_short_output_is_kept_whole():
    text = "\n".join(f"line {i}" for i in range(30))
    pruned = prune_output(text)
    assert pruned.pieces == (text,) and pruned.omitted == 0 and pruned.lines == 30


def test_long_output_keeps_its_head_and_every_later_error_line():
    lines = [f"ok {i}" for i in range(100)]
    lines[50] = "ValueError: bad input"
    lines[51] = "  Traceback (most recent call last):"
    lines[80] = "WARNING: disk almost full"
    lines[99] = "3 FAILED, 2 passed"
    pruned = prune_output("\n".join(lines) + "\n")
    assert pruned.lines == 100
    kept = "\n".join(p for p in pruned.pieces if isinstance(p, str))
    assert kept.startswith("ok 0\nok 1") and "ok 29" in kept and "ok 30" not in kept
    for wanted in ("ValueError: bad input", "Traceback", "WARNING: disk", "3 FAILED"):
        assert wanted in kept
    gaps = [p for p in pruned.pieces if isinstance(p, int)]
    assert sum(gaps) == pruned.omitted == 100 - 30 - 4
    assert gaps == [20, 28, 18]  # lines 30-49, 52-79, 81-98


def test_omitted_tail_is_counted():
    text = "\n".join(["x"] * 40)
    pruned = prune_output(text)
    assert pruned.pieces[-1] == 10 and pruned.omitted == 10


def test_overlong_lines_are_cut_even_in_short_output():
    pruned = prune_output("a" * 2000 + "\nshort", line_limit=100)
    first = pruned.pieces[0]
    assert first.startswith("a" * 100 + "… [+1900 chars]") and first.endswith("\nshort")


def test_an_error_word_twice_on_one_line_keeps_the_line_once():
    text = "\n".join(["x"] * 30 + ["error error fatal", "y"])
    pruned = prune_output(text)
    assert pruned.pieces[1:] == ("error error fatal", 1)


# --- parameters -------------------------------------------------------------------------------


def test_short_parameters_are_untouched():
    assert truncate_param("command", "ls -la") == "ls -la"


def test_long_text_parameter_keeps_its_head():
    value = "x" * 500
    assert truncate_param("content", value) == "x" * 200 + "… [+300 chars]"


def test_long_path_keeps_its_first_two_and_last_two_segments():
    path = "/home/user/" + "/".join(f"dir{i}" for i in range(60)) + "/module/file.py"
    assert truncate_param("file_path", path) == "/home/user/…/module/file.py"
    assert shorten_path("a/b/c") == "a/b/c"
    assert shorten_path("C:\\Users\\me\\deep\\er\\file.txt") == "C:\\Users\\…\\er\\file.txt"


# --- log discovery ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "pwd",
        "ls ~/.claude/projects/",
        "ls -la /home/me/.claude/projects/-home-me-proj | head",
        'find "$HOME/.claude/projects" -name "*.jsonl" -newer x',
        "cd ~/.claude && ls projects",
        "ls $CLAUDE_CONFIG_DIR/projects",
        "ls /srv/claude-root/projects",
    ],
)
def test_log_discovery_commands(command: str):
    assert is_log_discovery("Bash", {"command": command}, roots=("/srv/claude-root",))


@pytest.mark.parametrize(
    "command",
    ["ls src/", "pwd && make", "cat ~/.claude/settings.json", "find . -name '*.py'", "git status", "echo pwd"],
)
def test_ordinary_commands_are_not_log_discovery(command: str):
    assert not is_log_discovery("Bash", {"command": command})


def test_glob_of_the_claude_root_is_log_discovery():
    assert is_log_discovery("Glob", {"pattern": "*.jsonl", "path": "/home/me/.claude/projects"})
    assert not is_log_discovery("Glob", {"pattern": "*.py", "path": "/home/me/src"})


# --- documentation blocks ---------------------------------------------------------------------


def test_a_repeated_long_block_points_at_its_first_line():
    docs = DocDeduper(min_chars=10)
    block = "# /deploy\nRun the deploy steps in order."
    assert docs.first_line(block, 5) is None
    assert docs.first_line(block, 40) == 5
    assert docs.first_line(block + "!", 41) is None
    assert docs.first_line("short", 42) is None and docs.first_line("short", 43) is None


# --- empty and warmup ---------------------------------------------------------------------------


def _check(entries: int, user: str | None, assistant: str | None) -> SessionCheck:
    check = SessionCheck()
    for _ in range(entries):
        check.saw_entry()
    if user is not None:
        check.saw_user_text(user)
    if assistant is not None:
        check.saw_assistant_text(assistant)
    return check


def test_session_verdicts():
    assert _check(5, "Fix the bug", "Done.").verdict() == ("ok", None)
    assert _check(2, "Fix the bug", "Done.").verdict() == ("ok", None)  # a one-shot `claude -p` run
    assert _check(5, None, "Done.").verdict() == ("ok", None)
    assert _check(5, "Fix it", None).verdict() == ("ok", None)
    assert _check(0, None, None).verdict() == ("empty", "no conversation")
    assert _check(3, None, None).verdict() == ("empty", "no conversation")  # client commands alone
    assert _check(5, "Warmup", "Ready.").verdict()[0] == "warmup"
    assert _check(5, "Fix the warmup script", "Done.").verdict() == ("ok", None)


def test_agent_verdicts_accept_a_prompt_and_a_report():
    assert _check(2, "Find the file", "Found.").verdict(agent=True) == ("ok", None)
    assert _check(0, None, None).verdict(agent=True)[0] == "empty"
    assert _check(2, "Warmup", "ok").verdict(agent=True)[0] == "warmup"


# --- the tally ----------------------------------------------------------------------------------


def test_reduction_balances_in_out_and_steps():
    reduction = Reduction(input_chars=1000, output_chars=100)
    reduction.count(steps.STEP_NOISE, 700, 7)
    reduction.count(steps.STEP_PRUNE_RESULTS, 150)
    data = reduction.as_dict()
    assert data["conversion"] == 1000 - 100 - 700 - 150
    assert [s["step"] for s in data["steps"]] == list(steps.STEPS)
    assert {"step": "noise", "entries": 7, "chars": 700} in data["steps"]
    assert "noise -700" in reduction.describe()


# --- error blocks: a traceback's frames are kept with it -------------------------------------


def _kept(lines: list[str]) -> str:
    pruned = prune_output("\n".join(lines) + "\n")
    return "\n".join(p for p in pruned.pieces if isinstance(p, str))


FILLER = [f"collected item {i}" for i in range(40)]


def test_a_python_traceback_keeps_every_frame_between_traceback_and_the_exception():
    block = [
        "Traceback (most recent call last):",
        '  File "/work/app/main.py", line 12, in <module>',
        "    run()",
        '  File "/work/app/core.py", line 40, in run',
        "    parse(data)",
        "ValueError: bad input",
    ]
    kept = _kept([*FILLER, *block, *FILLER])
    assert "\n".join(block) in kept


def test_a_node_stack_keeps_its_at_lines():
    block = [
        "TypeError: x is not a function",
        "    at run (/app/index.js:3:5)",
        "    at Object.<anonymous> (/app/index.js:9:1)",
    ]
    assert "\n".join(block) in _kept([*FILLER, *block, *FILLER])


def test_a_java_stack_keeps_its_at_and_caused_by_lines():
    block = [
        'Exception in thread "main" java.lang.IllegalStateException: boom',
        "\tat com.example.App.run(App.java:10)",
        "\tat com.example.App.main(App.java:5)",
        "Caused by: java.io.IOException: disk",
        "\tat com.example.Io.read(Io.java:7)",
        "\t... 2 more",
    ]
    assert "\n".join(block) in _kept([*FILLER, *block, *FILLER])


def test_a_go_panic_keeps_its_goroutine_frames():
    block = [
        "panic: runtime error: index out of range [3] with length 3",
        "",
        "goroutine 1 [running]:",
        "main.lookup(...)",
        "\t/work/app/main.go:12 +0x1d",
        "main.main()",
        "\t/work/app/main.go:7 +0x25",
    ]
    assert "\n".join(block) in _kept([*FILLER, *block, *FILLER])


def test_a_rust_panic_keeps_its_backtrace():
    block = [
        "thread 'main' panicked at src/main.rs:4:5:",
        "attempt to divide by zero",
        "stack backtrace:",
        "   0: rust_begin_unwind",
        "   1: app::main",
        "             at ./src/main.rs:4:5",
        "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.",
    ]
    assert "\n".join(block) in _kept([*FILLER, *block, *FILLER])


def test_a_very_deep_traceback_is_kept_bounded_with_its_head_and_its_innermost_frames():
    frames = [f'  File "/work/app/rec.py", line {i}, in f\n    f()' for i in range(1000)]
    block = ["Traceback (most recent call last):", *"\n".join(frames).split("\n"), "RecursionError: too deep"]
    pruned = prune_output("\n".join([*FILLER, *block, *FILLER]) + "\n")
    kept = "\n".join(p for p in pruned.pieces if isinstance(p, str))
    assert kept.count('File "/work/app/rec.py"') <= steps.ERROR_BLOCK_LINES
    assert "Traceback (most recent call last):" in kept and "line 999, in f\n    f()\nRecursionError" in kept


def test_the_reduction_line_adds_up_with_the_conversion_and_says_added_characters_plainly():
    reduction = Reduction(input_chars=1000, output_chars=300)
    reduction.count(steps.STEP_NOISE, 700, 7)
    reduction.count(steps.STEP_REDACTION, -120)  # markers longer than the secrets they replace
    line = reduction.describe()
    assert "--" not in line and "redaction +120" in line and "conversion -120" in line
    assert 1000 - 700 + 120 - 120 == 300

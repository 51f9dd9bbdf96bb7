"""`session-kit budget`: where a session stands against its budget, `--raise` and `--off` for
that session, and bad input as one line with exit 2."""

from __future__ import annotations

from pathlib import Path

from tests.hooks.test_session_budget import SID, session_with
from tests.support.cli import invoke, invoke_json


def test_without_a_budget_it_says_where_one_is_set_and_what_was_spent(claude_root: Path, isolated_home: Path):
    session_with(claude_root, 2)
    out = invoke("budget", SID).stdout
    assert out.startswith(f"Session {SID}: no budget set (SESSION_KIT_SESSION_BUDGET or session.budget")
    assert "it has spent $2.60 (2.42M tokens)." in out


def test_with_a_budget_it_says_the_share_spent_in_one_sentence(claude_root: Path, isolated_home: Path):
    session_with(claude_root, 2)
    out = invoke("budget", SID, env={"SESSION_KIT_SESSION_BUDGET": "$5"}).stdout
    assert out == f"Session {SID} has spent $2.60 (2.42M tokens), 52% of its budget of $5.00; it is under its budget.\n"


def test_its_json_names_the_budget_the_raise_and_the_spend(claude_root: Path, isolated_home: Path):
    session_with(claude_root, 4)
    env = {"SESSION_KIT_SESSION_BUDGET": "$5"}
    assert invoke_json("budget", SID, env=env)["over"] is True
    report = invoke_json("budget", SID, "--raise", "$1.50", env=env)
    assert report["budget"] == {"amount": 6.5, "unit": "usd", "text": "$6.50"}
    assert report["set"]["text"] == "$5.00" and report["raised"]["text"] == "$1.50"
    assert report["spent_usd"] == 5.2 and report["over"] is False and round(report["share"], 2) == 0.8
    again = invoke_json("budget", SID, "--raise", "$1", env=env)
    assert again["raised"]["text"] == "$2.50"  # raises add up


def test_bad_input_is_one_line_and_exit_2(claude_root: Path, isolated_home: Path):
    session_with(claude_root, 1)
    for args, env, message in [
        (("--raise", "$2"), {}, "no budget per session is set"),
        (("--raise", "500k"), {"SESSION_KIT_SESSION_BUDGET": "$5"}, "the budget is in dollars: raise it by dollars"),
        (("--raise", "lots"), {"SESSION_KIT_SESSION_BUDGET": "$5"}, "--raise = 'lots' is no budget"),
        (("--raise", "$2", "--off"), {"SESSION_KIT_SESSION_BUDGET": "$5"}, "--raise and --off go alone"),
    ]:
        result = invoke("budget", SID, *args, env=env)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1

"""The secret guard (`hooks.guard`) as Claude Code runs it: `python -I -S run.py post-tool-use`,
the PostToolUse event on stdin, its answer on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import session_kit
from session_kit.hooks.guard import SCAN_LIMIT
from session_kit.redaction import screen
from session_kit.redaction.engine import redact
from tests.support import access_secrets, generic_secrets
from tests.support.secret_probes import PLACEMENTS, probes

RUN = Path(session_kit.__file__).parent / "hooks" / "run.py"
REPO = Path(__file__).resolve().parents[2]
AWS = "AKIAIOSFODNN7Q7ZK2MX"
GITHUB = "ghp_" + "Zk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aSqwer"
DB_PASSWORD = "hunter2-Tr0ub4dor"
DB_URL = f"postgres://app:{DB_PASSWORD}@db.internal:5432/orders"
ENV_FILE_TEXT = f"AWS_ACCESS_KEY_ID={AWS}\nGITHUB_TOKEN={GITHUB}\nDATABASE_URL={DB_URL}\n"


def event(output: object, *, tool: str = "Bash") -> dict:
    return {
        "session_id": "5e551011-0000-4000-8000-000000000031",
        "transcript_path": "/nonexistent/t.jsonl",
        "cwd": "/work/proj",
        "hook_event_name": "PostToolUse",
        "tool_name": tool,
        "tool_input": {"command": "cat .env"},
        "tool_response": output,
    }


def guard(payload: object, *, env: dict[str, str] | None = None, raw: bytes | None = None):
    data = raw if raw is not None else json.dumps(payload).encode()
    proc = subprocess.run(
        [sys.executable, "-I", "-S", str(RUN), "post-tool-use"],
        input=data,
        capture_output=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )
    assert proc.returncode == 0
    return proc


def answer(proc: subprocess.CompletedProcess[bytes]) -> dict:
    return json.loads(proc.stdout)


@pytest.fixture(autouse=True)
def _home(isolated_home: Path) -> None:
    pass


def hook_log() -> str:
    path = Path(os.environ["SESSION_KIT_HOME"]) / "logs" / "hooks.log"
    return path.read_text() if path.exists() else ""


def test_bash_output_keeps_its_keys_and_loses_its_secrets():
    bash = {"stdout": ENV_FILE_TEXT, "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    out = answer(guard(event(bash)))
    updated = out["hookSpecificOutput"]["updatedToolOutput"]
    assert out["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    assert list(updated) == list(bash)
    assert {k: v for k, v in updated.items() if k != "stdout"} == {k: v for k, v in bash.items() if k != "stdout"}
    assert updated["stdout"] == (
        "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\nGITHUB_TOKEN=[REDACTED:github-token]\n"
        "DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/orders\n"
    )
    assert out["systemMessage"] == (
        "session-kit: 3 secrets kept out of the conversation: AWS access key, GitHub token, URL password"
    )
    assert "updatedMCPToolOutput" not in out["hookSpecificOutput"]


def test_a_string_output_stays_a_string():
    out = answer(guard(event(f"token in the log: {GITHUB}\n", tool="Read")))
    assert out["hookSpecificOutput"]["updatedToolOutput"] == "token in the log: [REDACTED:github-token]\n"
    assert out["systemMessage"] == "session-kit: 1 secret kept out of the conversation: GitHub token"


def test_secrets_in_nested_lists_and_objects_are_replaced_where_they_stand():
    output = {"file": {"filePath": "/p/.env", "lines": [f"a {AWS}", 3, None, {"k": DB_URL}]}, "type": "text"}
    updated = answer(guard(event(output, tool="Read")))["hookSpecificOutput"]["updatedToolOutput"]
    assert updated == {
        "file": {
            "filePath": "/p/.env",
            "lines": [
                "a [REDACTED:aws-access-key]",
                3,
                None,
                {"k": DB_URL.replace(DB_PASSWORD, "[REDACTED:url-password]")},
            ],
        },
        "type": "text",
    }


def test_an_mcp_tools_output_is_also_given_as_the_older_clients_mcp_field():
    out = answer(guard(event([{"type": "text", "text": ENV_FILE_TEXT}], tool="mcp__files__read")))
    specific = out["hookSpecificOutput"]
    assert specific["updatedMCPToolOutput"] == specific["updatedToolOutput"]
    assert AWS not in json.dumps(specific)


@pytest.mark.parametrize(
    "output",
    [
        "total 8\ndrwxr-xr-x 2 me me 4096 Jan  1 00:00 src\n",  # no needle at all
        "password: string  # the type, no value\napi docs: https://example.com/api\n",  # needles, no secret
        {"stdout": "12 passed in 0.4s", "stderr": "", "interrupted": False, "isImage": False},
        "",
        42,
        None,
    ],
)
def test_an_output_without_secrets_gets_no_answer_at_all(output: object):
    proc = guard(event(output))
    assert proc.stdout == b"" and proc.stderr == b""


def test_the_plugins_hook_does_nothing_while_its_option_is_off():
    plugin = {"CLAUDE_PLUGIN_ROOT": str(REPO), "CLAUDE_PLUGIN_OPTION_GUARD_SECRETS": "false"}
    assert guard(event(ENV_FILE_TEXT), env=plugin).stdout == b""
    unset = {"CLAUDE_PLUGIN_ROOT": str(REPO)}
    assert guard(event(ENV_FILE_TEXT), env=unset).stdout == b""


def test_the_plugins_hook_guards_when_its_option_is_on():
    plugin = {"CLAUDE_PLUGIN_ROOT": str(REPO), "CLAUDE_PLUGIN_OPTION_GUARD_SECRETS": "true"}
    updated = answer(guard(event(ENV_FILE_TEXT), env=plugin))["hookSpecificOutput"]["updatedToolOutput"]
    assert updated == redact(ENV_FILE_TEXT) != ENV_FILE_TEXT


def test_the_plugins_run_hook_starts_no_interpreter_while_the_option_is_off():
    env = {**os.environ, "CLAUDE_PLUGIN_ROOT": str(REPO), "SESSION_KIT_PYTHON": "/nonexistent/python3"}
    data = json.dumps(event(ENV_FILE_TEXT)).encode()
    off = subprocess.run([str(REPO / "hooks" / "run-hook"), "post-tool-use"], input=data, capture_output=True, env=env)
    assert (off.returncode, off.stdout, off.stderr) == (0, b"", b"")
    env["CLAUDE_PLUGIN_OPTION_GUARD_SECRETS"] = "true"  # now it tries, and says the interpreter is missing
    on = subprocess.run([str(REPO / "hooks" / "run-hook"), "post-tool-use"], input=data, capture_output=True, env=env)
    assert on.returncode == 0 and b"/nonexistent/python3" in on.stderr


def test_an_event_without_a_tool_response_is_left_alone_and_logged():
    payload = event("x")
    del payload["tool_response"]
    proc = guard(payload)
    assert proc.stdout == b""
    assert "no tool_response in the event of Bash" in hook_log()


def test_an_event_that_is_not_json_is_left_alone_logged_and_named_on_stderr():
    proc = guard(None, raw=b'{"tool_response": "AKIAIOSFODNN7Q7ZK2MX", ')
    assert proc.stdout == b""
    assert b"session-kit hook post-tool-use: HookInputError" in proc.stderr
    assert "stdin is not JSON" in hook_log()


def test_past_the_scan_bound_the_output_goes_through_as_it_was_and_the_notice_says_so():
    filler = "x" * (SCAN_LIMIT - 100)
    output = {"stdout": filler + f" {AWS} " + "y" * 200 + f" {GITHUB}", "stderr": f"late {GITHUB}"}
    out = answer(guard(event(output)))
    updated = out["hookSpecificOutput"]["updatedToolOutput"]
    assert AWS not in updated["stdout"] and "[REDACTED:aws-access-key]" in updated["stdout"]
    assert updated["stdout"].endswith(GITHUB) and updated["stderr"] == f"late {GITHUB}"
    skipped = len(output["stdout"]) - SCAN_LIMIT + len(output["stderr"])
    assert out["systemMessage"] == (
        "session-kit: 1 secret kept out of the conversation: AWS access key; only the first 2 MB of the "
        f"tool's output were checked for secrets; the other {skipped:,} characters went through as they were"
    )


def test_a_long_output_with_nothing_found_says_only_that_the_rest_went_unchecked():
    out = answer(guard(event("z" * (SCAN_LIMIT + 10))))
    assert "hookSpecificOutput" not in out
    assert out["systemMessage"].startswith("session-kit: only the first 2 MB of the tool's output were checked")


# --- the screen: a copy of the redactor's anchors, current and never missing a secret --------


def test_the_screens_copy_of_the_redactors_anchors_is_current():
    source = Path(screen.__file__).read_text()
    assert screen.module_text(source) == source, "run: python -m session_kit.redaction.screen"


def test_the_screen_flags_every_text_the_redactor_changes():
    texts = [placement.wrap(probe.line) for probe in probes() for placement in PLACEMENTS]
    changed = [text for text in texts if redact(text) != text]
    assert len(changed) > 2000
    assert [text for text in changed if not screen.may_hold_secret(text)] == []


def test_the_screen_flags_every_secret_the_rules_found_by_a_scan_catch():
    # `.pgpass` lines and keys with a prefix no rule names are found by a scan, not an anchor
    texts = [wrap(probe.line) for probe in generic_secrets.generic() for _, wrap in generic_secrets.PLACEMENTS]
    changed = [text for text in texts if redact(text) != text]
    assert len(changed) > 500
    assert [text for text in changed if not screen.may_hold_secret(text)] == []


def test_the_screen_flags_every_secret_that_grants_access_by_being_shown():
    texts = [wrap(probe.line) for probe in access_secrets.access() for _, wrap in access_secrets.PLACEMENTS]
    changed = [text for text in texts if redact(text) != text]
    assert len(changed) > 300
    assert [text for text in changed if not screen.may_hold_secret(text)] == []


def test_the_screen_flags_a_needle_hidden_among_distinct_words_and_numbers():
    # the screen looks for the needles among the text's distinct words (digits made `0`): a
    # needle inside a long run, after many repeated lines, or beside digits is still seen
    lines = "".join(f"[{n:05d}] compiling module_{n}.c -> build/obj/module_{n}.o (ok)\n" for n in range(2000))
    for secret in (
        "token=Zk3j9dQ2mZp8vR7tY1uW",
        "AKIAIOSFODNN7Q7ZK2MX",
        "-" * 70 + "ghp_BenchZk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS",
        "db.internal:5432:app:app_user:Xk29fLq0pWz",
        "zk_live_Qm3vX9kLp2Rt7YwZ4nB8cD1e",
    ):
        for text in (lines + secret + "\n" + lines, secret + "\n" + lines, lines + secret):
            assert redact(text) != text
            assert screen.may_hold_secret(text), secret


def test_the_screen_passes_plain_output_without_loading_the_redactor():
    assert not screen.may_hold_secret("total 8\ndrwxr-xr-x 2 me me 4096 Jan  1 00:00 src\n")
    code = (
        f"import sys; sys.path.insert(0, {str(Path(session_kit.__file__).parents[1])!r}); "
        "import session_kit.hooks.guard as g; from session_kit.hooks.hookio import HookEvent; "
        "event = HookEvent({'tool_name': 'Bash', 'tool_response': {'stdout': 'ok', 'stderr': ''}}); "
        "g.post_tool_use(event, {}, '/nonexistent'); "
        "print('re' in sys.modules, 'session_kit.redaction.engine' in sys.modules)"
    )
    loaded = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.split() == ["False", "False"]


def test_the_redactor_the_guard_loads_imports_neither_dataclasses_nor_typing():
    code = (
        f"import sys; sys.path.insert(0, {str(Path(session_kit.__file__).parents[1])!r}); "
        "import session_kit.hooks.guard, session_kit.redaction.engine; "
        "print(sorted({'dataclasses', 'typing', 'inspect'} & set(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("command", "printed"),
    [
        (
            "kubectl get secret grafana -o jsonpath='{.data.admin-password}' | base64 -d",
            "93e6kWaRoJcUSfznoHdwXZWl4SEPl8JM",
        ),
        ("argocd admin initial-password -n argocd", "jw3CCds0XB3gO7GI"),
        ("op read op://Engineering/prod-db/password", "5B-uzfN-M7M6XHD0rh.L"),
        ("aws ecr get-login-password --region us-east-1", "eyJwYXlsb2FkIjoieW4rZjFlQmo0STNvUjhHYVJ2eW5TbU9SRTRK"),
    ],
)
def test_a_value_a_command_prints_is_redacted_with_the_command_as_its_context(command: str, printed: str):
    payload = event({"stdout": f"{printed}\n", "stderr": "", "interrupted": False}) | {
        "tool_input": {"command": command}
    }
    out = answer(guard(payload))
    assert printed not in json.dumps(out["hookSpecificOutput"]["updatedToolOutput"])
    assert "secret" in out["systemMessage"]

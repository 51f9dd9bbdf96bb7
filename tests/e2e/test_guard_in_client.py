"""The secret guard in the real client (`session-kit install --guard-secrets`).

The scripted model asks for a Bash `cat` of a file holding an AWS access key, a GitHub token
and a database URL with a password. With the guard on, the next request the API receives
holds none of them and holds the kit's placeholders; the person is told in one line (the
hook's `systemMessage`, on the stream-json output); the flow is otherwise the same (the tool
call succeeds, the model's next turn ends the run). With the guard off the output reaches
the model as the tool printed it. What the transcript keeps after a replacement is checked
too, and written in docs/how-to/secrets.md and docs/reference/hooks.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .client import Claude, ClaudeRun
from .fake_api import FakeMessagesAPI, Script, bash
from .routes import REPO, make_home

AWS = "AKIAIOSFODNN7E2EGARD"
GITHUB = "ghp_" + "E2eGuardZk3j9dQ2mZp8vR7tY1uW4eN6bH0c"
DB_PASSWORD = "hunter2-Tr0ub4dorGuard"
SECRETS = (AWS, GITHUB, DB_PASSWORD)
ENV_FILE = f"AWS_ACCESS_KEY_ID={AWS}\nGITHUB_TOKEN={GITHUB}\nDATABASE_URL=postgres://app:{DB_PASSWORD}@db.internal:5432/orders\n"
PLACEHOLDERS = ("[REDACTED:aws-access-key]", "[REDACTED:github-token]", "[REDACTED:url-password]")
NOTICE = "session-kit: 3 secrets kept out of the conversation: AWS access key, GitHub token, URL password"
STREAM = ["--output-format", "stream-json", "--verbose"]


PLAIN = "total 3 files\nall tests green\n"


def script() -> Script:
    return Script(
        main={
            "GUARD-START": [[bash("cat secrets.env")], "GUARD-DONE"],
            "PLAIN-START": [[bash("cat plain.txt")], "PLAIN-DONE"],
        }
    )


def kit_install(home, *args: str) -> None:
    env = {**home.env(), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    done = subprocess.run(
        [sys.executable, "-m", "session_kit", "install", *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


class Guarded:
    def __init__(self, claude: Claude, project: Path, home) -> None:
        self.claude, self.project, self.home = claude, project, home

    def run(self, prompt: str = "GUARD-START: show me the env file", *, plugin: bool = False) -> tuple[ClaudeRun, dict]:
        """A new session: the run, and the main conversation's request carrying the tool's result."""
        start = len(self.claude.fake.exchanges)
        run = self.claude.run(prompt, args=STREAM, timeout=300, plugin_dirs=(REPO,) if plugin else ())
        found = [e for e in self.claude.fake.exchanges[start:] if e.conversation == "main" and e.turn == 1]
        assert found, self.claude.fake.log_tail()
        return run, found[0]


@pytest.fixture(scope="module")
def client(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Guarded]:
    home, project = make_home(tmp_path_factory.mktemp("guard"))
    (project / "secrets.env").write_text(ENV_FILE)
    (project / "plain.txt").write_text(PLAIN)
    with FakeMessagesAPI(script()) as fake:
        yield Guarded(Claude(claude_binary, home, fake, cwd=project), project, home)


def _events(run: ClaudeRun) -> list[dict]:
    out = []
    for line in run.stdout.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue
    return out


def _tool_result(request) -> dict:
    [block] = [b for b in request.messages[-1]["content"] if b.get("type") == "tool_result"]
    return block


def _notices(run: ClaudeRun) -> list[str]:
    """What the client showed the person from hooks' `systemMessage` (stream-json)."""
    return [e["content"] for e in _events(run) if e.get("type") == "system" and e.get("subtype") == "informational"]


def _transcript(run: ClaudeRun) -> list[dict]:
    assert run.transcript_path is not None
    return [json.loads(line) for line in run.transcript_path.read_text().splitlines() if line.strip()]


def test_with_the_guard_on_the_next_request_holds_the_placeholders_and_none_of_the_secrets(client: Guarded):
    kit_install(client.home, "--guard-secrets")
    run, request = client.run()
    sent = request.text()
    assert [secret for secret in SECRETS if secret in sent] == []
    assert [p for p in PLACEHOLDERS if p not in _tool_result(request)["content"]] == []
    assert _tool_result(request)["content"] == (
        "AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]\nGITHUB_TOKEN=[REDACTED:github-token]\n"
        "DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/orders"
    )
    # The flow is otherwise the same: the call succeeded, and the model's next turn ended the run.
    assert _tool_result(request)["is_error"] is False
    assert run.result is not None and run.result.get("result") == "GUARD-DONE"
    # The person is told in one line, as the client shows a hook's systemMessage.
    assert _notices(run) == [f"PostToolUse:Bash says: {NOTICE}"]
    assert not [e for e in client.claude.fake.exchanges if any(s in e.text() for s in SECRETS)]


def test_the_transcript_keeps_the_replaced_output_and_never_the_original(client: Guarded):
    kit_install(client.home, "--guard-secrets")
    run, _ = client.run()
    raw = run.transcript_path.read_text()
    assert [secret for secret in SECRETS if secret in raw] == []
    entries = _transcript(run)
    [result] = [e for e in entries if e.get("type") == "user" and "toolUseResult" in e]
    assert result["toolUseResult"]["stdout"] == _tool_result_text(result)
    assert [p for p in PLACEHOLDERS if p not in result["toolUseResult"]["stdout"]] == []
    assert set(result["toolUseResult"]) >= {"stdout", "stderr", "interrupted", "isImage"}
    notices = [e["attachment"] for e in entries if (e.get("attachment") or {}).get("type") == "hook_system_message"]
    assert [(n["hookEvent"], n["content"]) for n in notices] == [("PostToolUse", NOTICE)]


def _tool_result_text(entry: dict) -> str:
    [block] = [b for b in entry["message"]["content"] if b.get("type") == "tool_result"]
    return block["content"]


def test_with_nothing_to_redact_the_guard_changes_nothing(client: Guarded):
    kit_install(client.home, "--guard-secrets")
    run, request = client.run("PLAIN-START: show me the plain file")
    assert _tool_result(request)["content"] == PLAIN.rstrip("\n")
    assert _notices(run) == []
    assert run.result is not None and run.result.get("result") == "PLAIN-DONE"


def test_with_the_guard_off_the_output_reaches_the_model_as_the_tool_printed_it(client: Guarded):
    kit_install(client.home, "--no-guard-secrets")
    run, request = client.run()
    assert _tool_result(request)["content"] == ENV_FILE.rstrip("\n")
    assert _notices(run) == []
    assert run.result is not None and run.result.get("result") == "GUARD-DONE"


def _plugin_option(client: Guarded, on: bool | None) -> None:
    """The plugin's `guard_secrets` option as the client keeps it (`pluginConfigs`; a plugin
    given with --plugin-dir is `<name>@inline`), the installed hooks taken out."""
    env = {**client.home.env(), "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    subprocess.run([sys.executable, "-m", "session_kit", "uninstall"], capture_output=True, env=env, check=True)
    path = client.home.config_dir / "settings.json"
    settings = json.loads(path.read_text()) if path.exists() else {}
    settings.pop("pluginConfigs", None)
    if on is not None:
        settings["pluginConfigs"] = {"session-kit@inline": {"options": {"guard_secrets": on}}}
    path.write_text(json.dumps(settings))


def test_the_plugin_guards_when_its_option_is_on(client: Guarded):
    _plugin_option(client, True)
    run, request = client.run(plugin=True)
    assert [secret for secret in SECRETS if secret in request.text()] == []
    assert [p for p in PLACEHOLDERS if p not in _tool_result(request)["content"]] == []
    assert _notices(run) == [f"PostToolUse:Bash says: {NOTICE}"]


def test_the_plugin_leaves_output_alone_while_its_option_is_unset(client: Guarded):
    _plugin_option(client, None)
    run, request = client.run(plugin=True)
    assert _tool_result(request)["content"] == ENV_FILE.rstrip("\n")
    assert _notices(run) == []

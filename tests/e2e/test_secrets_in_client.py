"""No secret of a session is printed by the kit, in the real client (`--plugin-dir` route).

In a scripted session a Bash call prints an Anthropic key and an AWS secret key (the
credentials file's shape) and fails, and a subagent's Bash call does the same. The text
outputs cut errors after 100 characters or so: inside the AWS secret, whose head must not
show either. Then the
text the kit's `!` lines put into the prompt (`/debug-agent`, `/session-info`) and the CLI's
`show`, `events` and `debug-agent` on the transcript the client wrote carry neither; with
`--no-redact` the CLI shows them (so the test would see a leak).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.secret_probes import leaked

from .fake_api import Script, agent, bash
from .routes import Route, plugin_route

ANTHROPIC_KEY = "sk-ant-api03-E2eK3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aSqwertyuiopASDFGH12zxcvbnm-AA"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY9E2ETESTKE"  # 40 characters, as AWS writes them
CREDENTIALS = f"[default]\\naws_access_key_id = AKIAIOSFODNN7E2ETEST\\naws_secret_access_key = {AWS_SECRET}\\n"
SECRETS = (ANTHROPIC_KEY, AWS_SECRET)


def script() -> Script:
    return Script(
        main={
            "LEAKY-START": [
                [bash(f"printf '{CREDENTIALS}'; echo {ANTHROPIC_KEY}; exit 1")],
                [agent("general-purpose", "LEAKY-WORKER: deploy", description="Deploy", background=False)],
                "Done.",
            ]
        },
        agents={
            "LEAKY-WORKER": [
                [bash(f"printf '{CREDENTIALS}'; echo {ANTHROPIC_KEY} >&2; exit 3")],
                "Deploy failed.",
            ]
        },
    )


@pytest.fixture(scope="module")
def route(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with plugin_route(claude_binary, tmp_path_factory.mktemp("secrets-plugin"), script()) as route:
        run = route.run("LEAKY-START: show the credentials, then deploy with a worker")
        route.session_id = run.session_id
        route.transcript = run.transcript_path
        yield route


def _kit(route: Route, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "session_kit", *args, "--claude-dir", str(route.home.config_dir)],
        capture_output=True,
        text=True,
        timeout=60,
        # The Python environment, not the process's: a COLUMNS the developer exported is only in
        # the latter (tests/conftest.py removes it), and a width would fit the text outputs to it.
        env=dict(os.environ),
    )
    assert out.returncode == 0, out.stderr
    return out.stdout + out.stderr


def _slash_prompt(route: Route, name: str) -> str:
    """What the kit's `!` line put into the prompt: the last human text of the request."""
    before = len(route.fake.exchanges)
    route.run(route.command(name), resume=route.session_id)
    texts = [e.last_human_text for e in route.fake.exchanges[before:] if e.conversation == "main"]
    assert texts, route.fake.log_tail()
    return texts[-1]


def test_the_session_really_holds_the_secrets(route: Route):
    written = route.transcript.read_text()
    assert ANTHROPIC_KEY in written and AWS_SECRET in written


@pytest.mark.parametrize("name", ["debug-agent", "session-info"])
def test_slash_commands_put_no_secret_into_the_prompt(route: Route, name: str):
    sent = _slash_prompt(route, name)
    assert f"Session {route.session_id}" in sent  # the kit's output did arrive
    assert [s for s in SECRETS if leaked(s, sent)] == []
    if name == "debug-agent":
        assert "[REDACTED:anthropic-api-key]" in sent and "[REDACTED:aws-secret-key]" in sent


@pytest.mark.parametrize(
    "args",
    [
        ["show"],
        ["show", "--json"],
        ["events"],
        ["events", "--json"],
        ["debug-agent", "--all"],
        ["search", "aws_secret"],
    ],
    ids=" ".join,
)
def test_the_cli_on_the_clients_transcript_prints_no_secret(route: Route, args: list[str]):
    target = [] if args[0] == "search" else [str(route.transcript)]
    scope = ["--all"] if args[0] == "search" else []
    out = _kit(route, args[0], *target, *args[1:], *scope)
    assert [s for s in SECRETS if leaked(s, out)] == []
    assert "[REDACTED:" in out
    shown = _kit(route, args[0], *target, *args[1:], *scope, "--no-redact")
    assert [s for s in SECRETS if leaked(s, shown)] != []

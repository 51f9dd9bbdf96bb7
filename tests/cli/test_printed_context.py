"""A value a command prints (`kubectl … | base64 -d`, `argocd admin initial-password`) is a
secret only with its command as context: every path that shows, stores or reports a Bash
output reads it after its call's command (`redaction.printed`), as the guard does."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.support.cli import invoke
from tests.support.transcripts import Transcript

SID = "5ec2e700-0000-4000-8000-0000000c0a7e"
PRINTED = [
    ("kubectl get secret grafana -o jsonpath='{.data.admin-password}' | base64 -d", "93e6kWaRoJcUSfznoHdwXZWl4SEPl8JM"),
    ("argocd admin initial-password -n argocd", "jw3CCds0XB3gO7GI"),
    ("op read op://Engineering/prod-db/password", "5B-uzfN-M7M6XHD0rh.L"),
    ("aws ecr get-login-password --region us-east-1", "eyJwYXlsb2FkIjoieW4rZjFlQmo0STNvUjhHYVJ2eW5TbU9SRTRK"),
]
VALUES = [value for _, value in PRINTED]


@pytest.fixture
def root(claude_root: Path) -> Path:
    t = Transcript(SID, cwd="/work/printed")
    t.user("get me the deploy passwords")
    for command, value in PRINTED:
        t.bash(command, f"{value}\nprinted by the vault\n")
    t.bash("echo done", "done\n")
    t.say("Done.")
    t.write_session(claude_root)
    return claude_root


COMMANDS = [
    ("preprocess", SID, "--stdout"),
    ("preprocess", SID, "--stdout", "--no-filtering"),
    ("view", SID, "--format", "md", "-o", "-"),
    ("search", "vault", "--all", "--json"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_no_path_shows_a_value_its_command_printed(root: Path, args):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    assert [v for v in VALUES if v in result.stdout] == []
    assert "[REDACTED:" in result.stdout


def test_secrets_finds_each_printed_value_and_scrub_takes_it_out(root: Path):
    found = invoke("secrets", "--all", "--json")
    assert found.exit_code == 8, found.output  # secrets found
    assert [v for v in VALUES if v in found.stdout] == []
    transcript = next((root / "projects").rglob(f"{SID}.jsonl"))
    hits = json.loads(found.stdout)["hits"]
    assert sorted(h["line"] for h in hits) == [3, 5, 7, 9]  # each result line, nothing else
    for path in root.rglob("*"):
        os.utime(path, (1_700_000_000, 1_700_000_000))  # a session written long ago: not running
    scrubbed = invoke("secrets", "--all", "--scrub", "--client")
    assert scrubbed.exit_code == 0, scrubbed.output
    text = transcript.read_text()
    assert [v for v in VALUES if v in text] == []
    assert "argocd admin initial-password" in text

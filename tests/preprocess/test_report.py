"""The report `preprocess_session` returns carries transcript text (an agent's description):
redacted whenever the documents are, as written when they are not."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.preprocess import PreprocessOptions, preprocess_session
from session_kit.sessions.store import session_ref_from_path
from tests.support.secret_probes import leaked
from tests.support.sessions import GITHUB_TOKEN, build_leaky

SID = "5ec2e700-aaaa-bbbb-cccc-ddddeeeeffff"


def _report(root: Path, tmp_path: Path, **options) -> dict:
    built = build_leaky(root)
    path = next((root / "projects").rglob(f"{SID}.jsonl"))
    result = preprocess_session(session_ref_from_path(path), PreprocessOptions(output_dir=tmp_path / "out", **options))
    assert result.ok
    report = result.as_dict()
    report["secrets"] = built.secrets
    return report


def test_the_report_of_a_redacted_run_holds_no_secret(claude_root: Path, tmp_path: Path):
    report = _report(claude_root, tmp_path)
    secrets = report.pop("secrets")
    [agent] = report["agents"]
    assert agent["description"] == "Push with [REDACTED:github-token]"
    text = json.dumps(report)
    assert [s for s in secrets if leaked(s, text)] == []


def test_the_report_of_an_unredacted_run_shows_the_description_as_written(claude_root: Path, tmp_path: Path):
    [agent] = _report(claude_root, tmp_path, redact=False)["agents"]
    assert agent["description"] == f"Push with {GITHUB_TOKEN}"

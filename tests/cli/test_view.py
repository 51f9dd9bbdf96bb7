"""`session-kit view`, in process (and once as a real process, for its exit codes)."""

from __future__ import annotations

import json
from pathlib import Path

from session_kit.errors import EXIT_NOT_FOUND, EXIT_USAGE
from tests.support.cli import invoke, run
from tests.support.sessions import Built

REAL = Path(__file__).parents[1] / "fixtures" / "real"
REAL_ID = next((REAL / "projects").glob("*/*.jsonl")).stem


def test_writes_the_page_and_prints_its_path(tmp_path: Path):
    out = tmp_path / "page.html"
    result = invoke("view", REAL_ID[:8], "--claude-dir", str(REAL), "--output", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == str(out)
    assert out.read_text().startswith("<!DOCTYPE html>")


def test_without_output_the_page_goes_to_the_sessions_scratch_dir(built: Built):
    result = invoke("view", "--session", built.current.session_id)
    assert result.exit_code == 0, result.stderr
    path = Path(result.stdout.strip())
    assert path.name == f"view-{built.current.session_id}.html" and path.is_file()
    assert built.current.session_id in str(path.parent)


def test_markdown_to_stdout(built: Built):
    result = invoke("view", built.current.session_id, "--format", "md", "--output", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# ") and "Please build the feature" in result.stdout


def test_json_describes_what_was_written(built: Built, tmp_path: Path):
    out = tmp_path / "p.html"
    result = invoke("view", built.current.session_id, "-o", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["kind"] == "view" and doc["path"] == str(out) and doc["format"] == "html"
    assert doc["lanes"] == 3 and doc["agents"] == 2 and doc["failures"] == 2
    assert doc["bytes"] == out.stat().st_size and doc["left_out_items"] == 0 and doc["cut_chars"] == 0


def test_stdout_with_json_is_a_usage_error(built: Built):
    result = invoke("view", built.current.session_id, "-o", "-", "--json")
    assert result.exit_code != 0 and "cannot go with --json" in result.stderr


def test_an_unknown_format_is_a_usage_error(built: Built):
    result = invoke("view", built.current.session_id, "--format", "pdf")
    assert result.exit_code == EXIT_USAGE


def test_no_such_session_is_one_line_and_exit_3(tmp_path: Path):
    (tmp_path / "projects").mkdir()
    proc = run("view", "nope", "--claude-dir", str(tmp_path))
    assert proc.returncode == EXIT_NOT_FOUND
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_missing_output_folder_is_one_line_and_writes_nothing(built: Built, tmp_path: Path):
    result = invoke("view", built.current.session_id, "-o", str(tmp_path / "no" / "p.html"))
    assert result.exit_code == EXIT_USAGE and "no folder" in result.stderr
    assert not (tmp_path / "no").exists()


def test_secrets_are_redacted_unless_no_redact(tmp_path: Path, claude_root: Path):
    from tests.support.transcripts import Transcript

    key = "sk-ant-api03-" + "Qz7kW2pR9xLm4TbN8vYc" * 2
    t = Transcript("5ec20000-0000-0000-0000-0000000000aa")
    t.user(f"deploy with {key}")
    t.bash(f"export KEY={key}", "ok")
    t.write_session(claude_root)
    shown = invoke("view", t.session_id, "--format", "md", "-o", "-")
    assert shown.exit_code == 0 and key not in shown.stdout and "[REDACTED:" in shown.stdout
    raw = invoke("view", t.session_id, "--format", "md", "-o", "-", "--no-redact")
    assert raw.exit_code == 0 and key in raw.stdout


# --- hostile sessions (tests/support/hostile.py) ----------------------------------------------

HOSTILE_ZONES = ("Pacific/Kiritimati", "Etc/GMT+12")  # year 1 and 9999 overflow there


def test_every_hostile_session_gives_a_page_or_a_documented_error(tmp_path: Path, monkeypatch):
    import time

    from tests.support.hostile import build_corpus
    from tests.support.pages import unclosed_tags

    monkeypatch.setenv("TZ", HOSTILE_ZONES[0])
    time.tzset()
    try:
        corpus = build_corpus(tmp_path / ".claude", traps=False)
        for case in corpus.sessions:
            for fmt in ("html", "md"):
                out = tmp_path / f"{case}.{fmt}"
                result = invoke(
                    "view", case, "--claude-dir", str(corpus.root), "--format", fmt, "-o", str(out), "--json"
                )
                assert result.exit_code in {0, 2, 3, 4, 5, 6}, (case, fmt, result.stderr)
                assert "Traceback" not in result.stderr
                if result.exit_code == 0:
                    json.loads(result.stdout)
                    text = out.read_bytes().decode("utf-8")  # valid UTF-8, lone surrogates replaced
                    assert len(text) < 1_000_000, (case, fmt, len(text))  # small input, small page
                    if fmt == "html":
                        assert unclosed_tags(text) == [], case
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()

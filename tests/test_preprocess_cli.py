"""`session-kit preprocess` through its real entry point, in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.support.transcripts import Transcript

from session_kit.errors import EXIT_NOTHING_TO_DO

EXE = Path(sys.executable).with_name("session-kit")
REAL = Path(__file__).parent / "fixtures" / "real"
REAL_ID = next((REAL / "projects").glob("*/*.jsonl")).stem


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "session_kit"]
    return subprocess.run(
        [*command, "preprocess", *args], capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120
    )


def test_paths_one_per_line_and_the_reduction_on_stderr(tmp_path: Path):
    proc = run(REAL_ID[:8], "--claude-dir", str(REAL), "--output-dir", str(tmp_path), "--prefix", "pre")
    assert proc.returncode == 0, proc.stderr
    paths = proc.stdout.splitlines()
    assert paths[0] == str(tmp_path / f"pre-{REAL_ID}-part1.xml")
    assert len(paths) == 3 and all(Path(p).is_file() for p in paths)
    for p in paths:
        ET.parse(p)
    assert "chars in" in proc.stderr and "noise -" in proc.stderr


def test_json(tmp_path: Path):
    proc = run(REAL_ID, "--claude-dir", str(REAL), "--output-dir", str(tmp_path), "--max-tokens", "400", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert (doc["version"], doc["kind"], doc["status"]) == (1, "preprocess", "ok")
    assert len(doc["files"]) == len(doc["documents"]) > 3
    assert doc["reduction"]["steps"][0]["step"] == "noise"
    assert proc.stderr == ""


def test_stdout_document(tmp_path: Path):
    proc = run(REAL_ID, "--claude-dir", str(REAL), "--stdout", "--no-agents")
    assert proc.returncode == 0, proc.stderr
    root = ET.fromstring(proc.stdout.encode())
    assert root.tag == "session" and not root.findall("agent")


def test_an_empty_session_exits_with_its_own_code_and_says_why(claude_root: Path, tmp_path: Path):
    t = Transcript()
    t.user("hi")
    t.write_session(claude_root)
    proc = run(t.session_id, "--output-dir", str(tmp_path / "out"))
    assert proc.returncode == EXIT_NOTHING_TO_DO == 6
    assert proc.stdout == "" and f"session {t.session_id} is empty" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 2  # the reduction line, then the reason
    doc = json.loads(run(t.session_id, "--output-dir", str(tmp_path / "out"), "--json").stdout)
    assert doc["status"] == "empty" and doc["files"] == []
    assert run(t.session_id, "--output-dir", str(tmp_path / "out"), "--no-filtering").returncode == 0


@pytest.mark.parametrize(
    "args",
    [["--stdout", "--json"], ["--stdout", "--max-tokens", "1000"], ["--max-tokens", "5"], ["--prefix", "a/b"]],
)
def test_usage_errors(args: list[str]):
    proc = run(REAL_ID, "--claude-dir", str(REAL), *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_distill_without_the_client_is_one_clear_line(tmp_path: Path):
    proc = run(REAL_ID, "--claude-dir", str(REAL), "--output-dir", str(tmp_path), "--distill",
               env={"PATH": str(tmp_path / "nothing"), "SESSION_KIT_CLAUDE": ""})
    assert proc.returncode == 3
    assert proc.stderr.strip().splitlines() == [
        "session-kit: --distill needs the Claude Code client: `claude` is not on PATH (or set SESSION_KIT_CLAUDE to its path)"
    ]


def test_distill_writes_the_small_models_answer_beside_each_document(tmp_path: Path):
    # A stand-in for the client (the network boundary): it records its arguments and answers
    # with the document it got on stdin, minus the tool results, in a Markdown fence.
    fake = tmp_path / "claude"
    fake.write_text(textwrap.dedent(f"""\
        #!{sys.executable}
        import json, re, sys
        doc = sys.stdin.read()
        with open({str(tmp_path / "calls.jsonl")!r}, "a") as f:
            f.write(json.dumps(sys.argv[1:]) + "\\n")
        print("```xml\\n" + re.sub(r"<tool_result.*?</tool_result>", "", doc, flags=re.S) + "```")
    """))
    fake.chmod(0o755)
    out = tmp_path / "out"
    proc = run(REAL_ID, "--claude-dir", str(REAL), "--output-dir", str(out), "--no-agents", "--distill", "--json",
               env={"SESSION_KIT_CLAUDE": str(fake)})
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    (distilled,) = doc["distilled"]
    assert distilled["well_formed"] is True
    path = Path(distilled["path"])
    assert path == out / f"session-{REAL_ID}-part1.distilled.xml" and str(path) in doc["files"]
    root = ET.parse(path).getroot()
    assert root.tag == "session" and not root.findall("tool_result") and root.findall("user")
    (argv,) = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert argv[0] == "-p" and "When in doubt, keep it." in argv[1]
    assert argv[argv.index("--model") + 1] == "haiku" and "--no-session-persistence" in argv


def test_preprocessing_loads_neither_click_nor_what_only_distill_needs():
    code = "import session_kit.preprocess, sys, json; print(json.dumps(sorted(sys.modules)))"
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
    assert not {"click", "subprocess", "hashlib", "tempfile"} & loaded

"""`session-kit preprocess`, in process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import Result

from session_kit.errors import EXIT_NOTHING_TO_DO
from tests.support.cli import invoke
from tests.support.transcripts import Transcript

REAL = Path(__file__).parents[1] / "fixtures" / "real"
REAL_ID = next((REAL / "projects").glob("*/*.jsonl")).stem


def preprocess(*args: str, env: dict[str, str] | None = None) -> Result:
    return invoke("preprocess", *args, env=env)


def test_paths_one_per_line_and_the_reduction_on_stderr(tmp_path: Path):
    result = preprocess(REAL_ID[:8], "--claude-dir", str(REAL), "--output-dir", str(tmp_path), "--prefix", "pre")
    assert result.exit_code == 0, result.stderr
    paths = result.stdout.splitlines()
    assert paths[0] == str(tmp_path / f"pre-{REAL_ID}-part1.xml")
    assert len(paths) == 3 and all(Path(p).is_file() for p in paths)
    for p in paths:
        ET.parse(p)
    assert "chars in" in result.stderr and "noise -" in result.stderr


def test_json_lists_every_document_and_the_reduction_steps(tmp_path: Path):
    result = preprocess(
        REAL_ID, "--claude-dir", str(REAL), "--output-dir", str(tmp_path), "--max-tokens", "400", "--json"
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert (doc["version"], doc["kind"], doc["status"]) == (2, "preprocess", "ok")
    assert len(doc["files"]) == len(doc["documents"]) > 3
    assert doc["reduction"]["steps"][0]["step"] == "noise"
    assert result.stderr == ""


def test_stdout_writes_one_well_formed_document(tmp_path: Path):
    result = preprocess(REAL_ID, "--claude-dir", str(REAL), "--stdout", "--no-agents")
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout.encode())
    assert root.tag == "session" and not root.findall("agent")


def _empty_session(claude_root: Path) -> str:
    """A session with no conversation: a command the client ran itself, and its output."""
    t = Transcript()
    t.user(
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"
    )
    t.user("<local-command-stdout>Set model to opus</local-command-stdout>")
    t.write_session(claude_root)
    return t.session_id


def test_an_empty_session_exits_with_its_own_code_and_says_why(claude_root: Path, tmp_path: Path):
    sid = _empty_session(claude_root)
    result = preprocess(sid, "--output-dir", str(tmp_path / "out"))
    assert result.exit_code == EXIT_NOTHING_TO_DO == 6
    assert result.stdout == "" and f"session {sid} is empty" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 2  # the reduction line, then the reason


def test_an_empty_session_in_json_has_its_status_and_no_files(claude_root: Path, tmp_path: Path):
    doc = json.loads(preprocess(_empty_session(claude_root), "--output-dir", str(tmp_path / "out"), "--json").stdout)
    assert doc["status"] == "empty" and doc["files"] == []


def test_an_empty_session_is_written_without_filtering(claude_root: Path, tmp_path: Path):
    assert (
        preprocess(_empty_session(claude_root), "--output-dir", str(tmp_path / "out"), "--no-filtering").exit_code == 0
    )


@pytest.mark.parametrize(
    "args",
    [["--stdout", "--json"], ["--stdout", "--max-tokens", "1000"], ["--max-tokens", "5"], ["--prefix", "a/b"]],
)
def test_usage_errors(args: list[str]):
    result = preprocess(REAL_ID, "--claude-dir", str(REAL), *args)
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    assert isinstance(result.exception, SystemExit)


def test_distill_without_the_client_is_one_clear_line(tmp_path: Path):
    result = preprocess(
        REAL_ID,
        "--claude-dir",
        str(REAL),
        "--output-dir",
        str(tmp_path),
        "--distill",
        env={"PATH": str(tmp_path / "nothing"), "SESSION_KIT_CLAUDE": ""},
    )
    assert result.exit_code == 3
    assert result.stderr.strip().splitlines() == [
        "session-kit: distilling needs the Claude Code client: `claude` is not on PATH (or set SESSION_KIT_CLAUDE to its path)"
    ]


def test_distill_writes_the_small_models_answer_beside_each_document(tmp_path: Path):
    # A stand-in for the client (the network boundary): it records its arguments and answers
    # with the document it got on stdin, minus the tool results, in a Markdown fence.
    fake = tmp_path / "claude"
    fake.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import json, re, sys
        doc = sys.stdin.read()
        with open({str(tmp_path / "calls.jsonl")!r}, "a") as f:
            f.write(json.dumps(sys.argv[1:]) + "\\n")
        print("```xml\\n" + re.sub(r"<tool_result.*?</tool_result>", "", doc, flags=re.S) + "```")
    """)
    )
    fake.chmod(0o755)
    out = tmp_path / "out"
    result = preprocess(
        REAL_ID,
        "--claude-dir",
        str(REAL),
        "--output-dir",
        str(out),
        "--no-agents",
        "--distill",
        "--json",
        env={"SESSION_KIT_CLAUDE": str(fake)},
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
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
    loaded = set(
        json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    )
    assert not {"click", "subprocess", "hashlib", "tempfile"} & loaded


def fake_client(tmp_path: Path, answer: str) -> Path:
    """A stand-in for `claude -p` that leaves what the real one leaves: a project folder for its
    cwd in the Claude root; it records its arguments and cwd, and prints `answer`."""
    fake = tmp_path / "claude"
    fake.write_text(
        textwrap.dedent(f"""\
        #!{sys.executable}
        import json, os, re, sys
        sys.stdin.read()
        cwd = os.getcwd()
        root = os.environ["CLAUDE_CONFIG_DIR"]
        os.makedirs(os.path.join(root, "projects", re.sub("[^A-Za-z0-9]", "-", cwd)), exist_ok=True)
        with open({str(tmp_path / "calls.jsonl")!r}, "a") as f:
            f.write(json.dumps({{"argv": sys.argv[1:], "cwd": cwd}}) + "\\n")
        print({answer!r})
    """)
    )
    fake.chmod(0o755)
    return fake


def test_distill_runs_the_child_without_hooks_and_leaves_nothing_in_the_claude_root(tmp_path: Path, claude_root):
    fake = fake_client(tmp_path, "<session/>")
    before = sorted(p.name for p in (claude_root / "projects").iterdir())
    out = tmp_path / "out"
    result = preprocess(
        REAL_ID,
        "--claude-dir",
        str(REAL),
        "--output-dir",
        str(out),
        "--no-agents",
        "--distill",
        env={"SESSION_KIT_CLAUDE": str(fake)},
    )
    assert result.exit_code == 0, result.stderr
    (call,) = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    argv = call["argv"]
    assert json.loads(argv[argv.index("--settings") + 1]) == {"disableAllHooks": True}
    assert not call["cwd"].startswith(str(out)) and not Path(call["cwd"]).exists()
    assert sorted(p.name for p in (claude_root / "projects").iterdir()) == before


def test_a_distilled_file_that_is_not_well_formed_is_reported(tmp_path: Path, claude_root):
    fake = fake_client(tmp_path, "<session><unclosed></session>")
    result = preprocess(
        REAL_ID,
        "--claude-dir",
        str(REAL),
        "--output-dir",
        str(tmp_path / "out"),
        "--no-agents",
        "--distill",
        env={"SESSION_KIT_CLAUDE": str(fake)},
    )
    assert result.exit_code == 0 and "part1.distilled.xml is not well-formed XML" in result.stderr

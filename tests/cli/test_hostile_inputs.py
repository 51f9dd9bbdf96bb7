"""Every read command over the hostile corpus (`tests/support/hostile.py`): no internal error,
no traceback, no hang, an exit code from the documented set, valid UTF-8 out and valid JSON
under `--json`.

Each case is read in this process (fast), without the FIFOs and `/dev/zero` links, under a
time zone far from UTC; the whole corpus, traps included, is read by the real entry point in
subprocesses with a timeout, so a hang fails the test instead of stalling the run.
"""

from __future__ import annotations

import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.cli import invoke, run
from tests.support.hostile import Corpus, build_corpus

# The documented exit codes a read may end with; 1 is an internal error (a bug).
DOCUMENTED = {0, 2, 3, 4, 5, 6}
READS = [("show",), ("events",), ("debug-agent", "--all"), ("plan", "--all"), ("info",), ("preprocess", "--stdout")]
CASES = [
    "h-surrogate",
    "h-exit-digits",
    "h-times",
    "h-repeated",
    "h-dup-ids",
    "h-broken-lines",
    "h-wrong-types",
    "h-empty",
    "h-blank",
    "h-only-noise",
    "h-agents",
    "h-plans",
]
FAR_ZONES = ("Pacific/Kiritimati", "Etc/GMT+12")  # UTC+14 and UTC-12: year 1 and 9999 overflow there


@pytest.fixture
def far_zone(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest):
    zone = getattr(request, "param", FAR_ZONES[0])
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    yield zone
    monkeypatch.undo()
    time.tzset()


def assert_survived(command: list[str], exit_code: int, stdout: bytes, stderr: str, *, documented=DOCUMENTED) -> None:
    where = " ".join(command)
    assert exit_code in documented, f"{where}: exit {exit_code}: {stderr[-500:]}"
    assert "Traceback" not in stderr and "internal error" not in stderr, f"{where}: {stderr[-500:]}"
    text = stdout.decode("utf-8")  # strict: every output is valid UTF-8
    assert "Traceback" not in text, where
    if "--json" in command and exit_code == 0:
        json.loads(text)  # one valid document


def test_the_corpus_names_every_case_this_test_reads(tmp_path: Path):
    corpus = build_corpus(tmp_path / ".claude", traps=False)
    assert sorted(corpus.sessions) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_every_read_command_survives_each_hostile_session(case: str, tmp_path: Path, far_zone: str):
    corpus = build_corpus(tmp_path / ".claude", traps=False)
    for read in READS:
        for as_json in ((), ("--json",)):
            command = [*read, case, "--claude-dir", str(corpus.root), *as_json]
            result = invoke(*command)
            assert_survived(command, result.exit_code, result.stdout_bytes, result.stderr)


@pytest.mark.parametrize("far_zone", FAR_ZONES, indirect=True)
def test_times_in_year_one_and_9999_show_in_any_time_zone(tmp_path: Path, far_zone: str):
    corpus = build_corpus(tmp_path / ".claude", traps=False)
    for command in (["show", "h-times"], ["events", "h-times"], ["info", "h-times"], ["sessions", "--all"]):
        result = invoke(*command, "--claude-dir", str(corpus.root))
        assert_survived(command, result.exit_code, result.stdout_bytes, result.stderr)
        assert result.exit_code == 0


def test_listing_and_searching_every_project_survive_the_corpus(tmp_path: Path, far_zone: str):
    corpus = build_corpus(tmp_path / ".claude", traps=False)
    for command in (
        ["sessions", "--all"],
        ["sessions", "--all", "--json"],
        ["search", "a", "--all"],
        ["search", "emoji", "--all", "--json"],
        ["search", "\ud83d", "--all", "--json"],
        ["search", "failed", "--all", "--tool", "Bash", "--json"],
    ):
        result = invoke(*command, "--claude-dir", str(corpus.root))
        assert_survived(command, result.exit_code, result.stdout_bytes, result.stderr)
        assert result.exit_code == 0, command


def _subprocess(corpus: Corpus, command: list[str]) -> tuple[list[str], subprocess.CompletedProcess[str] | None]:
    env = {"CLAUDE_CONFIG_DIR": str(corpus.root), "TZ": FAR_ZONES[1]}
    try:
        return command, run(*command, cwd=corpus.cwd, env=env)
    except subprocess.TimeoutExpired:
        return command, None


def test_the_real_entry_point_reads_the_whole_corpus_traps_included_without_hanging(tmp_path: Path):
    corpus = build_corpus(tmp_path / ".claude")
    fifo_session = corpus.project / "t-fifo.jsonl"
    commands = [
        ["sessions", "--all"],
        ["sessions", "--all", "--json"],
        ["sessions"],  # the project of the working folder, by its recorded cwd
        ["search", "a", "--all", "--json"],
        ["search", "plan", "--all"],
        ["doctor", "--json"],
        ["show", "h-agents", "--json"],
        ["events", "h-agents"],
        ["debug-agent", "h-agents", "--all", "--json"],
        ["plan", "h-plans", "--all", "--json"],
        ["info", "h-plans"],
        ["info", "h-agents", "--json"],
        ["preprocess", "h-agents", "--json"],
        ["preprocess", "h-surrogate", "--stdout"],
        ["show", "t-fifo"],
        ["show", str(fifo_session)],
        ["events", str(corpus.project / "t-zero.jsonl"), "--json"],
    ]
    with ThreadPoolExecutor(2) as pool:
        done = list(pool.map(lambda c: _subprocess(corpus, c), commands))
    for command, proc in done:
        assert proc is not None, f"{' '.join(command)} hung"
        # doctor exits 1 when the kit is not installed (its documented meaning there).
        documented = DOCUMENTED | {1} if command[0] == "doctor" else DOCUMENTED
        assert_survived(command, proc.returncode, proc.stdout.encode(), proc.stderr, documented=documented)
    by_command = {" ".join(c): p for c, p in done}
    listed = by_command["sessions --all --json"]
    assert listed is not None and listed.returncode == 0
    ids = {s["id"] for s in json.loads(listed.stdout)["sessions"]}
    assert set(corpus.sessions) <= ids and not {"t-fifo", "t-zero", "t-loop", "t-folder"} & ids
    assert f"skipped {fifo_session}: not a regular file" in listed.stderr
    assert by_command["show t-fifo"].returncode == 3  # not a session: nothing was read
    assert by_command[f"show {fifo_session}"].returncode == 2

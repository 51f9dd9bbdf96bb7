"""Shell completion (click's) of session ids and project folders, as bash, zsh and fish ask
for it: the real entry point in a subprocess, with the completion variables a shell sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.sessions import make_session

HERE_OLD = "aaaa1111-0000-0000-0000-000000000001"
HERE_NEW = "aaaa2222-0000-0000-0000-000000000002"
ELSEWHERE = "bbbb3333-0000-0000-0000-000000000003"


@pytest.fixture
def three_sessions(claude_root: Path, tmp_path: Path) -> Path:
    here = tmp_path / "code" / "here"
    here.mkdir(parents=True)
    make_session(claude_root, HERE_OLD, cwd=str(here), mtime=1_000)
    make_session(claude_root, HERE_NEW, cwd=str(here), mtime=2_000)
    make_session(claude_root, ELSEWHERE, cwd=str(tmp_path / "code" / "elsewhere"), mtime=3_000)
    return here


def complete(shell: str, words: str, *, cwd: Path) -> list[str]:
    """What `session-kit` answers a shell asking to complete the last word of `words`."""
    parts = words.split(" ")
    env = {"_SESSION_KIT_COMPLETE": f"{shell}_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)}
    if shell == "fish":
        env = {"_SESSION_KIT_COMPLETE": "fish_complete", "COMP_WORDS": words, "COMP_CWORD": parts[-1]}
    proc = run(cwd=cwd, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def values(shell: str, lines: list[str]) -> list[str]:
    if shell == "bash":  # "plain,<value>"
        return [line.split(",", 1)[1] for line in lines]
    if shell == "zsh":  # type, value, help: three lines per item
        return lines[1::3]
    return [line.split(",", 1)[1].split("\t")[0] for line in lines]  # fish: "plain,<value>\t<help>"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_a_session_argument_completes_to_session_ids_of_this_project_first(shell, three_sessions: Path):
    got = values(shell, complete(shell, "session-kit show ", cwd=three_sessions))
    assert got == ["current", HERE_NEW, HERE_OLD, ELSEWHERE]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_a_typed_prefix_narrows_the_session_ids(shell, three_sessions: Path):
    assert values(shell, complete(shell, "session-kit info bbbb", cwd=three_sessions)) == [ELSEWHERE]


def test_the_session_option_completes_like_the_argument(three_sessions: Path):
    assert values("bash", complete("bash", "session-kit events --session aaaa2", cwd=three_sessions)) == [HERE_NEW]


def test_zsh_and_fish_describe_each_session_by_its_project_folder(three_sessions: Path, tmp_path: Path):
    zsh = complete("zsh", "session-kit show bbbb", cwd=three_sessions)
    assert zsh == ["plain", ELSEWHERE, str(tmp_path / "code" / "elsewhere")]
    (fish,) = complete("fish", "session-kit show bbbb", cwd=three_sessions)
    assert fish == f"plain,{ELSEWHERE}\t{tmp_path / 'code' / 'elsewhere'}"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_project_option_completes_to_the_folders_projects_ran_in(shell, three_sessions: Path, tmp_path: Path):
    code = str(tmp_path / "code")
    got = values(shell, complete(shell, f"session-kit sessions --project {code}/", cwd=tmp_path))
    assert got == [f"{code}/elsewhere", f"{code}/here"]


def test_a_project_typed_from_the_home_folder_completes_from_it(claude_root: Path, isolated_home: Path):
    make_session(claude_root, HERE_NEW, cwd=str(isolated_home / "proj"))
    assert values("bash", complete("bash", "session-kit search --project ~/pr", cwd=isolated_home)) == ["~/proj"]


def test_completion_without_a_claude_root_offers_only_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "no-root"))
    assert values("bash", complete("bash", "session-kit show ", cwd=tmp_path)) == ["current"]


def test_debug_agents_session_argument_completes_too(three_sessions: Path):
    assert values("bash", complete("bash", "session-kit debug-agent aaaa1", cwd=three_sessions)) == [HERE_OLD]

"""The doctor's report: the Claude root, the kit's state and what is installed."""

from __future__ import annotations

from pathlib import Path

from session_kit.install import installer
from session_kit.queries.doctor import ROOT_DEFAULT, ROOT_FROM_ENV, ROOT_FROM_OPTION, doctor_report, root_source
from tests.support.sessions import build


def test_the_report_counts_projects_and_sessions(claude_root: Path, tmp_path: Path):
    build(claude_root)
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=str(tmp_path / "s")
    )
    assert report["projects"] >= 1 and report["sessions"] >= 2 and report["claude_root_exists"]


def test_nothing_installed_is_not_ok(claude_root: Path, tmp_path: Path):
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=str(tmp_path / "s")
    )
    assert report["installed"] == [] and report["ok"] is False


def test_an_install_for_the_user_is_ok(claude_root: Path, tmp_path: Path):
    state = str(tmp_path / "s")
    installer.install(scope="user", claude_root=claude_root, project=tmp_path, root=state)
    report = doctor_report(claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state)
    assert report["ok"] is True and [i["scope"] for i in report["installed"]] == ["user"]


def test_hook_log_lines_are_counted(claude_root: Path, tmp_path: Path):
    state = tmp_path / "s"
    (state / "logs").mkdir(parents=True)
    (state / "logs" / "hooks.log").write_text("one\ntwo\n")
    report = doctor_report(claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=str(state))
    assert report["hook_log_lines"] == 2


def test_the_root_comes_from_the_option_then_the_environment_then_the_default():
    assert root_source(True, {"CLAUDE_CONFIG_DIR": "/x"}) == ROOT_FROM_OPTION
    assert root_source(False, {"CLAUDE_CONFIG_DIR": "/x"}) == ROOT_FROM_ENV
    assert root_source(False, {}) == ROOT_DEFAULT

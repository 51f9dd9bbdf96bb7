"""The doctor's report: the Claude root, the kit's state and what is installed."""

from __future__ import annotations

import json
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


def _both_routes(claude_root: Path, tmp_path: Path) -> str:
    state = str(tmp_path / "s")
    installer.install(scope="user", claude_root=claude_root, project=tmp_path, root=state)
    settings = json.loads((claude_root / "settings.json").read_text())
    settings["enabledPlugins"] = {"session-kit@session-kit": True}
    (claude_root / "settings.json").write_text(json.dumps(settings))
    return state


def test_both_the_installed_hooks_and_the_enabled_plugin_are_warned_about(claude_root: Path, tmp_path: Path):
    state = _both_routes(claude_root, tmp_path)
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env={}
    )
    assert report["plugin"] == [f"enabled in {claude_root / 'settings.json'} (session-kit@session-kit)"]
    (warning,) = report["warnings"]
    assert "runs twice" in warning and "introduced twice" in warning


def test_a_plugin_running_this_session_is_seen_from_its_bin_on_path(claude_root: Path, tmp_path: Path):
    state = str(tmp_path / "s")
    installer.install(scope="user", claude_root=claude_root, project=tmp_path, root=state)
    repo = Path(__file__).parents[2]
    env = {"PATH": f"/usr/bin:{repo / 'bin'}"}
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env=env
    )
    assert report["plugin"] == [f"its bin/ is on PATH: {repo}"] and report["warnings"]


def test_the_plugin_alone_or_the_install_alone_is_no_warning(claude_root: Path, tmp_path: Path):
    state = str(tmp_path / "s")
    installer.install(scope="user", claude_root=claude_root, project=tmp_path, root=state)
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env={}
    )
    assert report["plugin"] == [] and report["warnings"] == []


def _enable_plugin(claude_root: Path) -> None:
    """What `claude plugin install session-kit@session-kit` leaves in the user's settings."""
    path = claude_root / "settings.json"
    settings = json.loads(path.read_text()) if path.exists() else {}
    settings["enabledPlugins"] = {"session-kit@session-kit": True}
    path.write_text(json.dumps(settings))


def test_the_plugin_route_alone_is_ok(claude_root: Path, tmp_path: Path):
    repo = Path(__file__).parents[2]
    report = doctor_report(
        claude_root=claude_root,
        root_source=ROOT_DEFAULT,
        project=tmp_path,
        state_root=str(tmp_path / "s"),
        env={"PATH": f"/usr/bin:{repo / 'bin'}"},
    )
    assert report["installed"] == [] and report["ok"] is True
    assert report["routes"] == ["plugin"]


def test_the_marketplace_route_alone_is_ok(claude_root: Path, tmp_path: Path):
    _enable_plugin(claude_root)
    report = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=str(tmp_path / "s"), env={}
    )
    assert report["installed"] == [] and report["ok"] is True
    assert report["routes"] == ["plugin"]


def test_the_routes_name_the_settings_install_and_the_plugin(claude_root: Path, tmp_path: Path):
    state = str(tmp_path / "s")
    nothing = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env={}
    )
    installer.install(scope="user", claude_root=claude_root, project=tmp_path, root=state)
    installed = doctor_report(
        claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env={}
    )
    _enable_plugin(claude_root)
    both = doctor_report(claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=state, env={})
    assert (nothing["routes"], installed["routes"], both["routes"]) == ([], ["settings"], ["settings", "plugin"])


def test_doctor_says_where_the_plugins_secret_guard_is_on_and_nothing_while_it_is_off(
    claude_root: Path, tmp_path: Path
):
    _enable_plugin(claude_root)
    path = claude_root / "settings.json"

    def guard() -> list[str]:
        report = doctor_report(
            claude_root=claude_root, root_source=ROOT_DEFAULT, project=tmp_path, state_root=str(tmp_path / "s"), env={}
        )
        return report["guard_secrets"]

    assert guard() == []
    settings = json.loads(path.read_text())
    settings["pluginConfigs"] = {"session-kit@session-kit": {"options": {"guard_secrets": True}}}
    path.write_text(json.dumps(settings))
    assert guard() == [f"plugin option in {path}"]
    settings["pluginConfigs"]["session-kit@session-kit"]["options"]["guard_secrets"] = False
    path.write_text(json.dumps(settings))
    assert guard() == []

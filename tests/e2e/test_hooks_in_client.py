"""The kit's hooks inside the real client, by every route: `./install.sh`, `--plugin-dir`, and
`claude plugin marketplace add` + `claude plugin install`.

Each route gets its own isolated home, installs once, and then checks, in order: the Bash
tool sees `$SESSION_CONTEXT` with the session's id, a slash command's `!` line sees it too,
the scratch dir and the project pointer exist, a value saved with `session-kit scratch set`
comes back into the model's context after `/compact`, and (install route) uninstalling leaves
the settings file as it was.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir

from .fake_api import Script, agent, bash
from .routes import Route, install_sh, installed_route, marketplace_route, plugin_route

USER_SETTINGS = b'{\n  "model": "keep-me",\n  "env": {"SOME_USER_VAR": "1"}\n}\n'
# The value is built by the shell, so the command text the model wrote does not contain it:
# finding it after /compact proves the kit put it back.
SAVE = 'session-kit scratch set plan-step "RESTORED-$((40+2))-VALUE" && session-kit scratch path'
SAVED_VALUE = "RESTORED-42-VALUE"
CTX_COMMAND = """---
description: Show the session context (test command)
allowed-tools: Bash(echo:*)
---
Context line: !`echo "SLASH-CTX:$SESSION_CONTEXT"`
"""


def script() -> Script:
    return Script(
        main={
            "HOOKS-START": [[bash(f'echo "BASH-CTX:$SESSION_CONTEXT"; {SAVE}')], "Started."],
            "Context line": ["Seen the context line."],
            "HOOKS-AFTER": ["Continuing after the compaction."],
            "DOCTOR-RUN": [[bash('session-kit doctor; echo "DOCTOR-EXIT:$?"')], "Done."],
            "LIVE-ROUTE": [[agent("Explore", "ROUTE-AGENT: look", background=False)], "Done."],
        },
        agents={"ROUTE-AGENT": [[bash("true")], "ROUTE-AGENT-DONE: looked."]},
        compact_summary="Summary: the session started and saved its plan step in scratch.",
    )


@pytest.fixture(scope="module")
def installed(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("install-route")
    with installed_route(claude_binary, tmp, script(), commands={"ctx": CTX_COMMAND}, settings=USER_SETTINGS) as route:
        yield route


@pytest.fixture(scope="module")
def plugin(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with plugin_route(
        claude_binary, tmp_path_factory.mktemp("plugin-route"), script(), commands={"ctx": CTX_COMMAND}
    ) as route:
        yield route


@pytest.fixture(scope="module")
def marketplace(claude_binary: Path, tmp_path_factory: pytest.TempPathFactory):
    with marketplace_route(
        claude_binary, tmp_path_factory.mktemp("marketplace-route"), script(), commands={"ctx": CTX_COMMAND}
    ) as route:
        yield route


@pytest.fixture(params=["installed", "plugin", "marketplace"], scope="module")
def route(request: pytest.FixtureRequest) -> Route:
    return request.getfixturevalue(request.param)


def test_bash_tool_sees_session_context(route: Route):
    run = route.run("HOOKS-START: show the context and save the plan step")
    route.session_id = run.session_id
    assert route.claude.fake.requests_containing(f"BASH-CTX:session_id={run.session_id}"), route.claude.fake.log_tail()
    # the model was told its id and scratch dir once, briefly
    told = route.claude.fake.requests_containing(f"this session's id is {run.session_id}")
    assert told and len(route.claude.fake.requests_containing("session-kit: this session's id is")) == len(told)


def test_scratch_dir_and_pointer_exist(route: Route):
    key = encode_project_dir(str(route.project.resolve()))
    scratch = route.state_root / "projects" / key / "sessions" / route.session_id
    assert (scratch / "session.json").is_file() and (scratch / "state.json").is_file()
    assert (route.state_root / "projects" / key / "current-session-id").read_text().strip() == route.session_id
    assert route.claude.fake.requests_containing(str(scratch))  # `scratch path` printed it in the Bash tool


def test_slash_command_line_sees_session_context(route: Route):
    route.run("/ctx", resume=route.session_id)
    assert route.claude.fake.requests_containing(f"SLASH-CTX:session_id={route.session_id}"), (
        route.claude.fake.log_tail()
    )


def test_saved_work_state_comes_back_after_compact(route: Route):
    assert not route.claude.fake.requests_containing(SAVED_VALUE)
    route.run("/compact", resume=route.session_id)
    route.run("HOOKS-AFTER: go on", resume=route.session_id)
    last = route.claude.fake.last_main_request()
    assert SAVED_VALUE in last.text(), route.claude.fake.log_tail()
    assert "restored" in last.text()


def test_the_lines_naming_the_compaction_hooks_are_short(route: Route):
    """What `/compact` printed reaches the model; the client names each hook command it ran."""
    requests = route.fake.requests_containing("Compact [")
    assert requests, route.fake.log_tail()  # after test_saved_work_state_comes_back_after_compact
    shown = re.sub(r"</?local-command-stdout>", "\n", requests[-1].text())
    lines = [line for line in shown.splitlines() if "Compact [" in line]
    assert {line.split(" [", 1)[0].rsplit(">", 1)[-1] for line in lines} == {"PreCompact", "PostCompact"}, lines
    assert all(len(line) <= 120 for line in lines), lines


def test_doctor_exits_0_inside_a_session_on_every_route(route: Route):
    route.run("DOCTOR-RUN: check the kit")
    (request,) = route.fake.requests_containing("DOCTOR-EXIT:")[-1:]
    assert "DOCTOR-EXIT:0" in request.text(), route.fake.log_tail()
    assert "Installed:   nothing" not in request.text()


def test_subagent_hooks_keep_each_agent_live_on_every_route(route: Route):
    run = route.run("LIVE-ROUTE: send an agent")
    key = encode_project_dir(str(route.project.resolve()))
    live = json.loads(
        (route.state_root / "projects" / key / "sessions" / run.session_id / "agents-live.json").read_text()
    )
    (record,) = live["agents"].values()
    assert record["type"] == "Explore" and record["started"] <= record["stopped"]
    assert record["last_message"] == "ROUTE-AGENT-DONE: looked."


def test_uninstall_leaves_the_settings_as_they_were(installed: Route):
    done = install_sh(installed.home, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert (installed.home.config_dir / "settings.json").read_bytes() == USER_SETTINGS
    assert (installed.home.config_dir / "commands").is_dir()  # the user's own command stays
    assert [p.name for p in (installed.home.config_dir / "commands").iterdir()] == ["ctx.md"]
    # nothing of the install is left; the sessions' state is kept, and said so
    assert not (installed.home.home / ".local" / "share" / "claude-session-kit").exists()
    assert not (installed.state_root / "install").exists() and not (installed.state_root / "bin").exists()
    assert f"kept {installed.state_root}" in done.stderr


def test_the_marketplace_copies_the_checkouts_files_and_not_its_test_environment(marketplace: Route):
    installed = json.loads((marketplace.home.config_dir / "plugins" / "installed_plugins.json").read_text())
    (entry,) = installed["plugins"]["session-kit@session-kit"]
    copy = Path(entry["installPath"])
    assert (copy / ".claude-plugin" / "plugin.json").is_file() and (copy / "bin" / "session-kit").is_file()
    assert not (copy / ".venv").exists() and not (copy / ".test-cache").exists()
    size = sum(p.stat().st_size for p in copy.rglob("*") if p.is_file() and not p.is_symlink())
    assert size < 20 << 20, size  # the tracked files: a few MB

"""Installing and uninstalling the kit's hooks on a settings dict: pure, idempotent, reversible."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from session_kit.install.settings import (
    MARKER,
    SettingsError,
    install_hooks,
    installed_commands,
    is_ours,
    uninstall_hooks,
)

OURS = {
    "SessionStart": f"/venv/bin/python -I -S /kit/run.py session-start {MARKER}",
    "UserPromptSubmit": f"/venv/bin/python -I -S /kit/run.py user-prompt-submit {MARKER}",
    "PreCompact": f"/venv/bin/python -I -S /kit/run.py pre-compact {MARKER}",
}

json_leaf = st.none() | st.booleans() | st.integers() | st.text(max_size=10)
json_value = st.recursive(
    json_leaf, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3), max_leaves=10
)
other_hook = st.fixed_dictionaries(
    {"type": st.just("command"), "command": st.text(max_size=20).filter(lambda t: MARKER not in t)}
)
group = st.fixed_dictionaries({"hooks": st.lists(other_hook, max_size=3)}, optional={"matcher": st.text(max_size=8)})
events = st.sampled_from(["SessionStart", "UserPromptSubmit", "PreCompact", "PostToolUse", "Stop"])
hooks_section = st.dictionaries(events, st.lists(group, max_size=3), max_size=4)
settings_strategy = st.dictionaries(st.text(max_size=8).filter(lambda k: k != "hooks"), json_value, max_size=4).flatmap(
    lambda base: st.one_of(st.just(base), hooks_section.map(lambda h: {**base, "hooks": h}))
)


@given(settings_strategy)
def test_uninstall_after_install_restores_the_settings(settings):
    installed, created = install_hooks(settings, OURS)
    assert uninstall_hooks(installed, created) == settings


@given(settings_strategy)
def test_install_twice_is_the_same_as_once(settings):
    once, created = install_hooks(settings, OURS)
    twice, created_again = install_hooks(once, OURS)
    assert twice == once and created_again == []


@given(settings_strategy)
def test_uninstall_after_installing_twice_restores_the_settings(settings):
    once, created = install_hooks(settings, OURS)
    twice, created_again = install_hooks(once, OURS)
    assert uninstall_hooks(twice, created + created_again) == settings


@given(settings_strategy)
def test_others_hooks_are_kept_in_order(settings):
    installed, _ = install_hooks(settings, OURS)
    for event, groups in settings.get("hooks", {}).items():
        assert installed["hooks"][event][: len(groups)] == groups


@given(settings_strategy)
def test_each_event_gets_exactly_one_of_ours(settings):
    installed, _ = install_hooks(settings, OURS)
    assert {e: len(c) for e, c in installed_commands(installed).items()} == dict.fromkeys(OURS, 1)


OUTDATED = {
    "hooks": {
        "SessionStart": [
            {"hooks": [{"type": "command", "command": f"/old/python /old/run.py session-start {MARKER}"}]}
        ],
        "Stop": [
            {
                "hooks": [
                    {"type": "command", "command": f"/old/python x {MARKER}"},
                    {"type": "command", "command": "theirs"},
                ]
            }
        ],
    }
}


def test_outdated_entries_are_replaced_not_added():
    new, _ = install_hooks(OUTDATED, OURS)
    assert installed_commands(new) == {e: [c] for e, c in OURS.items()}


def test_our_entry_on_an_event_we_no_longer_hook_is_dropped_and_theirs_kept():
    new, _ = install_hooks(OUTDATED, OURS)
    assert new["hooks"]["Stop"] == [{"hooks": [{"type": "command", "command": "theirs"}]}]


def test_uninstall_without_a_receipt_keeps_an_empty_event_the_user_had():
    settings = {"hooks": {"Stop": []}, "model": "x"}
    installed, _ = install_hooks(settings, OURS)
    assert uninstall_hooks(installed) == {"hooks": {"Stop": []}, "model": "x"}


def test_uninstall_without_a_receipt_keeps_an_empty_hooks_section():
    assert uninstall_hooks({"hooks": {}}) == {"hooks": {}}


@pytest.mark.parametrize("bad", [[], {"hooks": []}, {"hooks": {"SessionStart": {}}}])
def test_shapes_it_will_not_edit(bad):
    with pytest.raises(SettingsError):
        install_hooks(bad, OURS)


def test_a_command_ending_in_the_marker_is_ours():
    assert is_ours({"command": f"x {MARKER}"})


def test_a_marker_that_does_not_end_the_command_is_not_ours():
    assert not is_ours({"command": f"{MARKER} then more"})


def test_a_hook_that_is_not_an_object_is_not_ours():
    assert not is_ours("x")


# --- a hook whose kit is gone is silent ------------------------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import session_kit  # noqa: E402
from session_kit.install.kit_files import hook_launcher_targets, write_hook_launcher  # noqa: E402
from session_kit.install.settings import hook_command, hook_launcher, hook_paths, shell_path  # noqa: E402

RUN = str(Path(session_kit.__file__).parent / "hooks" / "run.py")
# What the client shows after /compact, around the command it ran: the model receives these lines.
SHOWN = "PostCompact [{}] completed successfully"


def run_hook_command(command: str, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    """The command as the client runs it: by a shell, with the event on stdin."""
    event = {"session_id": "gone-1", "cwd": str(tmp_path), "source": "startup", "hook_event_name": "SessionStart"}
    env = {**os.environ, "PATH": "/usr/bin:/bin", "CLAUDE_ENV_FILE": str(tmp_path / "env.sh"), "HOME": str(tmp_path)}
    return subprocess.run(
        ["sh", "-c", command], input=json.dumps(event).encode(), capture_output=True, env=env, timeout=30
    )


def installed_command(tmp_path: Path, python: str, script: str, event: str = "SessionStart") -> str:
    """The command for `event` running a launcher written into a state root below `tmp_path`
    (the home the command runs with)."""
    root = tmp_path / "state dir" / "claude-session-kit"
    launcher = write_hook_launcher(str(root), python, script)
    return hook_command(shell_path(launcher, str(tmp_path)), event)


def test_the_hook_command_is_silent_when_its_interpreter_is_gone(tmp_path: Path):
    done = run_hook_command(installed_command(tmp_path, str(tmp_path / "venv/bin/python"), RUN), tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_hook_command_is_silent_when_its_package_is_gone(tmp_path: Path):
    gone = str(tmp_path / "site-packages/session_kit/hooks/run.py")
    done = run_hook_command(installed_command(tmp_path, sys.executable, gone), tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_hook_command_exits_0_when_its_launcher_is_gone(tmp_path: Path):
    command = installed_command(tmp_path, sys.executable, RUN)
    os.unlink(hook_launcher(command, str(tmp_path)))
    done = run_hook_command(command, tmp_path)
    assert (done.returncode, done.stdout) == (0, b"")


def test_the_hook_command_runs_the_hook_when_the_kit_is_there(tmp_path: Path):
    done = run_hook_command(installed_command(tmp_path, sys.executable, RUN), tmp_path)
    assert done.returncode == 0 and b"gone-1" in done.stdout, done.stderr
    bin_dir = tmp_path / "state dir" / "claude-session-kit" / "bin"
    assert str(bin_dir) in (tmp_path / "env.sh").read_text()  # the Bash tool gets the kit's bin folder


@pytest.mark.parametrize("home", ["/home/a-rather-long-user-name", "/Users/someone else", "/"])
def test_the_command_the_client_shows_after_compact_is_short(home: str):
    root = f"{home.rstrip('/')}/.local/state/claude-session-kit"
    command = hook_command(shell_path(f"{root}/hook", home), "PostCompact")
    assert len(SHOWN.format(command)) <= 120, command


@pytest.mark.parametrize(
    ("path", "home"),
    [
        ("/h/u/.local/state/k/hook", "/h/u"),
        ("/h/u x/st ate/hook", "/h/u x/"),
        ("/srv/state/hook", "/h/u"),
        ("/a/hook", None),
    ],
)
def test_the_launcher_is_read_back_from_a_command(path: str, home: str | None):
    command = hook_command(shell_path(path, home), "PreCompact")
    assert command.endswith(f"pre-compact || : {MARKER}") and is_ours({"command": command})
    assert hook_launcher(command, home) == path and hook_paths(command) is None


def test_the_interpreter_and_script_are_read_back_from_a_launcher(tmp_path: Path):
    launcher = write_hook_launcher(str(tmp_path / "state"), "/v env/bin/python", "/kit's/run.py")
    assert hook_launcher_targets(launcher) == ("/v env/bin/python", "/kit's/run.py")
    assert hook_launcher_targets(str(tmp_path / "gone")) is None


def test_the_interpreter_and_script_are_read_back_from_an_older_command():
    assert hook_paths(OURS["PreCompact"]) == ("/venv/bin/python", "/kit/run.py")
    guarded = (
        "if [ -x '/v env/bin/python' ] && [ -f /kit/run.py ] ; then SESSION_KIT_BIN_DIR='/s t/bin' "
        f"'/v env/bin/python' -I -S /kit/run.py pre-compact ; fi {MARKER}"
    )
    assert hook_paths(guarded) == ("/v env/bin/python", "/kit/run.py") and hook_launcher(guarded, "/h") is None

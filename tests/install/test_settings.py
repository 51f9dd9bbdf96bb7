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

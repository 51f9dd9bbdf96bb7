"""An archived copy rewritten in place at its length (secrets scrubbed): the copy goes on as before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from session_kit.archive import layout, store
from tests.support.sessions import make_session

SID = "5ec2e700-0000-0000-0000-000000000001"


def test_a_rewrite_at_the_same_length_keeps_the_manifest_and_the_next_copy_appends(claude_root: Path, tmp_path: Path):
    t = make_session(claude_root, SID, prompt="my password=hunter2-Tr0ub4dor")
    path = claude_root / "projects" / "-work-proj" / f"{SID}.jsonl"
    state = layout.base_dir(str(tmp_path / "state"), str(claude_root), create=True)
    rel = f"projects/-work-proj/{SID}.jsonl"
    store.archive_file(state, str(claude_root), str(path), session=SID)
    before = layout.archived(state, rel)

    assert store.rewrite(state, rel, lambda data: data.replace(b"hunter2-Tr0ub4dor", b"*" * 17))
    assert not store.rewrite(state, rel, lambda data: data), "nothing changed: nothing written"
    after = layout.archived(state, rel)
    assert (after.size, after.session) == (before.size, SID)
    assert b"hunter2" not in store.read_original(state, rel)
    assert os.stat(layout.member_path(state, rel)).st_mode & 0o777 == 0o600

    t.say("more")
    path.write_text(t.text())  # the client appends
    assert store.archive_file(state, str(claude_root), str(path), session=SID) > 0
    archived = store.read_original(state, rel)
    assert archived.endswith(path.read_bytes()[before.size :]) and len(archived) == path.stat().st_size
    assert b"hunter2" not in archived

    with pytest.raises(ValueError):
        store.rewrite(state, rel, lambda data: data[:-1])

"""`session-kit archive`: what it copies, and what `--prune` drops (generations and
rewrites: tests/cli/test_archive_generations.py)."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.sessions import Built, delete_as_the_client_does


def test_archive_reports_what_it_copied_and_again_nothing(built: Built):
    first = invoke_json("archive")
    assert first["kind"] == "archive" and first["files"] >= 5 and first["bytes"] > 0 and first["errors"] == []
    again = invoke_json("archive")
    assert (again["files"], again["bytes"]) == (0, 0)


def test_archive_says_what_it_copied_in_human_units(built: Built):
    out = invoke("archive", "--verify").stdout
    assert re.search(r"^Archived \d+(\.\d)?[BKMG] new in \d+ files into ", out, re.M), out
    assert re.search(r"^Verified \d+ files, \d+ generations, \d+(\.\d)?[BKMG]: every byte is there$", out, re.M), out


def test_prune_drops_only_old_archived_sessions_the_client_no_longer_has(built: Built):
    from session_kit.archive import layout, store

    invoke("archive")
    gone, kept = built.current.session_id, built.legacy.session_id
    delete_as_the_client_does(built.root, gone)
    state = os.environ["SESSION_KIT_HOME"]
    base = layout.base_dir(state, str(built.root))
    for path in Path(layout.files_dir(base)).rglob("*.gz.json"):  # archived 400 days ago
        manifest = json.loads(path.read_text())
        path.write_text(json.dumps({**manifest, "archived": time.time() - 400 * 86400}))
    assert invoke_json("archive", "--prune")["pruned"] == 0  # no retention set: keep forever
    Path(state, "config.json").write_text(json.dumps({"archive": {"keep_days": 365}}))
    assert invoke_json("archive", "--prune")["pruned"] == 1
    sessions = store.archived_sessions(base)
    assert gone not in sessions and kept in sessions
    assert invoke("restore", gone).exit_code == 3

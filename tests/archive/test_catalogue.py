"""An archive run with nothing new: answered from the catalogue and the archive folders' mtimes,
no transcript or manifest opened, and never a change missed that a read of the manifests sees."""

from __future__ import annotations

import json
import os
from pathlib import Path

from session_kit.archive import generations, layout, members, store
from session_kit.archive.background import archive_session_now
from session_kit.queries.history import archive_all
from tests.support import dialects
from tests.support.audit import opened
from tests.support.sessions import build


def _root(claude_root: Path) -> Path:
    build(claude_root)
    dialects.legacy_2_0(claude_root)
    dialects.subagents_2_1(claude_root)
    plans = claude_root / "plans"
    plans.mkdir(exist_ok=True)
    (plans / "a-plan.md").write_text("# The plan\n")
    return claude_root


def _base(claude_root: Path, state: Path) -> str:
    return layout.base_dir(str(state), str(claude_root))


def _transcripts(claude_root: Path) -> list[Path]:
    return sorted(p for p in (claude_root / "projects").rglob("*.jsonl") if not p.name.startswith("agent-"))


def test_a_run_with_nothing_new_opens_no_transcript_and_no_manifest(claude_root: Path, tmp_path: Path):
    root = _root(claude_root)
    state = str(tmp_path / "state")
    first = archive_all(root, state)
    assert first.files > 5
    with opened() as seen:
        again = archive_all(root, state)
    assert (again.files, again.bytes, again.errors) == (0, 0, ())
    assert not [p for p in seen if p.startswith(str(root)) or p.endswith(layout.GZ + layout.MANIFEST)]


def test_a_file_rewritten_at_its_size_with_its_mtime_set_back_is_archived_again(claude_root: Path, tmp_path: Path):
    root = _root(claude_root)
    state = str(tmp_path / "state")
    archive_all(root, state)
    path = _transcripts(root)[0]
    before = path.stat()
    text = path.read_text()
    changed = text.replace('"type":"user"', '"type":"USER"', 1)
    assert changed != text and len(changed) == len(text)
    path.write_text(changed)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns - 10**9))  # set back, not to the same time
    assert (path.stat().st_size, path.stat().st_ino) == (before.st_size, before.st_ino)
    archive_all(root, state)
    rel = path.relative_to(root).as_posix()
    entry = layout.archived(_base(root, Path(state)), rel)
    assert entry is not None and entry.rewritten  # a new generation holds the rewrite
    newest = entry.generations[-1]
    assert b"".join(members.member_chunks(newest.member, newest.gz_size)) == changed.encode()


def test_a_manifest_gone_from_the_archive_is_noticed_though_the_file_is_unchanged(claude_root: Path, tmp_path: Path):
    root = _root(claude_root)
    state = str(tmp_path / "state")
    archive_all(root, state)
    base = _base(root, Path(state))
    path = _transcripts(root)[0]
    rel = path.relative_to(root).as_posix()
    member = layout.member_path(base, rel)
    os.unlink(member + layout.MANIFEST)
    os.unlink(member)
    again = archive_all(root, state)
    assert again.files == 1 and again.bytes == path.stat().st_size
    assert generations.read_original(base, rel) == path.read_bytes()


def test_what_a_hook_archived_since_the_last_run_is_neither_lost_nor_copied_twice(claude_root: Path, tmp_path: Path):
    root = _root(claude_root)
    state = str(tmp_path / "state")
    archive_all(root, state)
    path = _transcripts(root)[-1]
    with path.open("a") as f:
        f.write(json.dumps({"type": "user", "message": {"role": "user", "content": "later"}}) + "\n")
    archive_session_now(state, str(root), str(path))
    with path.open("a") as f:
        f.write(json.dumps({"type": "user", "message": {"role": "user", "content": "later still"}}) + "\n")
    again = archive_all(root, state)
    assert again.files == 1
    assert generations.read_original(_base(root, Path(state)), path.relative_to(root).as_posix()) == path.read_bytes()
    assert archive_all(root, state).files == 0


def test_a_damaged_catalogue_is_passed_over(claude_root: Path, tmp_path: Path):
    root = _root(claude_root)
    state = str(tmp_path / "state")
    archive_all(root, state)
    catalogue = Path(_base(root, Path(state))) / layout.CATALOGUE
    assert catalogue.stat().st_mode & 0o777 == 0o600
    catalogue.write_text('{"v": 1, "files": {"projects": [1, 2, 3]}, "folders": 7}')
    path = _transcripts(root)[0]
    with path.open("a") as f:
        f.write("{}\n")
    again = archive_all(root, state)
    assert (again.files, again.bytes, again.errors) == (1, 3, ())
    assert store.archived_sessions(_base(root, Path(state)))

"""The archive's copy of one file: incremental, lossless, private, safe against kills and races."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import zlib
from pathlib import Path

from session_kit.archive import generations, layout, store, verify
from tests.support.sessions import build


def _base(claude_root: Path, tmp_path: Path) -> str:
    return layout.base_dir(str(tmp_path / "state"), str(claude_root), create=True)


def _files(root: Path) -> list[tuple[str, str | None]]:
    return list(store.everything(str(root)))


def _member_count(path: str) -> int:
    data, count = Path(path).read_bytes(), 0
    while data:
        unpacker = zlib.decompressobj(31)
        unpacker.decompress(data)
        data, count = unpacker.unused_data, count + 1
    return count


def test_archive_gives_back_the_original_bytes_of_every_session_file(claude_root: Path, tmp_path: Path):
    built = build(claude_root)
    state = _base(claude_root, tmp_path)
    files, copied = store.archive_paths(state, str(claude_root), _files(claude_root))
    originals = [p for p, _ in _files(claude_root)]
    assert files == len(originals) and copied == sum(os.path.getsize(p) for p in originals)
    for path in originals:
        rel = os.path.relpath(path, claude_root)
        assert generations.read_original(state, rel) == Path(path).read_bytes()
        assert gzip.decompress(Path(layout.member_path(state, rel)).read_bytes()) == Path(path).read_bytes()
    sessions = store.archived_sessions(state)
    assert {built.current.session_id, built.legacy.session_id} <= set(sessions)
    legacy_agent = [e for e in sessions[built.legacy.session_id] if e.rel.endswith(f"agent-{built.legacy_agent}.jsonl")]
    assert legacy_agent, "a 2025-layout agent log is archived with the session it names"


def test_appended_bytes_go_in_as_one_more_member_and_nothing_else_is_copied(claude_root: Path, tmp_path: Path):
    built = build(claude_root)
    state = _base(claude_root, tmp_path)
    store.archive_paths(state, str(claude_root), _files(claude_root))
    path = claude_root / "projects" / "-work-proj" / f"{built.current.session_id}.jsonl"
    before = path.read_bytes()
    extra = b'{"type":"user","message":{"role":"user","content":"more"}}\n' * 100
    with path.open("ab") as f:
        f.write(extra)
    files, copied = store.archive_paths(state, str(claude_root), _files(claude_root))
    assert (files, copied) == (1, len(extra))
    rel = os.path.relpath(path, claude_root)
    assert generations.read_original(state, rel) == before + extra
    assert _member_count(layout.member_path(state, rel)) == 2
    assert store.archive_paths(state, str(claude_root), _files(claude_root)) == (0, 0)


def test_a_half_written_last_line_is_archived_as_it_is_and_completed_later(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"type":"user"}\n{"type":"assis')
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path), session="s1")
    with path.open("ab") as f:
        f.write(b'tant"}\n')
    store.archive_file(state, str(claude_root), str(path), session="s1")
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()


def test_a_truncated_or_replaced_file_is_copied_again_whole(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"a" * 10_000 + b"\n")
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path))
    path.write_bytes(b"short\n")  # truncated
    assert store.archive_file(state, str(claude_root), str(path)) == 6
    assert generations.read_original(state, "projects/p/s1.jsonl") == b"short\n"
    path.write_bytes(b"other\n" + b"b" * 20_000)  # replaced by a longer file with another start
    store.archive_file(state, str(claude_root), str(path))
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()


def test_a_member_left_by_a_killed_copy_is_cut_off_not_doubled(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"first\n")
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path))
    member = layout.member_path(state, "projects/p/s1.jsonl")
    with open(member, "ab") as f:  # written, but the manifest never saw it
        f.write(gzip.compress(b"second\n"))
    with path.open("ab") as f:
        f.write(b"second\n")
    store.archive_file(state, str(claude_root), str(path))
    assert generations.read_original(state, "projects/p/s1.jsonl") == b"first\nsecond\n"


def test_the_archive_is_private(claude_root: Path, tmp_path: Path):
    build(claude_root)
    os.makedirs(tmp_path / "state", mode=0o700)
    state = _base(claude_root, tmp_path)
    store.archive_paths(state, str(claude_root), _files(claude_root))
    for folder, _dirs, names in os.walk(layout.archive_dir(str(tmp_path / "state"))):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
        for name in names:
            assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) == 0o600, name


CONCURRENT = """
import sys
from session_kit.archive import layout, store
base = layout.base_dir(sys.argv[1], sys.argv[2], create=True)
for _ in range(20):
    store.archive_file(base, sys.argv[2], sys.argv[3])
    with open(sys.argv[3], "ab") as f:
        f.write(sys.argv[4].encode() * 50 + b"\\n")
"""


def test_concurrent_archivers_of_one_file_lose_and_double_nothing(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"start\n")
    state = _base(claude_root, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(store.__file__).parents[2])}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONCURRENT, str(tmp_path / "state"), str(claude_root), str(path), tag], env=env
        )
        for tag in "xyz"
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    store.archive_file(state, str(claude_root), str(path))
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()


def test_session_files_are_the_transcript_its_folder_its_legacy_agents_and_its_plan(claude_root: Path):
    built = build(claude_root)
    transcript = claude_root / "projects" / "-work-proj" / f"{built.current.session_id}.jsonl"
    names = {os.path.relpath(p, claude_root) for p, sid in store.session_files(str(claude_root), str(transcript))}
    assert f"projects/-work-proj/{built.current.session_id}.jsonl" in names
    assert any(n.endswith(f"agent-{built.plan_agent}.jsonl") for n in names)
    assert any(n.endswith(f"agent-{built.plan_agent}.meta.json") for n in names)
    assert not any(built.legacy.session_id in n for n in names)


def test_a_file_rewritten_in_place_to_the_same_size_is_copied_again_whole(claude_root: Path, tmp_path: Path):
    """The client rewrites transcripts in place: same inode, same size, the same end."""
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"n":"first"}\n' + b"a" * 10_000 + b"\n")
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path))
    with path.open("r+b") as f:
        f.write(b'{"n":"other"}\n')
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    assert store.archive_file(state, str(claude_root), str(path)) == path.stat().st_size
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()


def test_a_file_replaced_by_another_inode_is_copied_again_whole(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"n":1}\n')
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path))
    other = path.with_name("new.tmp")
    other.write_bytes(b'{"n":2}\n{"n":3}\n')
    other.replace(path)
    assert store.archive_file(state, str(claude_root), str(path)) == path.stat().st_size
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()


def test_a_copy_made_before_checksums_were_kept_goes_on_and_verifies(claude_root: Path, tmp_path: Path):
    path = claude_root / "projects" / "p" / "s1.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"n":1}\n')
    state = _base(claude_root, tmp_path)
    store.archive_file(state, str(claude_root), str(path), session="s1")
    member = layout.member_path(state, "projects/p/s1.jsonl")
    manifest = json.loads(Path(member + ".json").read_text())
    older = {k: v for k, v in manifest.items() if k not in ("crc", "gens", "gen", "earlier")}
    Path(member + ".json").write_text(json.dumps({**older, "v": 1}))  # as earlier versions wrote it
    with path.open("ab") as f:
        f.write(b'{"n":2}\n')
    assert store.archive_file(state, str(claude_root), str(path), session="s1") == 8
    assert generations.read_original(state, "projects/p/s1.jsonl") == path.read_bytes()
    assert verify.verify(state, str(claude_root)).problems == ()
    path.write_bytes(b'{"n":3}\n')  # then rewritten: the old copy is kept as generation 0
    store.archive_file(state, str(claude_root), str(path), session="s1")
    entry = layout.archived(state, "projects/p/s1.jsonl")
    assert [g.size for g in entry.generations] == [16, 8]
    assert verify.verify(state, str(claude_root)).problems == ()


def test_the_clients_set_aside_copies_are_archived_with_their_session_never_as_one(claude_root: Path, tmp_path: Path):
    """Since 2.1.328 the client keeps earlier transcripts as `<id>.jsonl.superseded-<ms>`:
    whole transcripts, archived with the session (by the full run and by the hooks' copy of
    one session), never a second session of the archive."""
    built = build(claude_root)
    sid = built.current.session_id
    project = claude_root / "projects" / "-work-proj"
    aside = project / f"{sid}.jsonl.superseded-1764000000000"
    aside.write_bytes((project / f"{sid}.jsonl").read_bytes()[:200])
    assert (str(aside), sid) in _files(claude_root)
    assert (str(aside), sid) in store.session_files(str(claude_root), str(project / f"{sid}.jsonl"))
    state = _base(claude_root, tmp_path)
    store.archive_paths(state, str(claude_root), _files(claude_root))
    rel = f"projects/-work-proj/{sid}.jsonl.superseded-1764000000000"
    assert generations.read_original(state, rel) == aside.read_bytes()
    assert rel in {e.rel for e in store.archived_sessions(state)[sid]}
    from session_kit.archive import view

    assert sid in view.archived_ids(state, "") and not [i for i in view.archived_ids(state, "") if "superseded" in i]

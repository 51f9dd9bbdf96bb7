"""The archive never loses a byte the client had: rewrites start generations, every file of a
session is kept, each Claude root has its own archive, plans come back with their session."""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path

from tests.support.cli import invoke, invoke_json
from tests.support.transcripts import Transcript

SID = "9a9a0000-1111-4222-8333-444455556666"
PROJECT = "-work-proj"


def _compacted(root: Path, sid: str = SID, *, slug: str | None = None) -> Path:
    """A session with a request before its compaction and one after."""
    t = Transcript(sid, cwd="/work/proj", slug=slug)
    t.user("EARLYWORD please build the parser")
    t.bash("make parser", "EARLYOUTPUT built")
    t.say("the parser is built")
    t.compact("Summary: a parser was built.")
    t.user("LATEWORD now write the tests")
    t.say("tests written")
    return t.write_session(root)


def _gc_rewrite(path: Path) -> None:
    """What `CLAUDE_CODE_TRANSCRIPT_LOCAL_GC` does: the file rewritten from its last
    compaction boundary on, the history before it dropped."""
    lines = path.read_bytes().splitlines(keepends=True)
    start = max(i for i, line in enumerate(lines) if b'"compact_boundary"' in line)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(b"".join(lines[start:]))
    tmp.replace(path)


def _delete_as_the_client_does(root: Path, sid: str = SID) -> None:
    project = root / "projects" / PROJECT
    (project / f"{sid}.jsonl").unlink()
    shutil.rmtree(project / sid, ignore_errors=True)


def _requests(sid: str = SID) -> list[str]:
    return [r["text"] for r in invoke_json("show", sid)["requests"]]


def test_a_gc_rewrite_keeps_the_dropped_history_for_search_show_and_restore(claude_root: Path):
    path = _compacted(claude_root)
    assert invoke("archive").exit_code == 0
    _gc_rewrite(path)
    assert b"EARLYWORD" not in path.read_bytes()
    assert invoke("archive").exit_code == 0
    assert invoke_json("search", "EARLYWORD", "--all")["total"] >= 1
    assert invoke_json("search", "LATEWORD", "--all")["total"] >= 1
    shown = invoke("show", SID)
    assert "earlier entries" in shown.stderr and "kit's archive" in shown.stderr
    assert any("EARLYWORD" in r for r in _requests()) and any("LATEWORD" in r for r in _requests())
    _delete_as_the_client_does(claude_root)
    restored = invoke_json("restore", SID)
    assert restored["earlier_entries"] > 0
    back = path.read_bytes()
    assert b"EARLYWORD" in back and b"EARLYOUTPUT" in back and b"LATEWORD" in back


def test_a_rewrite_the_archive_has_not_seen_is_kept_by_the_first_command_that_reads_the_session(
    claude_root: Path,
):
    path = _compacted(claude_root)
    assert invoke("archive").exit_code == 0
    _gc_rewrite(path)
    requests = _requests()  # no `archive` run since the rewrite
    assert any("EARLYWORD" in r for r in requests) and any("LATEWORD" in r for r in requests)
    assert invoke_json("search", "EARLYWORD", "--all")["total"] >= 1


def test_after_a_gc_a_self_heal_and_a_deletion_restore_gives_every_entry_once(claude_root: Path):
    path = _compacted(claude_root)
    entries = [json.loads(line) for line in path.read_bytes().splitlines()]
    invoke("archive")
    _gc_rewrite(path)
    invoke("archive")
    damaged = path.read_bytes().replace(b"LATEWORD", b"LATEWORD", 1)[:-5] + b"\n"  # a damaged last line
    path.write_bytes(damaged)
    invoke("archive")
    healed = damaged.splitlines(keepends=True)[:-1]
    path.write_bytes(b"".join(healed) + json.dumps(entries[-1]).encode() + b"\n")  # healed in place
    invoke("archive")
    assert len(_requests()) == 2
    _delete_as_the_client_does(claude_root)
    assert invoke("restore", SID).exit_code == 0
    uuids = [json.loads(line).get("uuid") for line in path.read_bytes().splitlines() if line.strip().endswith(b"}")]
    assert sorted(u for u in uuids if u) == sorted(e["uuid"] for e in entries if e.get("uuid"))


def _session_folder(root: Path) -> dict[str, bytes]:
    """The files the client keeps in a session's folder, beside its agent logs."""
    folder = root / "projects" / PROJECT / SID
    files = {
        "tool-results/toolu_01big.txt": b"SPILLED OUTPUT " * 5000,
        "custom-title.json": b'{"title": "parser work"}',
        "precompact.json": b'{"trigger": "manual"}',
        "subagents/workflows/run1/journal.jsonl": b'{"step": 1}\n',
    }
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return files


def test_every_file_of_a_session_is_archived_and_restored(claude_root: Path):
    _compacted(claude_root)
    files = _session_folder(claude_root)
    assert invoke("archive").exit_code == 0
    _delete_as_the_client_does(claude_root)
    assert invoke("restore", SID).exit_code == 0
    folder = claude_root / "projects" / PROJECT / SID
    for name, data in files.items():
        assert (folder / name).read_bytes() == data, name


def test_a_plan_archived_by_the_archive_command_comes_back_with_restore(claude_root: Path):
    _compacted(claude_root, slug="brave-parsing-otter")
    plan = claude_root / "plans" / "brave-parsing-otter.md"
    plan.parent.mkdir()
    plan.write_text("# Plan\n1. build the parser\n")
    assert invoke("archive").exit_code == 0
    _delete_as_the_client_does(claude_root)
    plan.unlink()
    assert invoke("restore", SID).exit_code == 0
    assert plan.read_text() == "# Plan\n1. build the parser\n"


def _age_archive(state: str, days: float) -> None:
    for path in Path(state, "archive").rglob("*.gz.json"):
        manifest = json.loads(path.read_text())
        path.write_text(json.dumps({**manifest, "archived": time.time() - days * 86400}))


def test_pruning_one_claude_root_never_touches_another_roots_archive(claude_root: Path, tmp_path: Path):
    other = tmp_path / "other-root"
    (other / "projects").mkdir(parents=True)
    _compacted(claude_root)
    other_sid = "8b8b0000-1111-4222-8333-444455556666"
    _compacted(other, other_sid)
    assert invoke("archive").exit_code == 0
    assert invoke("archive", "--claude-dir", str(other)).exit_code == 0
    _delete_as_the_client_does(claude_root)
    state = os.environ["SESSION_KIT_HOME"]
    _age_archive(state, 400)
    Path(state, "config.json").write_text(json.dumps({"archive": {"keep_days": 30}}))
    assert invoke_json("archive", "--prune", "--claude-dir", str(other))["pruned"] == 0
    assert invoke("restore", SID).exit_code == 0  # still in its own root's archive
    assert invoke("restore", SID, "--claude-dir", str(other)).exit_code == 3  # never in the other's
    _delete_as_the_client_does(claude_root)
    assert invoke_json("archive", "--prune")["pruned"] == 1
    assert invoke("restore", SID).exit_code == 3


def test_an_archive_from_before_roots_were_kept_apart_is_moved_under_the_first_root(claude_root: Path):
    _compacted(claude_root)
    assert invoke("archive").exit_code == 0
    state = Path(os.environ["SESSION_KIT_HOME"], "archive")
    [keyed] = (state / "roots").iterdir()
    (keyed / "files").rename(state / "files")  # the layout of earlier versions
    shutil.rmtree(state / "roots")
    _delete_as_the_client_does(claude_root)
    assert invoke("restore", SID).exit_code == 0
    assert not (state / "files").exists()
    assert invoke_json("archive")["bytes"] == 0  # nothing copied again


def test_what_the_archive_writes_with_transcript_text_is_private(claude_root: Path):
    path = _compacted(claude_root)
    _session_folder(claude_root)
    invoke("archive")
    _gc_rewrite(path)
    invoke("archive")
    invoke("show", SID)
    _delete_as_the_client_does(claude_root)
    invoke("show", SID)
    archive = Path(os.environ["SESSION_KIT_HOME"], "archive")
    seen = 0
    for folder, _dirs, names in os.walk(archive):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700, folder
        for name in names:
            seen += 1
            assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) == 0o600, name
    assert any(archive.rglob("earlier/**/*.jsonl")) and any(archive.rglob("view/**/*.jsonl")) and seen > 10


def test_preprocess_and_memory_read_the_history_a_rewrite_dropped(claude_root: Path):
    path = _compacted(claude_root)
    invoke("archive")
    _gc_rewrite(path)
    preprocessed = invoke("preprocess", SID, "--stdout")
    assert preprocessed.exit_code == 0, preprocessed.output
    assert "EARLYWORD" in preprocessed.stdout and "LATEWORD" in preprocessed.stdout
    memory = invoke("memory", SID)
    assert memory.exit_code == 0, memory.output
    assert "earlier entries" in memory.stderr


def test_a_deleted_rewritten_session_is_searched_once_however_often_the_index_updates(claude_root: Path):
    path = _compacted(claude_root)
    invoke("archive")
    _gc_rewrite(path)
    invoke("archive")
    _delete_as_the_client_does(claude_root)
    first = invoke_json("search", "EARLYWORD", "--all")["total"]
    assert first >= 1
    assert invoke_json("search", "EARLYWORD", "--all")["total"] == first


def test_a_secret_kept_only_by_an_earlier_generation_is_found_and_scrubbed(claude_root: Path):
    key = "AKIA" + "Q7XW2M4N8P3R5T6V"
    t = Transcript(SID, cwd="/work/proj")
    t.user(f"EARLYWORD deploy with {key}")
    t.say("deployed")
    t.compact("Summary: deployed.")
    t.user("LATEWORD now the docs")
    path = t.write_session(claude_root)
    invoke("archive")
    _gc_rewrite(path)
    invoke("archive")
    assert key.encode() not in path.read_bytes()
    found = invoke("secrets", SID, "--json")
    assert found.exit_code == 8 and key not in found.stdout
    assert any(h["where"] == "archive" for h in json.loads(found.stdout)["hits"])
    assert invoke("secrets", SID, "--scrub").exit_code == 0
    archive = Path(os.environ["SESSION_KIT_HOME"], "archive")
    from session_kit.archive import layout, store

    [base] = [b for b, _root in layout.all_bases(os.environ["SESSION_KIT_HOME"])]
    rel = f"projects/{PROJECT}/{SID}.jsonl"
    assert key.encode() not in store.read_original(base, rel)
    assert all(key.encode() not in p.read_bytes() for p in archive.rglob("earlier/**/*.jsonl"))
    assert invoke_json("search", "EARLYWORD", "--all")["total"] >= 1
    assert invoke("archive", "--verify").exit_code == 0

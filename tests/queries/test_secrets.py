"""Which files `secrets` reads, and the line it names for each secret, however the file is read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from session_kit.queries import secrets
from session_kit.queries.secrets import find_in, scope_of

KEY = "sk-ant-api03-Xk3j9dQ2mZp8vR7tY1uW4eN6bH0cL5aS-qwertyuiop"
SID = "0c1ea400-0000-0000-0000-000000000003"


def test_lines_cut_across_reads_keep_their_numbers(claude_root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(secrets, "BLOCK", 64)  # every line is cut across several reads
    project = claude_root / "projects" / "-work-proj"
    project.mkdir()
    lines = [{"text": "x" * n} for n in (10, 300, 5)] + [
        {"text": "y" * 200 + " " + KEY},
        {"text": "é" * 90},
        {"text": KEY},
    ]
    (project / f"{SID}.jsonl").write_text("".join(json.dumps(v, ensure_ascii=False) + "\n" for v in lines)[:-1])
    report = find_in(claude_root, None, scope_of(claude_root, all_projects=True))
    assert [(h.line, h.kind, h.session) for h in report.hits] == [
        (4, "anthropic-api-key", SID),
        (6, "anthropic-api-key", SID),
    ]


def test_the_clients_memory_folder_and_other_projects_are_not_a_sessions(claude_root: Path):
    for project in ("-work-proj", "-work-other"):
        (claude_root / "projects" / project / "memory").mkdir(parents=True)
        (claude_root / "projects" / project / "memory" / "notes.md").write_text(f"token {KEY}\n")
        (claude_root / "projects" / project / f"{SID}.jsonl").write_text(json.dumps({"text": KEY}) + "\n")
    report = find_in(claude_root, None, scope_of(claude_root, project_path="/work/proj"))
    assert [Path(h.path).parent.name for h in report.hits] == ["-work-proj"]


def test_a_secret_kept_only_in_a_set_aside_copy_is_found_with_its_session_and_line(claude_root: Path):
    """`<id>.jsonl.superseded-<ms>` (2.1.328 and later) is a whole earlier transcript: read as
    JSON Lines, its secrets named by session and line, as the live file's are."""
    project = claude_root / "projects" / "-work-proj"
    project.mkdir()
    (project / f"{SID}.jsonl").write_text(json.dumps({"sessionId": SID, "text": "nothing here"}) + "\n")
    aside = project / f"{SID}.jsonl.superseded-1764000000000"
    aside.write_text(json.dumps({"text": "before"}) + "\n" + json.dumps({"text": f"key {KEY}"}) + "\n")
    for scope in (scope_of(claude_root, all_projects=True), scope_of(claude_root, session=SID)):
        report = find_in(claude_root, None, scope)
        assert [(Path(h.path).name, h.line, h.kind, h.session) for h in report.hits] == [
            (aside.name, 2, "anthropic-api-key", SID)
        ]


def test_a_set_aside_copy_is_archived_with_its_session_and_scrubbed_there(claude_root: Path, tmp_path: Path):
    """The archive takes `<id>.jsonl.superseded-<ms>` through the one layout walk, and
    `--scrub` rewrites its archived copy like any transcript's."""
    from session_kit.archive import catalogue, layout, store
    from session_kit.queries.scrub import scrub
    from session_kit.queries.secrets import Scope

    project = claude_root / "projects" / "-work-proj"
    project.mkdir()
    (project / f"{SID}.jsonl").write_text(json.dumps({"sessionId": SID, "text": "nothing here"}) + "\n")
    aside = project / f"{SID}.jsonl.superseded-1764000000000"
    aside.write_text(json.dumps({"text": "before"}) + "\n" + json.dumps({"text": f"key {KEY}"}) + "\n")
    state = str(tmp_path / "state")
    base = layout.base_dir(state, str(claude_root), create=True)
    catalogue.archive_everything(base, str(claude_root))
    rel = f"projects/-work-proj/{aside.name}"
    assert layout.archived(base, rel).session == SID and KEY.encode() in store.read_original(base, rel)

    report = scrub(claude_root, state, Scope())
    assert [d["path"] for d in report.scrubbed] == [rel]
    after = store.read_original(base, rel)
    assert KEY.encode() not in after and len(after) == aside.stat().st_size
    assert KEY in aside.read_text(), "the client's file is left as it is without --client"

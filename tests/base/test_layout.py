"""The one walk of a Claude root and the one reading of a path (`base.layout`), and the one
head-field reader (`base.headfield`), on roots built with every layout the client wrote."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

from session_kit.base import headfield, layout
from session_kit.errors import Skipped
from tests.support.transcripts import Transcript

SID = "5e551011-0000-4000-8000-00000000000a"


def _root(tmp_path: Path) -> tuple[Path, Path]:
    """A project holding every file the client writes: a transcript, two set-aside copies of
    it, its subagents (with a meta file), a workflow run's agent, spilled tool output, a
    title file, a 2025 agent log beside it, an orphan session folder and the client's memory."""
    root = tmp_path / "claude"
    project = root / "projects" / "-work-proj"
    main = Transcript(SID)
    main.user("hello")
    main.write(project / f"{SID}.jsonl")
    main.write(project / f"{SID}.jsonl.superseded-1764000000000")
    main.write(project / f"{SID}.jsonl.superseded-1764000000001")
    sub = project / SID / "subagents"
    Transcript(SID, agent_id="a1").write(sub / "agent-a1.jsonl")
    (sub / "agent-a1.meta.json").write_text(json.dumps({"agentType": "Explore"}))
    Transcript(SID, agent_id="acompact-1").write(sub / "agent-acompact-1.jsonl")
    Transcript(SID, agent_id="w1").write(sub / "workflows" / "run-1" / "agent-w1.jsonl")
    (project / SID / "tool-results").mkdir()
    (project / SID / "tool-results" / "toolu_1.txt").write_text("spilled")
    (project / SID / "custom-title.json").write_text("{}")
    Transcript(SID, agent_id="old1").write(project / "agent-old1.jsonl")
    Transcript("orphan-0001", agent_id="o1").write(project / "orphan-0001" / "subagents" / "agent-o1.jsonl")
    (project / "memory").mkdir()
    (project / "memory" / "notes.md").write_text("notes")
    return root, project


def _found(items) -> list[tuple[str, str | None, str | None, str]]:
    return [(f.kind, f.session, f.agent, os.path.basename(f.path)) for f in items]


def test_the_walk_of_a_project_names_each_file_by_its_place(tmp_path: Path):
    root, project = _root(tmp_path)
    assert layout.project_folders(str(root)) == [str(project)]
    assert _found(layout.project_files(str(project))) == [
        ("subagents", SID, "a1", "agent-a1.jsonl"),
        ("subagents", SID, "acompact-1", "agent-acompact-1.jsonl"),
        ("workflow", SID, "w1", "agent-w1.jsonl"),
        ("transcript", SID, None, f"{SID}.jsonl"),
        ("set-aside", SID, None, f"{SID}.jsonl.superseded-1764000000000"),
        ("set-aside", SID, None, f"{SID}.jsonl.superseded-1764000000001"),
        ("legacy", None, "old1", "agent-old1.jsonl"),
        ("subagents", "orphan-0001", "o1", "agent-o1.jsonl"),
    ]


def test_the_walk_with_contents_gives_every_file_of_a_session_folder(tmp_path: Path):
    _claude, project = _root(tmp_path)
    found = _found(layout.project_files(str(project), folders=SID.__eq__, contents=True))
    assert [f for f in found if f[1] == SID and f[0] not in ("transcript", "set-aside")] == [
        ("session-file", SID, None, "custom-title.json"),
        ("subagents", SID, "a1", "agent-a1.jsonl"),
        ("session-file", SID, None, "agent-a1.meta.json"),
        ("subagents", SID, "acompact-1", "agent-acompact-1.jsonl"),
        ("workflow", SID, "w1", "agent-w1.jsonl"),
        ("session-file", SID, None, "toolu_1.txt"),
    ]
    assert "notes.md" not in {f[3] for f in found}  # the client's memory folder is no session's


def test_the_listing_of_sessions_never_takes_a_set_aside_copy_for_a_session(tmp_path: Path):
    _claude, project = _root(tmp_path)
    folders: set[str] = set()
    assert [sid for sid, _path, _st in layout.session_entries(str(project), folders)] == [SID]
    assert folders == {SID, "orphan-0001", "memory"}


def test_a_symlink_loop_in_a_session_folder_is_skipped_with_a_note(tmp_path: Path):
    _claude, project = _root(tmp_path)
    (project / SID / "subagents" / "workflows" / "loop").symlink_to(project / SID / "subagents")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = _found(layout.agent_logs(str(project / SID), SID, project.name))
    assert [f[3] for f in found] == ["agent-a1.jsonl", "agent-acompact-1.jsonl", "agent-w1.jsonl"]
    assert [str(w.message) for w in caught if issubclass(w.category, Skipped)] == [
        f"skipped {project / SID / 'subagents' / 'workflows' / 'loop'}: a symlink loop (a link to a folder above it)"
    ]


@pytest.mark.parametrize(
    ("rel", "expected"),
    [
        (f"-p/{SID}.jsonl", ("-p", SID, None, "transcript")),
        (f"-p/{SID}.jsonl.superseded-1764000000000", ("-p", SID, None, "set-aside")),
        (f"-p/{SID}.jsonl.superseded-soon", ("-p", None, None, "project-file")),
        ("-p/agent-a1.jsonl", ("-p", None, "a1", "legacy")),
        (f"-p/{SID}/subagents/agent-a1.jsonl", ("-p", SID, "a1", "subagents")),
        (f"-p/{SID}/subagents/workflows/r/agent-w1.jsonl", ("-p", SID, "w1", "workflow")),
        (f"-p/{SID}/subagents/agent-a1.meta.json", ("-p", SID, None, "session-file")),
        (f"-p/{SID}/tool-results/t.txt", ("-p", SID, None, "session-file")),
        ("-p", None),
        ("", None),
    ],
)
def test_where_tells_a_paths_root_project_session_and_agent(tmp_path: Path, rel: str, expected):
    root = str(tmp_path / "claude")
    path = os.path.join(root, "projects", rel) if rel else root
    for place in (layout.where(path, root), layout.where(path) if expected else None):
        got = None if place is None else (place.project, place.session, place.agent, place.kind)
        assert got == expected
        if place is not None:
            assert place.root == root and place.project_dir == os.path.join(root, "projects", "-p")
    assert layout.where(path, str(tmp_path / "elsewhere")) is None


def test_where_without_a_root_takes_the_nearest_projects_folder_above(tmp_path: Path):
    path = str(tmp_path / "projects" / "home" / ".claude" / "projects" / "-p" / f"{SID}.jsonl")
    place = layout.where(path)
    assert (place.root, place.session) == (str(tmp_path / "projects" / "home" / ".claude"), SID)
    assert layout.where(str(tmp_path / "projects" / f"{SID}.jsonl")) is None
    assert layout.where_rel(f"projects/-p/{SID}.jsonl").session == SID
    assert layout.where_rel(f"plans/{SID}.md") is None


@pytest.mark.parametrize(
    ("head", "value"),
    [
        (b'{"type":"user","sessionId":"s-1"}\n', "s-1"),
        (b'{"type": "user", "sessionId" : "s-2"}\n', "s-2"),
        (b'{"sessionId":""}\n{"sessionId":"s-3"}\n', "s-3"),  # the first non-empty
        (b'{"sessionId":null,"x":"sessionId"}\n{"sessionId":"s-4"}\n', "s-4"),
        (b'{"text":"\\"sessionId\\":\\"fake\\""}\n{"sessionId":"s-5"}\n', "s-5"),  # inside a string
        (b'{"cwd":"/w/\\"q\\"/caf\\u00e9"}\n', '/w/"q"/café'),
        (b"\xef\xbb\xbf" + b'{"sessionId":"s-6"}', "s-6"),
        (b'{"type":"summary"}\n', None),
    ],
)
def test_head_field_reads_the_first_value_written_as_the_client_writes_it(tmp_path: Path, head: bytes, value):
    path = tmp_path / "t.jsonl"
    path.write_bytes(head)
    key = b"cwd" if b'"cwd"' in head else b"sessionId"
    assert headfield.head_field(str(path), key) == value


def test_head_field_reads_only_the_head_and_never_a_value_it_cut(tmp_path: Path):
    path = tmp_path / "t.jsonl"
    path.write_bytes(b'{"x":"' + b"y" * 100 + b'"}\n{"sessionId":"' + b"z" * 50 + b'"}\n')
    assert headfield.head_field(str(path), b"sessionId", limit=110) is None  # not there within the head
    assert headfield.head_field(str(path), b"sessionId", limit=140) is None  # the value is cut
    assert headfield.head_field(str(path), b"sessionId") == "z" * 50


def test_head_field_never_waits_on_a_fifo(tmp_path: Path):
    fifo = tmp_path / "agent-x.jsonl"
    os.mkfifo(fifo)
    assert headfield.head_field(str(fifo), b"sessionId") is None

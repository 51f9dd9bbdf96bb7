"""Projects, sessions and agent logs on disk: listed, newest first, each session's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.base.encoding import encode_project_dir
from session_kit.errors import NotFound
from session_kit.sessions.store import (
    LAYOUT_WORKFLOW,
    find_agent_logs,
    find_project,
    find_session_by_id,
    list_all_sessions,
    list_sessions,
    orphan_agent_logs,
    session_ref_from_path,
)
from tests.support import dialects
from tests.support.sessions import make_session
from tests.support.transcripts import Transcript


def test_sessions_are_listed_newest_first_without_agent_logs(claude_root: Path):
    parent = make_session(claude_root, "aaaa1111", mtime=1000)
    make_session(claude_root, "bbbb2222", mtime=3000)
    make_session(claude_root, "cccc3333", mtime=2000)
    Transcript(parent.session_id, agent_id="x1").write_legacy_agent(claude_root, parent)
    project = claude_root / "projects" / encode_project_dir("/work/proj")
    assert [s.id for s in list_sessions(project)] == ["bbbb2222", "cccc3333", "aaaa1111"]


def test_agent_logs_in_both_layouts_belong_to_their_session_only(claude_root: Path):
    mine = make_session(claude_root, "s-mine")
    other = make_session(claude_root, "s-other")

    def agent(parent: Transcript, agent_id: str) -> Transcript:
        t = Transcript(parent.session_id, agent_id=agent_id)
        t.user("agent prompt")
        return t

    agent(mine, "cur1").write_subagent(claude_root, mine, meta={"agentType": "Plan", "toolUseId": "toolu_1"})
    agent(mine, "old1").write_legacy_agent(claude_root, mine)
    agent(other, "old2").write_legacy_agent(claude_root, other)
    [ref] = [s for s in list_all_sessions(claude_root) if s.id == "s-mine"]
    logs = find_agent_logs(ref)
    assert [(log.agent_id, log.layout) for log in logs] == [("cur1", "subagents"), ("old1", "legacy")]
    assert logs[0].agent_type == "Plan" and logs[0].tool_use_id == "toolu_1"


def test_a_project_is_found_from_a_folder_inside_it(claude_root: Path):
    make_session(claude_root, "s1", cwd="/work/proj")
    assert find_project(claude_root, "/work/proj/a/b").name == encode_project_dir("/work/proj")


def test_a_renamed_project_folder_is_found_by_the_cwd_recorded_inside_it(claude_root: Path):
    t = Transcript("s2", cwd="/strange/place")
    t.user("x")
    t.write(claude_root / "projects" / "renamed-by-someone" / "s2.jsonl")
    assert find_project(claude_root, "/strange/place").name == "renamed-by-someone"


def test_a_folder_of_no_project_has_none(claude_root: Path):
    make_session(claude_root, "s1", cwd="/work/proj")
    assert find_project(claude_root, "/nowhere") is None


# --- layouts of every generation -------------------------------------------------------------


def test_workflow_agents_are_found_with_their_layout(claude_root: Path):
    three = dialects.subagents_2_1(claude_root)
    logs = find_agent_logs(find_session_by_id(claude_root, three.session.session_id))
    assert [(log.agent_id, log.layout) for log in logs if log.layout == LAYOUT_WORKFLOW] == [
        (three.workflow, LAYOUT_WORKFLOW)
    ]


def test_warmup_logs_are_told_apart(claude_root: Path):
    two = dialects.legacy_2_0(claude_root)
    logs = find_agent_logs(find_session_by_id(claude_root, two.session.session_id))
    assert sorted(log.agent_id for log in logs if log.warmup) == sorted(two.warmups)


def test_agent_logs_whose_session_is_gone_are_orphans(claude_root: Path, tmp_path: Path):
    odd = dialects.odd_files(claude_root, tmp_path / "elsewhere")
    found = orphan_agent_logs(odd.orphan_legacy.parent)
    assert sorted((sid, log.path) for sid, log in found) == [
        ("0a0a0000-dead-0000-0000-000000000001", odd.orphan_legacy),
        ("0a0a0000-dead-0000-0000-000000000002", odd.orphan_subagent),
    ]
    three = odd.agent_log.parents[2]
    assert orphan_agent_logs(three) == []  # its session is there


@pytest.mark.parametrize("known", [[], ["0a0a0000-dead-0000-0000-000000000002"]])
def test_orphans_found_from_sessions_the_caller_listed_are_the_orphans_found_by_listing(
    claude_root: Path, tmp_path: Path, known: list[str]
):
    odd = dialects.odd_files(claude_root, tmp_path / "elsewhere")
    for project in {odd.orphan_legacy.parent, odd.agent_log.parents[2]}:
        listed = [s.id for s in list_sessions(project)]
        # The caller may know all of the project's sessions, some, or none; a session id it
        # names wrongly (its file is gone) leaves that session's agents unsearched, as asked.
        for ids in (listed, listed[:1], []):
            assert orphan_agent_logs(project, known_sessions=ids) == orphan_agent_logs(project)
    gone = odd.orphan_legacy.parent
    assert len(orphan_agent_logs(gone, known_sessions=known)) == 2 - len(known)


def test_a_file_named_like_a_session_elsewhere_makes_no_agent_log_less_orphaned(claude_root: Path, tmp_path: Path):
    odd = dialects.odd_files(claude_root, tmp_path / "elsewhere")
    project = odd.orphan_legacy.parent
    outside = project.parent / "0a0a0000-dead-0000-0000-000000000001.jsonl"
    outside.write_text("{}\n")
    assert orphan_agent_logs(project, known_sessions=[]) == orphan_agent_logs(project)


def test_a_named_file_that_holds_no_entries_is_not_a_transcript(tmp_path: Path):
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(NotFound, match="not a transcript"):
        session_ref_from_path(passwd)
    empty = tmp_path / "new.jsonl"
    empty.write_text("")
    assert session_ref_from_path(empty).id == "new"  # a session just started


# --- what is not a session, and what cannot be read ------------------------------------------


def test_a_fifo_or_a_folder_named_like_a_session_is_no_session_and_is_named_as_skipped(claude_root: Path):
    import os
    import warnings

    from session_kit.errors import Skipped

    t = make_session(claude_root, "real-one")
    project = claude_root / "projects" / encode_project_dir(t.cwd)
    os.mkfifo(project / "pipe.jsonl")
    (project / "folder.jsonl").mkdir()
    (project / "loop.jsonl").symlink_to(project / "loop.jsonl")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        listed = [s.id for s in list_sessions(project)]
    assert listed == ["real-one"]
    notes = [str(w.message) for w in caught if issubclass(w.category, Skipped)]
    assert any("pipe.jsonl: not a regular file" in n for n in notes)
    assert any("loop.jsonl" in n for n in notes)


def test_an_unreadable_project_is_skipped_and_named_while_every_other_is_listed(claude_root: Path, monkeypatch):
    import os
    import warnings

    from session_kit.errors import Skipped

    make_session(claude_root, "readable", cwd="/work/a")
    make_session(claude_root, "locked-away", cwd="/work/b")
    locked = str(claude_root / "projects" / encode_project_dir("/work/b"))
    scandir = os.scandir

    def refusing(path=".", *args):
        if os.fspath(path) == locked:
            raise PermissionError(13, "Permission denied", locked)
        return scandir(path, *args)

    monkeypatch.setattr(os, "scandir", refusing)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        listed = [s.id for s in list_all_sessions(claude_root)]
    assert listed == ["readable"]
    assert [str(w.message) for w in caught if issubclass(w.category, Skipped)] == [
        f"skipped {locked}: Permission denied"
    ]


def test_a_folder_or_fifo_named_like_an_agent_log_is_no_agent(claude_root: Path):
    import os

    import pytest

    from session_kit.errors import Skipped

    t = make_session(claude_root, "with-agents")
    project = claude_root / "projects" / encode_project_dir(t.cwd)
    (project / "agent-x.jsonl").mkdir()
    os.mkfifo(project / "agent-pipe.jsonl")
    subagents = project / "with-agents" / "subagents"
    subagents.mkdir(parents=True)
    (subagents / "agent-adir.jsonl").mkdir()
    os.mkfifo(subagents / "agent-apipe.jsonl")
    ref = list_sessions(project)[0]
    with pytest.warns(Skipped) as said:
        assert find_agent_logs(ref) == []
    assert {Path(str(w.message).split(": ")[0].removeprefix("skipped ")).name for w in said} == {
        "agent-x.jsonl",
        "agent-pipe.jsonl",
        "agent-adir.jsonl",
        "agent-apipe.jsonl",
    }


def test_a_project_and_every_project_at_once_is_refused_by_every_way_of_listing(claude_root: Path):
    from session_kit.errors import EXIT_USAGE, KitError
    from session_kit.sessions.listing import latest_first
    from session_kit.sessions.store import projects_in_scope, sessions_in_scope

    make_session(claude_root, "aaaa1111")
    for listing in (sessions_in_scope, projects_in_scope, latest_first):
        with pytest.raises(KitError, match="^--project and --all exclude each other$") as raised:
            listing(claude_root, project_path="/work/proj", all_projects=True)
        assert raised.value.exit_code == EXIT_USAGE


def test_a_set_aside_copy_named_by_its_path_is_read_as_its_sessions(claude_root: Path):
    """The client keeps earlier transcripts as `<id>.jsonl.superseded-<ms>` (2.1.328 and later)."""
    path = claude_root / "projects" / "-p" / "abc.jsonl.superseded-1764000000000"
    path.parent.mkdir(parents=True)
    path.write_text('{"type":"user","sessionId":"abc"}\n')
    assert session_ref_from_path(path).id == "abc"
    assert [s.id for s in list_sessions(path.parent)] == []  # never a second live session


def test_a_renamed_session_file_keeps_its_2025_agent_logs(claude_root: Path):
    """A file's name need not be its session's id (a copy, a renamed file): its 2025-layout
    agent logs are found by the id it records."""
    main = Transcript(version="2.0.30")
    main.user("Find the parser")
    main.say("Done.")
    path = main.write_session(claude_root)
    renamed = path.with_name(f"session-{path.name}")
    path.rename(renamed)
    agent = Transcript(main.session_id, agent_id="12345678", version="2.0.30")
    agent.user("Look for the parser")
    agent.say("It is in src/parse.py.")
    agent.write_legacy_agent(claude_root, main)
    logs = find_agent_logs(session_ref_from_path(renamed))
    assert [log.agent_id for log in logs] == ["12345678"]

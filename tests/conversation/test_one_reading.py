"""`preprocess` and `view` read a conversation the same way: each decision is made once."""

from __future__ import annotations

from pathlib import Path

from session_kit.preprocess import PreprocessOptions, preprocess_session
from session_kit.sessions.resolve import resolve_session
from session_kit.sessions.store import session_ref_from_path
from session_kit.view.build import ViewOptions, build_page
from session_kit.view.model import Call, Compaction, Message
from tests.support.transcripts import Transcript


def _resumed_into_itself(root: Path) -> Transcript:
    t = Transcript("5e5e0000-0000-0000-0000-000000000023")
    t.user("the one request")
    t.bash("ls", "a")
    t.compact("compacted once")
    t.say("done")
    path = t.write_session(root)
    path.write_text(t.text() * 3)  # resumed or copied: the same entries, the same uuids
    return t


def test_preprocess_writes_each_entry_of_a_file_copied_into_itself_once(tmp_path: Path):
    t = _resumed_into_itself(tmp_path / "root")
    ref = session_ref_from_path(next((tmp_path / "root").rglob("*.jsonl")))
    result = preprocess_session(ref, PreprocessOptions(output_dir=tmp_path / "out", filtering=False))
    xml = "".join(d.path.read_text(encoding="utf-8") for d in result.documents)
    assert xml.count("the one request") == 1 and xml.count("<tool_use ") == 1 and xml.count("<tool_result") == 1
    assert xml.count("<compact_boundary") == 1 and xml.count("compacted once") == 1
    assert result.read.repeated == 2 * len(t.lines)


def test_view_shows_each_entry_of_a_file_copied_into_itself_once(tmp_path: Path):
    t = _resumed_into_itself(tmp_path)
    page, read, _ = build_page(resolve_session(t.session_id, tmp_path), ViewOptions())
    items = page.threads[0].items
    assert [i.status for i in items if isinstance(i, Call)] == ["ok"]
    assert sum(isinstance(i, Compaction) for i in items) == 1
    assert [i.text.text for i in items if isinstance(i, Message) and i.kind is None] == ["the one request"]
    assert read.repeated == 2 * len(t.lines)


def _one_id_used_three_times(root: Path) -> Transcript:
    t = Transcript("5e5e0000-0000-0000-0000-000000000024")
    t.user("run three things")
    for n in range(3):
        t.tool_use("Bash", {"command": f"step {n}"}, call_id="toolu_same")
        if n == 1:
            t.tool_result("toolu_same", "Exit code 1\nstep 1 failed", is_error=True)
        else:
            t.tool_result("toolu_same", f"step {n} ok")
    t.say("done")
    t.write_session(root)
    return t


def test_view_pairs_calls_that_share_an_id_in_order_as_every_command_does(tmp_path: Path):
    from session_kit.sessions.session import Session

    t = _one_id_used_three_times(tmp_path)
    ref = resolve_session(t.session_id, tmp_path)
    expected = [(c.summary, c.status) for c in Session(ref).all_calls()]
    page, _, _ = build_page(ref, ViewOptions())
    shown = [(c.summary, c.status) for c in page.threads[0].items if isinstance(c, Call)]
    assert shown == expected == [("step 0", "ok"), ("step 1", "error"), ("step 2", "ok")]


def test_preprocess_names_each_result_by_the_call_it_answers_as_every_command_pairs_them(tmp_path: Path):
    t = Transcript("5e5e0000-0000-0000-0000-000000000025")
    t.user("look, then count")
    t.assistant(
        {"type": "tool_use", "id": "toolu_twice", "name": "Read", "input": {"file_path": "/a"}},
        {"type": "tool_use", "id": "toolu_twice", "name": "Bash", "input": {"command": "wc -l /a"}},
    )
    t.tool_result("toolu_twice", "line one")
    t.tool_result("toolu_twice", "1 /a")
    t.say("one line")
    path = t.write_session(tmp_path / "root")
    result = preprocess_session(session_ref_from_path(path), PreprocessOptions(output_dir=tmp_path / "out"))
    xml = "".join(d.path.read_text(encoding="utf-8") for d in result.documents)
    assert xml.count('tool="Read"') == 1 and xml.count('tool="Bash"') == 1

"""What `view` shows of the client's bookkeeping and of types nobody knows: nothing raw."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.sessions.resolve import resolve_session
from session_kit.view.build import ViewOptions, build_page
from session_kit.view.model import Note
from session_kit.view.page import FORMAT_HTML, FORMAT_MARKDOWN, render
from tests.support.dialects import BOOKKEEPING_MARK, every_type_2_1_330
from tests.support.transcripts import Transcript


def test_hook_progress_mode_changes_and_attachments_are_not_items_of_the_page(tmp_path: Path):
    built = every_type_2_1_330(tmp_path)
    page, _, _ = build_page(resolve_session(built.session.session_id, tmp_path), ViewOptions())
    [main] = page.threads
    notes = [(i.label, i.text.text) for i in main.items if isinstance(i, Note)]
    assert notes == [("informational", "Hooks ran")]
    assert len(main.items) < 20  # 6 calls, 4 messages, a compaction, its summary, one note


@pytest.mark.parametrize("fmt", [FORMAT_HTML, FORMAT_MARKDOWN])
def test_no_bookkeeping_line_reaches_the_page_in_any_format(tmp_path: Path, fmt: str):
    built = every_type_2_1_330(tmp_path)
    text, _, _, _ = render(resolve_session(built.session.session_id, tmp_path), fmt=fmt, options=ViewOptions())
    for raw in (BOOKKEEPING_MARK, "parentUuid", "hook_progress", "permissionMode"):
        assert raw not in text


def test_an_entry_of_an_unknown_type_is_a_one_line_note_without_its_content(tmp_path: Path):
    t = Transcript("c0ffee00-0000-0000-0000-000000000024", version="2.1.330")
    t.user("Look at the logs")
    t.raw({"type": "brand-new-entry", "sessionId": t.session_id, "payload": {"secret": "UNKNOWN_CONTENT"}})
    t.assistant({"type": "hologram", "data": "UNKNOWN_BLOCK_CONTENT"})
    t.say("All fine.")
    t.write_session(tmp_path)
    ref = resolve_session(t.session_id, tmp_path)
    page, _, _ = build_page(ref, ViewOptions())
    notes = [(i.label, i.text.text) for i in page.threads[0].items if isinstance(i, Note)]
    assert notes == [("brand-new-entry", ""), ("hologram", "")]
    for fmt in (FORMAT_HTML, FORMAT_MARKDOWN):
        text = render(ref, fmt=fmt, options=ViewOptions())[0]
        assert "UNKNOWN_CONTENT" not in text and "UNKNOWN_BLOCK_CONTENT" not in text


def test_a_note_without_content_is_one_line_not_a_box_to_open(tmp_path: Path):
    t = Transcript("c0ffee00-0000-0000-0000-000000000025", version="2.1.330")
    t.user("Look at the logs")
    t.raw({"type": "brand-new-entry", "sessionId": t.session_id, "payload": "UNKNOWN_CONTENT"})
    t.say("All fine.")
    t.write_session(tmp_path)
    html = render(resolve_session(t.session_id, tmp_path), fmt=FORMAT_HTML, options=ViewOptions())[0]
    assert '<p class="item note">brand-new-entry <small>' in html
    assert "<summary>brand-new-entry" not in html

"""`view_session`: a self-contained page or Markdown, the same bytes for the same input,
written whole to the session's scratch dir by default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from session_kit.errors import KitError
from session_kit.sessions.resolve import resolve_session
from session_kit.view.page import default_view_path, view_session
from session_kit.view.templates import fence
from tests.support.pages import unclosed_tags
from tests.support.sessions import build
from tests.support.transcripts import Transcript


@pytest.fixture
def built(tmp_path: Path):
    return build(tmp_path)


def ref_of(built):
    return resolve_session(built.current.session_id, built.root)


def test_the_same_session_gives_the_same_bytes(built, tmp_path: Path):
    first = view_session(ref_of(built), output=tmp_path / "a.html").path
    second = view_session(ref_of(built), output=tmp_path / "b.html").path
    assert first.read_bytes() == second.read_bytes()
    md = [view_session(ref_of(built), fmt="md", output=tmp_path / f"{n}.md").path.read_bytes() for n in "ab"]
    assert md[0] == md[1]


def test_the_page_asks_for_nothing_outside_itself(built, tmp_path: Path):
    html = view_session(ref_of(built), output=tmp_path / "p.html").path.read_text()
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html  # the browser refuses any request, too


def test_every_tag_is_closed_in_order_and_markup_in_the_session_is_text(tmp_path: Path):
    t = Transcript("3a2b0000-0000-0000-0000-000000000001")
    t.user("<script>alert(1)</script> </details></section>")
    t.bash("echo '<b>x</b>'", "<img src=x onerror=alert(1)>")
    t.write_session(tmp_path)
    html = view_session(resolve_session(t.session_id, tmp_path), output=tmp_path / "p.html").path.read_text()
    assert unclosed_tags(html) == []
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<img src=x" not in html


def test_by_default_the_page_goes_to_the_sessions_scratch_dir(built):
    result = view_session(ref_of(built))
    assert result.path == default_view_path(ref_of(built)) and result.path.is_file()
    assert result.path.name == f"view-{built.current.session_id}.html"
    assert result.bytes == result.path.stat().st_size


def test_a_folder_that_does_not_exist_is_a_clear_error_and_leaves_nothing(built, tmp_path: Path):
    with pytest.raises(KitError, match="no folder"):
        view_session(ref_of(built), output=tmp_path / "missing" / "p.html")
    assert not (tmp_path / "missing").exists()


def test_markdown_holds_the_conversation_without_the_timeline(built, tmp_path: Path):
    md = view_session(ref_of(built), fmt="md", output=tmp_path / "p.md").path.read_text()
    assert "Please build the feature" in md and "SENTINEL_FAILURE" in md
    assert "<svg" not in md and "Timeline" not in md
    assert "## `general-purpose · Run the checks`" in md


def test_a_fence_is_longer_than_any_backtick_run_in_its_text():
    assert fence("plain") == "```"
    assert fence("a ```` b") == "`````"


def test_a_60_kb_output_is_cut_and_says_its_full_size(tmp_path: Path):
    t = Transcript("b1600000-0000-0000-0000-000000000001")
    t.user("go")
    t.bash("cat big", "\n".join("x" * 59 for _ in range(1000)))
    t.write_session(tmp_path)
    html = view_session(resolve_session(t.session_id, tmp_path), output=tmp_path / "p.html").path.read_text()
    assert "60,000 characters" in html or "59,999 characters" in html
    assert html.count("x" * 59) <= 120

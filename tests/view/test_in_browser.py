"""The page in a real headless Chromium: pages of the real client's files and of hand-made
sessions of each dialect load without a console error, show one lane per agent plus the
main one, mark a failed call in its lane and open its error when it is clicked, filter, and
stay readable with scripts off. Screenshots (light and dark, desktop and phone) go to
`build/screenshots/`."""

from __future__ import annotations

from pathlib import Path

import pytest

from session_kit.sessions.resolve import resolve_session
from session_kit.view.page import view_session
from tests.support.dialects import inline_1_0, legacy_2_0, subagents_2_1
from tests.support.sessions import build, build_planned
from tests.support.transcripts import Transcript

REPO = Path(__file__).resolve().parents[2]
REAL_ROOT = REPO / "tests" / "fixtures" / "real"
REAL_SESSION = "266f5872-b716-4df1-b42b-7ca857a257ae"
SCREENSHOTS = REPO / "build" / "screenshots"


def page_file(root: Path, session: str, out: Path) -> Path:
    result = view_session(resolve_session(session, root), output=out / f"{session}.html")
    assert result.path is not None
    return result.path


def open_page(browser, path: Path, **context):
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"request {r.url}") if not r.url.startswith("file:") else None)
    page.goto(path.as_uri())
    return ctx, page, problems


def seed_session(root: Path) -> str:
    t = Transcript("5eed0000-0000-0000-0000-00000000beef", dialect="seed", cwd="/work/seed")
    t.user("Seed docs dialect")
    t.bash("false", exit_code=1, stderr="SEED-FAILURE")
    t.say("It failed.")
    t.write_session(root)
    return t.session_id


def real_agent_count() -> int:
    folder = REAL_ROOT / "projects" / "-tmp-real-fixture-project" / REAL_SESSION / "subagents"
    return len(list(folder.glob("agent-*.meta.json")))


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """name -> (page file, lanes expected: the main one plus one per agent)."""
    root = tmp_path_factory.mktemp("claude")
    out = tmp_path_factory.mktemp("pages")
    built = build(root)
    planned = build_planned(root / "planned")
    inline, legacy, current = inline_1_0(root / "1.0"), legacy_2_0(root / "2.0"), subagents_2_1(root / "2.1")
    return {
        "real": (page_file(REAL_ROOT, REAL_SESSION, out), 1 + real_agent_count()),
        "current": (page_file(root, built.current.session_id, out), 3),
        "2025": (page_file(root, built.legacy.session_id, out), 2),
        "seed": (page_file(root, seed_session(root), out), 1),
        "nested": (page_file(root / "planned", planned.alpha.session_id, out), 5),
        "1.0-inline": (page_file(root / "1.0", inline.session.session_id, out), 3),
        "2.0-warmups": (page_file(root / "2.0", legacy.session.session_id, out), 2),
        # two agents with logs, a workflow agent, three whose logs are gone
        "2.1-missing-logs": (page_file(root / "2.1", current.session.session_id, out), 7),
    }


@pytest.mark.parametrize(
    "name", ["real", "current", "2025", "seed", "nested", "1.0-inline", "2.0-warmups", "2.1-missing-logs"]
)
def test_a_page_loads_without_console_errors_and_has_a_lane_per_agent(browser, pages, name: str):
    path, lanes = pages[name]
    ctx, page, problems = open_page(browser, path)
    try:
        assert page.locator(".lane").count() == lanes
        assert page.locator("#timeline svg.track").first.bounding_box()["width"] > 200
        assert problems == []
    finally:
        ctx.close()


def test_a_failed_call_is_marked_in_its_lane_and_opens_its_error_when_clicked(browser, pages):
    path, _ = pages["current"]
    ctx, page, problems = open_page(browser, path)
    try:
        worker = page.locator(".lane[data-lane='b0b000000000work']")
        assert "failed" in (worker.get_attribute("class") or "")
        bar = worker.locator("a.bar.error")
        assert bar.count() == 1
        target = bar.get_attribute("data-call")
        page.locator(f"details#{target}").evaluate("d => d.open = false")  # as if a person closed it
        bar.click()
        call = page.locator(f"details#{target}")
        assert call.evaluate("d => d.open")
        error = call.locator(".result.error pre").first
        assert "SENTINEL_FAILURE" in error.inner_text()
        assert error.is_visible()
        box, height = error.bounding_box(), page.viewport_size["height"]
        assert 0 <= box["y"] < height  # scrolled into view
        assert problems == []
    finally:
        ctx.close()


def test_focusing_a_bar_shows_the_calls_summary(browser, pages):
    path, _ = pages["current"]
    ctx, page, _ = open_page(browser, path)
    try:
        page.locator(".lane[data-lane='main'] a.bar").first.focus()
        tip = page.locator("#tip")
        assert tip.is_visible() and "Bash: echo hello" in tip.inner_text()
    finally:
        ctx.close()


def test_the_filter_hides_what_it_should(browser, pages):
    path, _ = pages["current"]
    ctx, page, problems = open_page(browser, path)
    try:
        items = page.locator("#conversation .item")
        total = items.count()
        page.fill("#q", "sentinel_failure")
        visible = page.locator("#conversation .item:visible")
        assert 0 < visible.count() < total
        assert all("SENTINEL_FAILURE" in t for t in visible.all_text_contents())
        page.fill("#q", "")
        page.check("#failures")
        statuses = page.locator("#conversation .item:visible").evaluate_all("els => els.map(e => e.dataset.status)")
        assert statuses == ["error", "error"]
        assert page.locator(".bar.error.dim").count() == 0 and page.locator(".bar.ok.dim").count() > 0
        page.uncheck("#failures")
        page.select_option("#tool", "Edit")
        tools = page.locator("#conversation .item:visible").evaluate_all("els => els.map(e => e.dataset.tool)")
        assert tools == ["Edit"]
        page.select_option("#tool", "")
        assert page.locator("#conversation .item:visible").count() == total
        assert problems == []
    finally:
        ctx.close()


def test_without_scripts_the_content_is_readable_and_the_timeline_is_a_picture(browser, pages):
    path, lanes = pages["nested"]
    ctx, page, _ = open_page(browser, path, java_script_enabled=False)
    try:
        assert page.locator("#filter").is_hidden()  # it needs the script
        assert page.locator(".lane").count() == lanes
        bars = page.locator(".track a.bar rect")
        assert bars.count() > 0 and bars.first.bounding_box()["width"] > 0
        assert page.get_by_text("Plan and build it").first.is_visible()
        failed = page.locator("details.call.error").first
        assert failed.evaluate("d => d.open")  # errors are open without any script
    finally:
        ctx.close()


VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_screenshots_light_and_dark_desktop_and_phone(browser, pages, scheme: str, device: str):
    path, _ = pages["nested"]
    ctx, page, problems = open_page(browser, path, viewport=VIEWPORTS[device], color_scheme=scheme)
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shot = SCREENSHOTS / f"{scheme}-{device}.png"
        # Items off screen are laid out only near the viewport (content-visibility): a
        # full-page picture needs them all drawn.
        page.add_style_tag(content="#conversation .item { content-visibility: visible; }")
        page.screenshot(path=str(shot), full_page=True)
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert (background == "rgb(255, 255, 255)") == (scheme == "light")
        # nothing wider than the screen: a phone never scrolls sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[device]["width"]
        assert shot.stat().st_size > 10_000 and problems == []
    finally:
        ctx.close()

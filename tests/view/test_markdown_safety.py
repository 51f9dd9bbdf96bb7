"""The Markdown view (`view --format md`, meant for issues and PRs) holds every piece of
transcript text in a code block or a code span (or escaped inside the few HTML elements the
page itself uses): no raw HTML, no live image, link or bare URL comes from a transcript."""

from __future__ import annotations

import re
from pathlib import Path

from session_kit.sessions.resolve import resolve_session
from session_kit.view.page import view_session
from tests.support.transcripts import Transcript

PAYLOAD = (
    '<img src=x onerror="alert(1)"> <script>alert(2)</script> ![pixel](https://evil.example/p.png) '
    "[click](https://evil.example/l) https://evil.example/bare www.evil.example ``` | a `` b"
)
# the only HTML the page writes itself
OWN_HTML = re.compile(r"</?details(?: open)?>|</?summary>")


def hostile_markdown_session(root: Path) -> Transcript:
    t = Transcript("3d000000-0000-0000-0000-000000000001", cwd=f"/work/{PAYLOAD}", branch=f"b{PAYLOAD}")
    t.summary_2025(f"title {PAYLOAD}")
    t.user(f"request {PAYLOAD}")
    t.say(f"answer {PAYLOAD}")
    t.bash(f"echo {PAYLOAD}", f"out {PAYLOAD}")
    t.bash(f"false {PAYLOAD}", exit_code=1, stderr=f"err {PAYLOAD}")
    t.tool_use("Custom", {f"key {PAYLOAD}": f"value {PAYLOAD}"})
    call = t.tool_use(
        "Agent", {"subagent_type": "general-purpose", "description": f"desc {PAYLOAD}", "prompt": f"do {PAYLOAD}"}
    )
    agent = Transcript(t.session_id, cwd=t.cwd, agent_id="a9e0000000000001", start=t.clock)
    agent.user(f"do {PAYLOAD}")
    agent.say(f"agent answer {PAYLOAD}")
    t.clock = agent.clock
    t.tool_result(call, [{"type": "text", "text": f"done {PAYLOAD}"}], extra={"agentId": agent.agent_id})
    t.compact(f"Summary: {PAYLOAD}", trigger=f"auto {PAYLOAD}")
    t.write_session(root)
    agent.write_subagent(
        root, t, meta={"agentType": f"type{PAYLOAD}", "description": f"desc {PAYLOAD}", "toolUseId": call}
    )
    return t


def outside_code(markdown: str) -> str:
    """The Markdown with its fenced code blocks and code spans taken out (CommonMark's rules:
    a block ends at a fence of the same character at least as long; a span at a backtick run
    of the same length)."""
    kept: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        if fence is None:
            opening = re.match(r"(`{3,})", line)
            if opening:
                fence = opening.group(1)
                continue
            kept.append(line)
        elif re.fullmatch(re.escape(fence) + "`*\\s*", line):
            fence = None
    text = "\n".join(kept)
    return re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", " ", text.replace("\\|", " "))


def test_no_transcript_text_is_live_markdown_or_html(tmp_path: Path):
    t = hostile_markdown_session(tmp_path)
    ref = resolve_session(t.session_id, tmp_path)
    markdown = view_session(ref, fmt="md", output=tmp_path / "v.md").path.read_text()
    assert markdown.count("alert(1)") >= 9  # the text is there, as text (the compaction trigger too)
    live = OWN_HTML.sub("", outside_code(markdown))
    for piece in ("<img", "<script", "![", "](", "https://", "www.", "://"):
        assert piece not in live, f"{piece!r} outside code:\n{live}"


def test_a_code_span_holds_backticks_and_pipes():
    from session_kit.view.templates import cell, code, html_line

    assert code("a ``b` c") == "```a ``b` c```"
    assert code("`x") == "`` `x ``"
    assert cell("a|b") == "`a\\|b`"
    assert code("two\nlines") == "`two lines`"
    assert html_line("<b>[x](https://y)</b>") == "&#60;b&#62;&#91;x&#93;&#40;https&#58;&#47;&#47;y&#41;&#60;&#47;b&#62;"

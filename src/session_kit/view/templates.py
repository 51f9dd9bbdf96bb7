"""The template engine of the view: one jinja2 environment per output format, and its filters.

Owns: loading the templates and the page's inline assets (`templates/`: the HTML page, its
style sheet and script, the Markdown conversation) from the package, the filters the
templates share (times in UTC, durations, numbers; Markdown fences, code spans and escapes,
which hold all transcript text in the Markdown view so none of it is live HTML, a link or an
image), and rendering
a page model with one of them. jinja2 is imported here only, and this module only when a view
is rendered, so no other command pays for it. Does not build the model (that is `build`).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import cache
from importlib import resources

import jinja2
from markupsafe import Markup

from session_kit.view import model
from session_kit.view.timeline import duration_text

TEMPLATES = "session_kit.view"


def clock(value: datetime | None) -> str:
    """UTC to the second: the page must not depend on the reader's time zone."""
    if value is None:
        return "-"
    try:
        return value.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, ValueError):  # year 1 east of UTC, or 9999 west of it, has no UTC form
        return value.strftime("%Y-%m-%d %H:%M:%S %z")


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 10:
        return f"{value:.1f}s"
    return duration_text(value)


def number(value: int) -> str:
    return f"{value:,}"


def fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in `text` (Markdown)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


def quote(text: str) -> str:
    """`text` as a Markdown block quote."""
    return "\n".join("> " + line if line else ">" for line in text.split("\n"))


def code(text: object) -> str:
    """Transcript text inline in Markdown: one line in a code span, where no HTML, link,
    image or bare URL is live (a fence of backticks longer than any run in the text)."""
    line = " ".join(str(text).split())
    if not line:
        return ""
    tick = "`" * (max((len(run) for run in re.findall(r"`+", line)), default=0) + 1)
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{tick}{pad}{line}{pad}{tick}"


def cell(text: object) -> str:
    """`code` for a table's cell: a pipe there ends the cell even in a code span, unless escaped."""
    return code(text).replace("|", "\\|")


def html_line(text: object) -> str:
    """Transcript text inside an HTML element of the Markdown (a `<summary>`): on one line (a
    blank line would end the HTML and start Markdown), every ASCII mark a character reference
    (`&#60;`), so no renderer finds a tag, a link, an image or a URL in it."""
    return _MARKS.sub(lambda m: f"&#{ord(m.group())};", " ".join(str(text).split()))


_MARKS = re.compile(r"[!-/:-@\[-`{-~]")  # ASCII punctuation


def head_lines(text: str, lines: int) -> str:
    return "\n".join(text.split("\n")[:lines])


def tail_lines(text: str, lines: int) -> str:
    return "\n".join(text.split("\n")[lines:])


def _asset(name: str) -> str:
    return resources.files(TEMPLATES).joinpath("templates", name).read_text(encoding="utf-8")


@cache
def environment(*, html: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(TEMPLATES, "templates"),
        autoescape=html,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters.update(
        clock=clock,
        seconds=seconds,
        number=number,
        fence=fence,
        quote=quote,
        code=code,
        cell=cell,
        html_line=html_line,
        head_lines=head_lines,
        tail_lines=tail_lines,
    )
    env.globals.update(
        Call=model.Call,
        Message=model.Message,
        Compaction=model.Compaction,
        Note=model.Note,
        KIND_ASSISTANT=model.KIND_ASSISTANT,
        KIND_THINKING=model.KIND_THINKING,
        KIND_SUMMARY=model.KIND_SUMMARY,
    )
    env.tests["call"] = lambda item: isinstance(item, model.Call)
    env.tests["message"] = lambda item: isinstance(item, model.Message)
    env.tests["compaction"] = lambda item: isinstance(item, model.Compaction)
    return env


def render_html(page: model.Page) -> str:
    env = environment(html=True)
    # The style sheet and script are the package's own files, put in as they are.
    return env.get_template("page.html.j2").render(
        page=page, style=Markup(_asset("view.css")), script=Markup(_asset("view.js"))
    )


def render_markdown(page: model.Page) -> str:
    return environment(html=False).get_template("conversation.md.j2").render(page=page)

"""`view_session`: one session as a page (HTML) or a conversation (Markdown), written to a file.

Owns: the one way a view is made, for the library, `session-kit view` and the `/view` slash
command: building the page model (`build`), rendering it in the asked format (`templates`,
loaded only now), where it goes by default (the session's scratch dir, as preprocessing's
documents), writing it whole or not at all (a temporary file renamed into place), and the
result with its `--json` shape. Does not parse options or open a browser (that is `cli`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from session_kit.base import fileio
from session_kit.conversation.items import clean
from session_kit.errors import KitError, NotFound
from session_kit.sessions.store import SessionRef
from session_kit.transcript.reader import ReadStats
from session_kit.view.build import ViewOptions, build_page
from session_kit.view.model import Page

FORMAT_HTML = "html"
FORMAT_MARKDOWN = "md"
VIEW_FORMATS = {FORMAT_HTML: "html", FORMAT_MARKDOWN: "md"}  # format -> file extension


@dataclass(frozen=True, slots=True)
class ViewResult:
    session: SessionRef
    format: str
    path: Path | None  # None: written to a stream
    bytes: int
    lanes: int
    calls: int
    failures: int
    agents: int
    cut_chars: int
    left_out_items: int
    redactions: dict[str, int]
    read: ReadStats

    def as_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session.id,
            "transcript": str(self.session.path),
            "format": self.format,
            "path": str(self.path) if self.path else None,
            "bytes": self.bytes,
            "lanes": self.lanes,
            "calls": self.calls,
            "failures": self.failures,
            "agents": self.agents,
            "cut_chars": self.cut_chars,
            "left_out_items": self.left_out_items,
            "redactions": dict(sorted(self.redactions.items())),
            "read": self.read.as_dict(),
        }


def default_view_path(ref: SessionRef, fmt: str = FORMAT_HTML) -> Path:
    """`view-<session-id>.<ext>` in the session's scratch dir (made if missing)."""
    from session_kit.preprocess.pipeline import default_output_dir

    return default_output_dir(ref) / f"view-{ref.id}.{VIEW_FORMATS[fmt]}"


def render(
    ref: SessionRef, *, fmt: str = FORMAT_HTML, options: ViewOptions | None = None
) -> tuple[str, Page, ReadStats, dict[str, int]]:
    """The rendered text and the page it came from, with what reading met and the redactions."""
    if fmt not in VIEW_FORMATS:
        raise KitError(f"no view format {fmt!r} (choose from {', '.join(VIEW_FORMATS)})")
    try:
        page, read, redactions = build_page(ref, options)
    except FileNotFoundError:
        raise NotFound(f"the transcript {ref.path} is gone") from None
    except OSError as exc:
        raise KitError(f"cannot read {ref.path}: {exc.strerror or exc}") from None
    from session_kit.view import templates

    text = templates.render_html(page) if fmt == FORMAT_HTML else templates.render_markdown(page)
    # The units' texts are clean already; names, ids and titles from the transcript may not be
    # (a lone surrogate cannot be written as UTF-8): one pass over the whole page.
    return clean(text), page, read, redactions


def view_session(
    ref: SessionRef,
    *,
    fmt: str = FORMAT_HTML,
    output: Path | None = None,
    stream: IO[str] | None = None,
    options: ViewOptions | None = None,
) -> ViewResult:
    """Render the session in `fmt` to `stream`, else to `output` (default: `default_view_path`)."""
    text, page, read, redactions = render(ref, fmt=fmt, options=options)
    data = text.encode("utf-8")
    path = None
    if stream is not None:
        stream.write(text)
        stream.flush()
    else:
        path = output if output is not None else default_view_path(ref, fmt)
        _write_whole(path, data)
    card = page.card
    return ViewResult(
        session=ref,
        format=fmt,
        path=path,
        bytes=len(data),
        lanes=len(page.lanes),
        calls=card.calls,
        failures=card.failures,
        agents=card.agents,
        cut_chars=page.cut_chars,
        left_out_items=page.hidden_items,
        redactions=redactions,
        read=read,
    )


def _write_whole(path: Path, data: bytes) -> None:
    """`data` as the file `path`, or nothing: a reader never sees half a page."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        temp = fileio.write_temp(str(path), data, sync=False)  # 0600: transcript text
    except FileNotFoundError:
        raise KitError(f"cannot write {path}: no folder {folder}") from None
    except OSError as exc:
        raise KitError(f"cannot write in {folder}: {exc.strerror or exc}") from None
    try:
        fileio.replace(temp, str(path))
        fileio.remove_stale_temp_files(folder, [path.name])  # a killed earlier write's
    except OSError as exc:
        fileio.discard(temp)
        raise KitError(f"cannot write {path}: {exc.strerror or exc}") from None

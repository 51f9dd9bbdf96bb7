"""Where rendered units go: files in parts under a size budget, or one stream.

Owns: the `Sink` interface the pipeline writes every section through (a section is the
session's units or one agent's, opened with its root element, then kept or dropped once its
verdict is known), and its two implementations. `PartFiles`: each section as complete
documents of at most a number of characters (4 per token), cut only between units, named
`{prefix}-{session-id}-part{N}.{ext}` (agents `{prefix}-{session-id}-agent-{agent-id}-part{N}.{ext}`),
written to temporary files in the output folder and renamed into place only when the whole
run is done (removed when a section is dropped or the run fails), with parts left from an
earlier, longer run of the same name removed. `OneStream` (`--stdout`): one document with the
agents' sections nested in the session's, each section spooled until it is kept (an empty
session prints nothing). Knows nothing of entries, steps or formats (the renderer writes the
heads and feet).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Protocol

from session_kit.base import fileio
from session_kit.base.fileio import TEXT_ERRORS
from session_kit.errors import KitError
from session_kit.preprocess.render.base import Renderer
from session_kit.preprocess.result import DocumentInfo

SPOOL_MEMORY = 4 * 1024 * 1024
COPY_CHUNK = 1024 * 1024
Attributes = Callable[[], Mapping[str, Any]]  # asked when the root is written: after some units


class Section(Protocol):
    """The units of the session or of one agent, on their way out."""

    def add(self, text: str) -> None: ...

    def keep(self) -> None:
        """The section is wanted: it is written (or will be when the sink finishes)."""

    def drop(self) -> None:
        """The section is not wanted (empty, a warmup, unreadable): nothing of it is left."""


class Sink(Protocol):
    output_dir: Path | None

    def open(self, root: str, attributes: Attributes, *, agent_id: str | None = None) -> Section:
        """A section whose root element is `root` (`session` first, then each `agent`)."""
        ...

    def finish(self) -> list[DocumentInfo]:
        """Complete what was kept; the documents written, in order."""
        ...

    def discard(self) -> None:
        """Give up: nothing of this run is left (what a stream printed stays printed)."""


# --- files in parts ------------------------------------------------------------------------------


def stream_base(prefix: str, session_id: str, agent_id: str | None = None) -> str:
    # `is not None`: a legacy `agent-.jsonl` has the empty id, and must not take the session's name.
    return f"{prefix}-{session_id}" + (f"-agent-{agent_id}" if agent_id is not None else "")


def part_name(base: str, part: int, extension: str = "xml") -> str:
    return f"{base}-part{part}.{extension}"


class PartWriter:
    """Writes one section as complete documents `base-partN.ext` in `directory`.

    A part is closed before a unit that would take it over `max_chars` (head and foot
    included), unless the part has no unit yet: a unit is never split, so a single entry
    larger than the budget makes a part of its own. `attributes()` is asked for the root
    element's attributes when a part opens (so it may use what the first units taught).
    """

    def __init__(
        self,
        directory: Path,
        base: str,
        *,
        root: str,
        attributes: Attributes,
        renderer: Renderer,
        max_chars: int | None = None,
        agent_id: str | None = None,
    ) -> None:
        self.directory = directory
        self.base = base
        self.root = root
        self.attributes = attributes
        self.renderer = renderer
        self.max_chars = max_chars
        self.agent_id = agent_id
        self.parts: list[DocumentInfo] = []
        self._temps: list[tuple[Path, Path]] = []  # (temporary, final)
        self._file: IO[str] | None = None
        self._chars = 0
        self._entries = 0
        self._close = renderer.close(root)

    def add(self, text: str) -> None:
        try:
            self._add(text)
        except OSError as exc:  # a full disk, a folder removed under us: the user's to fix
            self.discard()
            raise KitError(f"cannot write in {self.directory}: {exc.strerror or exc}") from None

    def _add(self, text: str) -> None:
        size = len(text)
        if self._file is None:
            self._open()
        elif self.max_chars is not None and self._entries and self._chars + size + len(self._close) > self.max_chars:
            self._finish_part()
            self._open()
        assert self._file is not None
        self._file.write(text)
        self._chars += size
        self._entries += 1

    def _open(self) -> None:
        number = len(self.parts) + 1
        final = self.directory / part_name(self.base, number, self.renderer.extension)
        name, fd = fileio.create_temp(final)  # 0600: transcript text, whatever the umask
        temp = Path(name)
        self._file = open(fd, "w", encoding="utf-8", errors=TEXT_ERRORS, newline="\n")  # noqa: SIM115 - open until the part is finished
        self._temps.append((temp, final))
        head = self.renderer.open(self.root, {**self.attributes(), "part": number})
        self._file.write(head)
        self._chars = len(head)
        self._entries = 0

    def _finish_part(self) -> None:
        assert self._file is not None
        self._file.write(self._close)
        self._chars += len(self._close)
        self._file.close()
        self._file = None
        source = "agent" if self.agent_id is not None else "session"
        number = len(self.parts) + 1
        self.parts.append(DocumentInfo(self._temps[-1][1], source, self.agent_id, number, self._chars, self._entries))

    def commit(self) -> list[DocumentInfo]:
        """Close the last part and move every part into place; returns them in order."""
        try:
            if self._file is not None:
                self._finish_part()
            for temp, final in self._temps:
                fileio.replace(temp, final)
            self._temps = []
            self._remove_stale(len(self.parts) + 1)
            # A killed earlier run's unfinished parts (of this name: the folder may be the user's).
            fileio.remove_stale_temp_files(self.directory, [p.path.name for p in self.parts if p.path])
        except OSError as exc:
            self.discard()
            raise KitError(f"cannot write in {self.directory}: {exc.strerror or exc}") from None
        return list(self.parts)

    def discard(self) -> None:
        """Drop everything written: nothing of this section is left in the folder."""
        if self._file is not None:
            self._file.close()
            self._file = None
        for temp, _final in self._temps:
            try:
                os.unlink(temp)
            except FileNotFoundError:
                pass
        self._temps = []
        self.parts = []

    def _remove_stale(self, first: int) -> None:
        """Parts an earlier run of the same name wrote beyond this run's last part."""
        number = first
        while True:
            try:
                os.unlink(self.directory / part_name(self.base, number, self.renderer.extension))
            except FileNotFoundError:
                return
            number += 1


class _FileSection:
    __slots__ = ("sink", "writer", "add")

    def __init__(self, sink: PartFiles, writer: PartWriter) -> None:
        self.sink = sink
        self.writer = writer
        self.add = writer.add

    def keep(self) -> None:
        self.sink._kept.append(self.writer)

    def drop(self) -> None:
        self.writer.discard()


class PartFiles:
    """Every section as files in parts under `output_dir`; all moved into place at `finish`."""

    def __init__(
        self, output_dir: Path, *, prefix: str, session_id: str, renderer: Renderer, max_chars: int | None = None
    ) -> None:
        self.output_dir: Path | None = output_dir
        self.directory = output_dir
        self.prefix = prefix
        self.session_id = session_id
        self.renderer = renderer
        self.max_chars = max_chars
        self._open: list[PartWriter] = []
        self._kept: list[PartWriter] = []

    def open(self, root: str, attributes: Attributes, *, agent_id: str | None = None) -> Section:
        writer = PartWriter(
            self.directory,
            stream_base(self.prefix, self.session_id, agent_id),
            root=root,
            attributes=attributes,
            renderer=self.renderer,
            max_chars=self.max_chars,
            agent_id=agent_id,
        )
        self._open.append(writer)
        return _FileSection(self, writer)

    def finish(self) -> list[DocumentInfo]:
        documents: list[DocumentInfo] = []
        try:
            for writer in self._kept:
                documents.extend(writer.commit())
        except BaseException:
            self.discard()
            raise
        self._open, self._kept = [], []
        return documents

    def discard(self) -> None:
        for writer in self._open:
            writer.discard()
        self._open, self._kept = [], []


# --- one stream ----------------------------------------------------------------------------------


class UnitSpool:
    """Rendered units kept aside (in memory up to a few MB, then in a temporary file) until it
    is known whether they are wanted."""

    def __init__(self) -> None:
        # In memory first, as tempfile.SpooledTemporaryFile keeps it (the same text wrapper, so
        # the same newlines and encoding errors): `tempfile`, with `random` and `shutil`, costs
        # a small session's `--stdout` ~3 ms to import, and is needed only past SPOOL_MEMORY.
        self._file: IO[str] = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=TEXT_ERRORS)
        self._in_memory = True
        self.chars = 0
        self.entries = 0

    def add(self, text: str) -> None:
        self._file.write(text)
        self.chars += len(text)
        self.entries += 1
        if self._in_memory and self.chars > SPOOL_MEMORY:
            self._to_disk()

    def _to_disk(self) -> None:
        import tempfile

        spilled = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors=TEXT_ERRORS)  # noqa: SIM115 - closed by close()
        spilled.buffer.write(self._file.detach().getvalue())  # type: ignore[attr-defined]
        self._file, self._in_memory = spilled, False

    def copy_to(self, out: IO[str]) -> None:
        self._file.seek(0)
        while True:
            chunk = self._file.read(COPY_CHUNK)
            if not chunk:
                return
            out.write(chunk)

    def close(self) -> None:
        self._file.close()


class _StreamSection:
    __slots__ = ("sink", "root", "attributes", "spool", "add")

    def __init__(self, sink: OneStream, root: str, attributes: Attributes) -> None:
        self.sink = sink
        self.root = root
        self.attributes = attributes
        self.spool = UnitSpool()
        self.add = self.spool.add

    def keep(self) -> None:
        try:
            self.sink._write(self)
        finally:
            self.spool.close()

    def drop(self) -> None:
        self.spool.close()


class OneStream:
    """One document on `out`: the first section kept is the root, later ones nest inside it."""

    output_dir: Path | None = None

    def __init__(self, out: IO[str], *, renderer: Renderer) -> None:
        self.out = out
        self.renderer = renderer
        self._root: str | None = None
        self._chars = 0
        self._entries = 0
        self._open: list[_StreamSection] = []

    def open(self, root: str, attributes: Attributes, *, agent_id: str | None = None) -> Section:
        section = _StreamSection(self, root, attributes)
        self._open.append(section)
        return section

    def _write(self, section: _StreamSection) -> None:
        renderer, out = self.renderer, self.out
        nested = self._root is not None
        head = renderer.open(section.root, section.attributes(), nested=nested)
        out.write(head)
        section.spool.copy_to(out)
        self._chars += len(head) + section.spool.chars
        self._entries += section.spool.entries
        if nested:
            foot = renderer.close(section.root)
            out.write(foot)
            self._chars += len(foot)
        else:
            self._root = section.root

    def finish(self) -> list[DocumentInfo]:
        self._open = []
        if self._root is None:
            return []
        foot = self.renderer.close(self._root)
        self.out.write(foot)
        self.out.flush()
        self._chars += len(foot)
        return [DocumentInfo(None, "session", None, 1, self._chars, self._entries)]

    def discard(self) -> None:
        for section in self._open:
            section.spool.close()
        self._open = []

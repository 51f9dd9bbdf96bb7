"""Where XML units become documents: parts under a size budget, their files and names.

Owns: cutting a stream of units (one per entry, from `convert`) into complete documents of at
most a number of characters (4 per token), only between units; naming the files
(`{prefix}-{session-id}-part{N}.xml`, agents `{prefix}-{session-id}-agent-{agent-id}-part{N}.xml`);
writing each part to a temporary file in the output folder and renaming all parts into place
only when the stream is complete (or removing them when it is dropped); removing parts left
from an earlier, longer run of the same name. Knows nothing of entries or steps.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from session_kit.errors import KitError
from session_kit.preprocess.xmlwriter import XML_DECLARATION, attrs

CHARS_PER_TOKEN = 4
SPOOL_MEMORY = 4 * 1024 * 1024
COPY_CHUNK = 1024 * 1024
def stream_base(prefix: str, session_id: str, agent_id: str | None = None) -> str:
    return f"{prefix}-{session_id}" + (f"-agent-{agent_id}" if agent_id else "")


def part_name(base: str, part: int) -> str:
    return f"{base}-part{part}.xml"


@dataclass(frozen=True, slots=True)
class PartInfo:
    path: Path
    part: int
    chars: int
    entries: int


def open_tag(root: str, attributes: Mapping[str, Any]) -> str:
    return f"{XML_DECLARATION}<{root}{attrs(attributes)}>\n"


def close_tag(root: str) -> str:
    return f"</{root}>\n"


class PartWriter:
    """Writes one stream of units as complete documents `base-partN.xml` in `directory`.

    A part is closed before a unit that would take it over `max_chars` (header and closing
    tag included), unless the part has no unit yet: a unit is never split, so a single entry
    larger than the budget makes a part of its own. `attributes()` is asked for the root
    element's attributes when a part opens (so it may use what the first units taught).
    """

    def __init__(
        self,
        directory: Path,
        base: str,
        *,
        root: str,
        attributes: Callable[[], Mapping[str, Any]],
        max_chars: int | None = None,
    ) -> None:
        self.directory = directory
        self.base = base
        self.root = root
        self.attributes = attributes
        self.max_chars = max_chars
        self.parts: list[PartInfo] = []
        self._temps: list[tuple[Path, Path]] = []  # (temporary, final)
        self._file: IO[str] | None = None
        self._chars = 0
        self._entries = 0
        self._close = close_tag(root)
        self.chars = 0  # all parts, all markup

    def add(self, unit: str) -> None:
        try:
            self._add(unit)
        except OSError as exc:  # a full disk, a folder removed under us: the user's to fix
            self.discard()
            raise KitError(f"cannot write in {self.directory}: {exc.strerror or exc}") from None

    def _add(self, unit: str) -> None:
        size = len(unit) + 1
        if self._file is None:
            self._open()
        elif (
            self.max_chars is not None
            and self._entries
            and self._chars + size + len(self._close) > self.max_chars
        ):
            self._finish_part()
            self._open()
        assert self._file is not None
        self._file.write(unit)
        self._file.write("\n")
        self._chars += size
        self._entries += 1

    def _open(self) -> None:
        number = len(self.parts) + 1
        final = self.directory / part_name(self.base, number)
        temp = self.directory / f".{final.name}.{os.getpid()}.tmp"
        self._file = open(temp, "w", encoding="utf-8", newline="\n")
        self._temps.append((temp, final))
        header = open_tag(self.root, {**self.attributes(), "part": number})
        self._file.write(header)
        self._chars = len(header)
        self._entries = 0

    def _finish_part(self) -> None:
        assert self._file is not None
        self._file.write(self._close)
        self._chars += len(self._close)
        self._file.close()
        self._file = None
        self.parts.append(PartInfo(self._temps[-1][1], len(self.parts) + 1, self._chars, self._entries))
        self.chars += self._chars

    def commit(self) -> list[PartInfo]:
        """Close the last part and move every part into place; returns them in order."""
        try:
            if self._file is not None:
                self._finish_part()
            for temp, final in self._temps:
                os.replace(temp, final)
            self._temps = []
            self._remove_stale(len(self.parts) + 1)
        except OSError as exc:
            self.discard()
            raise KitError(f"cannot write in {self.directory}: {exc.strerror or exc}") from None
        return list(self.parts)

    def discard(self) -> None:
        """Drop everything written: nothing of this stream is left in the folder."""
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
        self.chars = 0

    def _remove_stale(self, first: int) -> None:
        """Parts an earlier run of the same name wrote beyond this run's last part."""
        number = first
        while True:
            try:
                os.unlink(self.directory / part_name(self.base, number))
            except FileNotFoundError:
                return
            number += 1


class UnitSpool:
    """Units kept aside (in memory up to a few MB, then in a temporary file) until it is known
    whether they are wanted: `--stdout` nests agents in the session's document, and an empty
    session must print nothing."""

    def __init__(self) -> None:
        import tempfile  # only `--stdout` needs it

        self._file: IO[str] = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY, mode="w+", encoding="utf-8")
        self.chars = 0
        self.entries = 0

    def add(self, unit: str) -> None:
        self._file.write(unit)
        self._file.write("\n")
        self.chars += len(unit) + 1
        self.entries += 1

    def copy_to(self, sink: IO[str]) -> None:
        self._file.seek(0)
        while True:
            chunk = self._file.read(COPY_CHUNK)
            if not chunk:
                return
            sink.write(chunk)

    def close(self) -> None:
        self._file.close()

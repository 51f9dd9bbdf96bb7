"""Following a file that grows: where a reader stopped, whether the file is still the one it
read, and the whole lines it gained since. Standard library only and cheap to import: the
hooks (memory capture, the archive) and the status line load it.

Owns:
- `Follow` (`with Follow(path, checkpoint) as f:`): what a reader uses: the file opened
  (`state.fileio.open_fd`: never blocks, regular files only), where to start, whether it
  starts again (`f.restarted`), the new whole lines a block at a time (`f.blocks()`), and the
  checkpoint to keep for next time (`f.checkpoint()`). The parts below are its pieces, for a
  reader that copies bytes rather than lines (the archive).
- `Checkpoint`: the one record of "how far a reader got" (offset, the file's size and mtime
  when it was read, its identity: device and inode, and two hashes: of its head, the first
  line up to `HEAD_BYTES`, and of the `TAIL_BYTES` before the offset). It is kept as text
  (`to_text` / `from_text`) in whatever the reader saves (a memory file, a manifest, the
  status line's count, the index).
- `unchanged`: nothing was added since a checkpoint (same file, same size and mtime): the
  reader need not even open the file.
- `resume`: where to read from: the checkpoint's offset when the file is the same file
  grown, else 0 and `restarted` (a file replaced by another inode, cut shorter than the
  offset, or rewritten in place: the client rewrites transcripts, e.g. dropping the history
  before a compaction from large files): the caller drops what it had from that file.
- `whole_lines`: the lines between two offsets, a block at a time, whole lines only (a
  half-written last line is left for next time; for a reader that asks, a last line with no
  newline that is a whole JSON object is a line, and a newline arriving after it later is
  not a second one), a line longer than `max_line` skipped (`None`), never held.
- `skip_bom`: the one BOM rule of the kit: a UTF-8 BOM at the start of a file is not part of
  its first line (and is data anywhere else).
Does not: parse lines, or keep checkpoints (each reader saves its own where it keeps its state).
"""

from __future__ import annotations

import os

from session_kit.base.fileio import open_fd
from session_kit.base.timestamps import mtime_ns

try:  # `_blake2` alone: `hashlib` loads OpenSSL, several ms of a hook's budget
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

HEAD_BYTES = 4096  # the head's hash covers the first line, up to this many bytes
TAIL_BYTES = 4096  # and the tail's, this many bytes before the offset
CHUNK = 1 << 20
BOM = b"\xef\xbb\xbf"
_VERSION = "c1"


def skip_bom(head: bytes) -> bytes:
    """The first bytes of a file without a UTF-8 byte-order mark (the one BOM policy: a BOM
    is dropped at the start of a file, and is data anywhere else)."""
    return head[len(BOM) :] if head.startswith(BOM) else head


def _digest(data: bytes) -> str:
    return blake2b(data, digest_size=12).hexdigest()


class Checkpoint:
    """How far a reader got in a file, and what the file was then (a value: never changed).

    `dev`, `ino` 0 and `head`, `tail` "" mean unknown (a checkpoint carried over from an
    older record): only what is known is compared. A slotted class, not a dataclass:
    `dataclasses` is outside the hooks' and the status line's import budget."""

    __slots__ = ("offset", "size", "mtime_ns", "dev", "ino", "head", "tail")

    offset: int
    size: int
    mtime_ns: int
    dev: int
    ino: int
    head: str
    tail: str

    def __init__(
        self,
        offset: int = 0,
        size: int = 0,
        mtime_ns: int = 0,
        dev: int = 0,
        ino: int = 0,
        head: str = "",
        tail: str = "",
    ) -> None:
        for name, value in zip(self.__slots__, (offset, size, mtime_ns, dev, ino, head, tail)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Checkpoint is not changed ({name})")

    def _fields(self) -> tuple:
        return (self.offset, self.size, self.mtime_ns, self.dev, self.ino, self.head, self.tail)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Checkpoint) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return "Checkpoint(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.__slots__, self._fields())) + ")"

    def to_text(self) -> str:
        """One line of text (for a JSON value or an SQL column)."""
        return " ".join([_VERSION, *(str(v) for v in self._fields()[:5]), self.head or "-", self.tail or "-"])

    @classmethod
    def from_text(cls, text: object) -> Checkpoint | None:
        """The checkpoint `to_text` wrote; None for anything else (the reader starts again)."""
        if not isinstance(text, str):
            return None
        parts = text.split(" ")
        if len(parts) != 8 or parts[0] != _VERSION:
            return None
        try:
            numbers = [int(p) for p in parts[1:6]]
        except ValueError:
            return None
        if any(n < 0 for n in numbers):
            return None
        head, tail = ("" if p == "-" else p for p in parts[6:])
        return cls(*numbers, head, tail)


def checkpoint(fd: int, st: os.stat_result, offset: int) -> Checkpoint:
    """The checkpoint of a reader that got to `offset` in the file open as `fd` (`st` its
    `fstat` when it was opened: what it read was bounded by `st.st_size`)."""
    return Checkpoint(
        offset, st.st_size, mtime_ns(st), st.st_dev, st.st_ino, _head(fd, offset), _tail(fd, offset) if offset else ""
    )


def unchanged(cp: Checkpoint | None, st: os.stat_result) -> bool:
    """Whether nothing was added since `cp`: the same file, of the same size and mtime (a
    stat, no open)."""
    return cp is not None and (cp.ino, cp.dev, cp.size, cp.mtime_ns) == stamp(st)


def stamp(st: os.stat_result) -> tuple[int, int, int, int]:
    """What `unchanged` compares of a file (inode, device, size, mtime in ns): for a cache that
    keeps a file's stamp without a checkpoint (equal stamps: nothing to read again)."""
    return st.st_ino, st.st_dev, st.st_size, mtime_ns(st)


def resume(fd: int, st: os.stat_result, cp: Checkpoint | None) -> tuple[int, bool]:
    """`(offset, restarted)`: where to read the file open as `fd` from. The checkpoint's
    offset when it is the same file, grown or not; 0 and True when it was replaced (another
    inode), cut shorter than the offset, or rewritten (its head or the bytes before the offset
    changed): the caller drops what it had from this file."""
    if cp is None or cp.offset == 0:
        return 0, False
    if (
        (cp.ino and (cp.ino, cp.dev or st.st_dev) != (st.st_ino, st.st_dev))
        or st.st_size < cp.offset
        or (cp.head and _head(fd, cp.offset) != cp.head)
        or (cp.tail and _tail(fd, cp.offset) != cp.tail)
    ):
        return 0, True
    return cp.offset, False


def _head(fd: int, offset: int) -> str:
    """The hash of the file's first line (up to HEAD_BYTES), as far as `offset` goes."""
    if not offset:
        return ""
    data = os.pread(fd, min(offset, HEAD_BYTES), 0)
    end = data.find(b"\n")
    return _digest(data[: end + 1] if end >= 0 else data)


def _tail(fd: int, offset: int) -> str:
    back = min(offset, TAIL_BYTES)
    return _digest(os.pread(fd, back, offset - back))


def whole_lines(
    fd: int, start: int, stop: int, *, chunk: int = CHUNK, max_line: int | None = None, complete_tail: bool = False
):
    """The whole lines of the file open as `fd` between `start` and `stop`, as
    `(lines, end)` blocks: `lines` without their newline, `end` the offset just past the
    block's last newline (where the next read starts). A half-written last line is left
    (the last `end` stops before it). A line longer than `max_line` (spanning chunks) is
    `None`: skipped, never held whole. At offset 0, a UTF-8 BOM is not part of the first line.

    `complete_tail` (`stop` is the file's end): a last line with no newline that is a whole
    JSON object is a line all the same (a file whose writer never ends it, as hand-written
    ones do), its `end` just past it; one that is not (the client still writing it) is left.
    A newline arriving there later ends that line: a read starting just past a line with no
    newline skips it, so it is never a second, empty line."""
    if start and os.pread(fd, 1, start - 1) != b"\n" and os.pread(fd, 1, start) == b"\n":
        start += 1  # the newline of the line a `complete_tail` read took whole
    offset = start
    pieces: list[bytes] = []  # the start of a line that runs past the chunks read so far
    held = 0
    skipping = False
    bom = start == 0
    while offset < stop:
        data = os.pread(fd, min(chunk, stop - offset), offset)
        if not data:
            break  # cut short while we read: what we have is what the file held
        at = offset
        offset += len(data)
        last = data.rfind(b"\n")
        if last < 0:
            if not skipping:
                pieces.append(data)
                held += len(data)
                if max_line is not None and held > max_line:
                    pieces, held, skipping = [], 0, True
            continue
        lines: list[bytes | None] = data[:last].split(b"\n")  # type: ignore[assignment]
        if skipping:
            lines[0], skipping = None, False
        elif pieces:
            first = b"".join(pieces) + lines[0]  # type: ignore[operator]
            lines[0] = None if max_line is not None and len(first) > max_line else first
        pieces, held = ([data[last + 1 :]], len(data) - last - 1) if last + 1 < len(data) else ([], 0)
        if bom:
            bom = False
            if lines[0] is not None:
                lines[0] = skip_bom(lines[0])
        yield lines, at + last + 1
    if complete_tail and pieces and not skipping and offset >= stop:
        tail = b"".join(pieces)
        tail = skip_bom(tail) if bom else tail
        if _whole_object(tail):
            yield [tail], offset


def _whole_object(line: bytes) -> bool:
    """Whether an unterminated last line is a whole JSON object (not one still being written)."""
    if not line.rstrip().endswith(b"}"):
        return False  # the common case decided without `json` (outside the hooks' import budget)
    import json  # only for a last line without a newline that may be whole

    try:
        return isinstance(json.loads(line), dict)
    except ValueError:  # half-written (or not UTF-8)
        return False


class Follow:
    """A file opened to read the whole lines it gained since a checkpoint.

        with Follow(path, seen) as f:
            if f.restarted: ...         # replaced or rewritten: drop what came from it
            for lines in f.blocks():    # bytes without their newline; None: a line skipped
                ...
            seen = f.checkpoint()       # as far as the blocks read (whole lines only)

    OSError (`fileio.NotARegularFile` included) when the file cannot be opened."""

    __slots__ = ("fd", "stat", "offset", "restarted")

    def __init__(self, path: str | os.PathLike[str], seen: Checkpoint | None = None) -> None:
        self.fd, self.stat = open_fd(path)
        try:
            self.offset, self.restarted = resume(self.fd, self.stat, seen)
        except BaseException:
            os.close(self.fd)
            raise

    def __enter__(self) -> Follow:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)

    def blocks(self, *, chunk: int = CHUNK, max_line: int | None = None, complete_tail: bool = False):
        """The new whole lines, a block at a time (`whole_lines`; `complete_tail`: a last line
        with no newline that is a whole JSON object is one too); `offset` moves past a block
        once the caller asks for the next (a block it did not finish is read again)."""
        stop = self.stat.st_size
        for lines, end in whole_lines(
            self.fd, self.offset, stop, chunk=chunk, max_line=max_line, complete_tail=complete_tail
        ):
            yield lines
            self.offset = end

    def checkpoint(self) -> Checkpoint:
        """The checkpoint to keep: as far as the blocks were read."""
        return checkpoint(self.fd, self.stat, self.offset)

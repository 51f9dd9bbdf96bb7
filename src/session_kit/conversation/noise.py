"""The conversation lines of a transcript: every line read, client noise dropped unparsed.

Owns: reading a transcript file and dropping the lines whose top-level type (told from the
raw bytes by `rawtype`) is noise by the one vocabulary (`vocabulary.NOISE_TYPES`), counting them; on a big file, doing that in a forked reader
process, so that reading and classifying the ~80% of bytes that are noise runs on another
core while this one parses and converts what is left. Both ways yield the same lines with the
same numbers and fill in the same counts. The forked reader can also do work ahead on the
lines it keeps (a pure function of a line, given by the consumer), so that the second core
takes part of the conversion. Does not parse lines for the conversion (that is `convert`).
"""

from __future__ import annotations

import marshal
import os
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from session_kit.forked import cores, enlarge_pipe
from session_kit.transcript.rawtype import top_level_type
from session_kit.transcript.reader import ReadStats, iter_line_spans
from session_kit.transcript.vocabulary import NOISE_TYPE_BYTES

# Below this size the fork costs more than it saves (measured: ~1-2 ms to fork and start).
FORK_MIN_BYTES = 8 * 1024 * 1024
_FRAME = struct.Struct("<qq")  # (line number, length) before each line; line 0 ends the stream
_AHEAD = -2  # the frame's "line number" for what `ahead` gave for the next line (-1: an error)
_PIPE_BUFFER = 1024 * 1024


@dataclass(slots=True)
class NoiseTally:
    input_chars: int = 0  # bytes of every line read
    entries: int = 0  # noise lines dropped
    chars: int = 0  # their bytes


# Work the forked reader may do ahead on a kept line, for the consumer to find ready: a
# function of the raw line alone, returning None (nothing to say) or a value `marshal` can carry.
Ahead = Callable[[bytes], object]


def conversation_lines(
    path: str | os.PathLike[str],
    stats: ReadStats,
    tally: NoiseTally,
    *,
    ahead: Ahead | None = None,
    done: dict[int, object] | None = None,
    fork: bool | None = None,
) -> Iterator[tuple[int, bytes]]:
    """`(line_no, raw)` for every line of the file that is not noise by its raw type.

    The reader is forked when `fork`, by default when `second_core_pays(path)`. With `ahead`
    and `done`, a forked reader also runs `ahead` on each kept line and puts what it returns
    (when not None) in `done[line_no]` before that line is yielded; the serial reader does not
    (the consumer does the work itself where `done` has nothing)."""
    if second_core_pays(path) if fork is None else fork:
        return _forked(path, stats, tally, ahead if done is not None else None, done)
    return _serial(path, stats, tally)


def _serial(path: str | os.PathLike[str], stats: ReadStats, tally: NoiseTally) -> Iterator[tuple[int, bytes]]:
    # Lines are looked at where they lie in the block read: a noise line is never copied.
    noise = NOISE_TYPE_BYTES
    for line_no, block, begin, end in iter_line_spans(path, stats):
        size = end - begin
        tally.input_chars += size
        raw_type = top_level_type(block, begin, end)
        if raw_type is not None and raw_type in noise:
            tally.entries += 1
            tally.chars += size
            continue
        yield line_no, block[begin:end]


def second_core_pays(path: str | os.PathLike[str]) -> bool:
    """Whether work on the file pays for a process beside the conversion (the forked reader,
    the redaction worker): a platform that forks, a second core, and a file of FORK_MIN_BYTES."""
    if not hasattr(os, "fork") or cores() < 2:
        return False
    try:
        return os.stat(path).st_size >= FORK_MIN_BYTES
    except OSError:
        return False  # the serial path reports the error where the reading starts


def _forked(
    path: str | os.PathLike[str],
    stats: ReadStats,
    tally: NoiseTally,
    ahead: Ahead | None = None,
    done: dict[int, object] | None = None,
) -> Iterator[tuple[int, bytes]]:
    """The serial reader run in a forked child that sends the kept lines through a pipe,
    each after a frame header; at the end, a header with line 0 and then its counts. What
    `ahead` gives for a line goes before it, in a frame of its own (line -2).

    A generator: the child is forked when the first line is asked for, never before, so a
    reader that is made and dropped unread leaves no process behind."""
    read_fd, write_fd = os.pipe()
    enlarge_pipe(write_fd)
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(path, write_fd, ahead)
    os.close(write_fd)
    yield from _receive(pid, read_fd, stats, tally, done)


def _child(path: str | os.PathLike[str], write_fd: int, ahead: Ahead | None) -> None:
    code = 0
    try:
        with os.fdopen(write_fd, "wb", buffering=_PIPE_BUFFER) as out:
            stats, tally = ReadStats(), NoiseTally()
            pack, write = _FRAME.pack, out.write
            try:
                for line_no, raw in _serial(path, stats, tally):
                    if ahead is not None:
                        note = _ahead(ahead, raw)
                        if note is not None:
                            write(pack(_AHEAD, len(note)))
                            write(note)
                    write(pack(line_no, len(raw)))
                    write(raw)
                trailer = repr((_stats_fields(stats), (tally.input_chars, tally.entries, tally.chars))).encode()
                write(pack(0, len(trailer)))
            except OSError as exc:  # the file vanished or cannot be read: the parent raises it
                trailer = repr((exc.errno, exc.strerror, str(path))).encode()
                write(pack(-1, len(trailer)))
            write(trailer)
    except BaseException:  # the parent sees a stream without its end
        code = 1
    finally:
        os._exit(code)  # no atexit handlers, no flushing of the parent's buffers


def _ahead(ahead: Ahead, raw: bytes) -> bytes | None:
    """What `ahead` says of a line, packed; None when it says nothing, or fails (the consumer
    then does the work itself: work done ahead is never needed, only saved)."""
    try:
        value = ahead(raw)
        return None if value is None else marshal.dumps(value)
    except Exception:
        return None


def _receive(
    pid: int, read_fd: int, stats: ReadStats, tally: NoiseTally, done: dict[int, object] | None = None
) -> Iterator[tuple[int, bytes]]:
    from ast import literal_eval

    size, unpack = _FRAME.size, _FRAME.unpack
    note = None  # what was worked out ahead for the next line
    try:
        with os.fdopen(read_fd, "rb", buffering=_PIPE_BUFFER) as pipe:
            read = pipe.read
            while True:
                header = read(size)
                if len(header) < size:
                    raise RuntimeError("the transcript reader process stopped early")
                line_no, length = unpack(header)
                payload = read(length)
                if line_no > 0:
                    if note is not None:
                        if done is not None:
                            done[line_no] = note
                        note = None
                    yield line_no, payload
                    continue
                if line_no == _AHEAD:
                    note = marshal.loads(payload)
                    continue
                if line_no < 0:
                    errno, strerror, name = literal_eval(payload.decode())
                    raise OSError(errno, strerror, name)
                fields, (input_chars, entries, chars) = literal_eval(payload.decode())
                _add_stats(stats, fields)
                tally.input_chars += input_chars
                tally.entries += entries
                tally.chars += chars
                return
    finally:
        # Also when the consumer stops early: the child then fails to write and exits.
        os.waitpid(pid, 0)


_COUNTS = ("lines", "records", "blank", "malformed", "not_object", "invalid_utf8", "oversized")


def _stats_fields(stats: ReadStats) -> tuple:
    return tuple(getattr(stats, name) for name in _COUNTS) + (stats.partial_tail, stats.malformed_lines)


def _add_stats(stats: ReadStats, fields: tuple) -> None:
    for name, value in zip(_COUNTS, fields):
        setattr(stats, name, getattr(stats, name) + value)
    stats.partial_tail = stats.partial_tail or fields[-2]
    stats.malformed_lines.extend(fields[-1])

"""Many sessions, latest active first, in memory that does not grow with their number.

Owns: `latest_first` and the `Listing` it returns: the order `sessions` lists in and its
filters, streaming. The order is the last time written in each transcript (`transcript.span`),
latest first, sessions with no time last (a file's mtime is never taken for a time: a copy or
a touch sets it); ties go to the later mtime, then the greater id, then the project folders'
order. A first pass reads only each file's tail and keeps what that order needs (its
project, name, mtime, size and last time) in flat arrays (about 60 bytes a session, where a
`SessionOverview` with its strings weighs over 2 KB); the overviews are then made in that
order, a batch at a time, and never kept. Both passes go over two cores when there is much to
do (`forked.ordered_map`; a note about a file passed over may then come from the child).
Given a `Memory` (what an earlier listing said of each file, kept by `index.listing`), a
file of the same size, mtime and inode as then is not opened at all: both passes take its
tail and its row from there, and the rows made from a file are handed back to it.
Does not: read a transcript's head to order it, keep anything itself, or print; what a row
says is `overview`'s, where the files are is `store`'s.
"""

from __future__ import annotations

import heapq
import os
import re
from array import array
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Protocol, TypeVar

from session_kit.base import timestamps
from session_kit.base.fileio import open_fd
from session_kit.base.follow import stamp
from session_kit.base.layout import count_named_as_sessions
from session_kit.claude import paths
from session_kit.errors import NoSessionsHere
from session_kit.forked import ordered_map, spare_workers
from session_kit.sessions.overview import (
    BATCH,
    Remembered,
    SessionOverview,
    raw_overview,
    remembered_overview,
    shown_overviews,
)
from session_kit.sessions.store import (
    AgentLogs,
    SessionRef,
    check_scope,
    find_project,
    list_project_dirs,
    require_claude_root,
    session_files,
)
from session_kit.transcript.glance import Tail, tail_facts

R = TypeVar("R")

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)
SECOND = timedelta(seconds=1)


def _micros(moment: datetime) -> int:
    """An aware time as whole microseconds since the epoch: exact, and ordered as the times are."""
    return (moment - EPOCH) // MICROSECOND


FOLDER = 1  # a `<id>/` folder is beside the file
ENDED = 2  # its tail has a time: `activity` is that time (else NO_TIME)
TITLED = 4  # its tail may hold a title line: read it again for the row
UUID = 8  # the id is a canonical uuid, kept as its 16 bytes (else as the file system spells it)
KNOWN = 16  # the `Memory` has this file's row, of the same size, mtime and inode
TAIL_FLAGS = ENDED | TITLED  # what the memory keeps of a file's flags

# What the memory keeps of a file for the first pass: its stamp when it was read (inode, device,
# size, mtime in ns: `follow.stamp`), and its `activity`, `offset` and TAIL_FLAGS as the table
# keeps them; given back with the key of its row in the memory (`Memory.rows`).
KnownTail = tuple[int, int, int, int, int, int, int]
Known = tuple[int, int, int, int, int, int, int, int]
Handed = tuple[str, str, KnownTail, Remembered]  # (path, project folder, tail, row) of a file read
KEEP_EVERY = 1024  # rows read are handed to the memory this many at a time


class Memory(Protocol):
    """What an earlier listing said of each file (`index.listing.ListingMemory`). Every
    method may be called in a forked child; failing to remember is never an error."""

    def tails(self, project: Path) -> dict[str, Known]:
        """The project's files remembered, by session id."""
        ...

    def rows(self, keys: list[int]) -> dict[int, Remembered]:
        """The rows remembered under these keys (their texts as shown), by key."""
        ...

    def remember(self, rows: list[Handed]) -> None:
        """(path, project, the file's `KnownTail`, its row) of files just read."""
        ...


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class _Table:
    """The first pass's findings, one slot per session file, in flat arrays."""

    __slots__ = (
        "activity",
        "dev",
        "flags",
        "ino",
        "key",
        "mtime",
        "mtime_ns",
        "name_at",
        "names",
        "offset",
        "project",
        "projects",
        "size",
    )

    def __init__(self) -> None:
        self.projects: list[Path] = []
        self.project = array("I")
        self.names = bytearray()  # the ids, one after another (see UUID)
        self.name_at = array("I", [0])  # where each id ends in `names`
        self.mtime = array("d")
        self.mtime_ns = array("q")
        self.ino = array("Q")
        self.dev = array("Q")
        self.key = array("q")  # the key of the file's row in the memory (KNOWN slots), else -1
        self.size = array("q")
        self.flags = bytearray()
        self.activity = array("q")  # the last time written (else NO_TIME), in microseconds
        self.offset = array("i")  # the UTC offset the last time was written with, in seconds

    def add(self, project: int, sid: str, st: os.stat_result, tail: Tail) -> None:
        end = tail.end
        offset = end.utcoffset() if end is not None else None
        flags = TITLED if tail.titled else 0
        if end is not None and offset is not None and not offset.microseconds:
            flags |= ENDED
            seconds = offset // SECOND
        else:  # no time (or one an offset of seconds cannot give back): the row reads its tail
            flags |= TITLED if end is not None else 0
            seconds = 0
        self._add(project, sid, st, NO_TIME if end is None else _micros(end), seconds, flags, -1)

    def add_known(self, project: int, sid: str, st: os.stat_result, known: Known) -> None:
        """A slot from what the memory keeps of the file (`known`, of this very file)."""
        self._add(project, sid, st, known[4], known[5], KNOWN | known[6] & TAIL_FLAGS, known[7])

    def _add(
        self, project: int, sid: str, st: os.stat_result, activity: int, offset: int, flags: int, key: int
    ) -> None:
        self.key.append(key)
        self.activity.append(activity)
        self.offset.append(offset)
        self.project.append(project)
        if _UUID.fullmatch(sid):
            flags |= UUID
            self.names += bytes.fromhex(sid.replace("-", ""))
        else:
            self.names += os.fsencode(sid)
        self.name_at.append(len(self.names))
        self.mtime.append(timestamps.mtime(st))  # clamped per file: one far-future mtime is no error
        self.mtime_ns.append(timestamps.mtime_ns(st))
        ino, dev, _size, _mtime = stamp(st)
        self.ino.append(ino)
        self.dev.append(dev)
        self.size.append(st.st_size)
        self.flags.append(flags)

    def mark_folders(self, folders: set[str]) -> None:
        """Flag the slots whose id names one of `folders` (a `<id>/` folder beside the file)."""
        for i in range(len(self.flags)):
            if self.sid(i) in folders:
                self.flags[i] |= FOLDER

    def extend(self, other: _Table) -> None:
        """`other`'s slots after these (its project numbers are already this table's)."""
        base = len(self.names)
        self.project.extend(other.project)
        self.names += other.names
        self.name_at.extend(base + at for at in other.name_at[1:])
        self.mtime.extend(other.mtime)
        self.mtime_ns.extend(other.mtime_ns)
        self.ino.extend(other.ino)
        self.dev.extend(other.dev)
        self.key.extend(other.key)
        self.size.extend(other.size)
        self.flags += other.flags
        self.activity.extend(other.activity)
        self.offset.extend(other.offset)

    def sid(self, i: int) -> str:
        name = bytes(self.names[self.name_at[i] : self.name_at[i + 1]])
        if not self.flags[i] & UUID:
            return os.fsdecode(name)
        h = name.hex()
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def ref(self, i: int) -> SessionRef:
        project = self.projects[self.project[i]]
        sid = self.sid(i)
        return SessionRef(
            sid, paths.session_file(project, sid), project, self.mtime[i], self.size[i], bool(self.flags[i] & FOLDER)
        )

    def known_tail(self, i: int) -> KnownTail | None:
        """What the memory is to keep of slot `i`'s file for the first pass; None when the table
        cannot give its tail back (it is then read again each time: rare)."""
        flags = self.flags[i]
        if flags & TITLED and self.activity[i] != NO_TIME and not flags & ENDED:
            return None
        stamped = (self.ino[i], self.dev[i], self.size[i], self.mtime_ns[i])
        return (*stamped, self.activity[i], self.offset[i], flags & TAIL_FLAGS)

    def tail(self, i: int) -> Tail | None:
        """What the first pass read in the file's tail; None: the row reads the tail itself."""
        flags = self.flags[i]
        if flags & TITLED:
            return None
        if not flags & ENDED:
            return Tail(None, False)
        try:
            end = EPOCH + timedelta(microseconds=self.activity[i])
            offset = self.offset[i]
            return Tail(end.astimezone(timezone(timedelta(seconds=offset))) if offset else end, False)
        except (OverflowError, ValueError):  # the far ends of the calendar: read it again
            return None

    def order(self) -> array[int]:
        """Slots latest active first (see the module's docstring for the ties)."""
        # Sorting every slot at once would hold an int object per slot, twice (~80 bytes a
        # slot at the peak); runs of RUN slots are sorted and then merged into an array of
        # 4 bytes a slot. Stable throughout: equal times stay in slot order, and the rare runs
        # of equal times are then ordered by mtime and id.
        time = self.activity.__getitem__
        runs = [
            array("I", sorted(range(lo, min(lo + RUN, len(self.activity))), key=time, reverse=True))
            for lo in range(0, len(self.activity), RUN)
        ]
        order = runs[0] if len(runs) == 1 else array("I", heapq.merge(*runs, key=time, reverse=True))
        start = 0
        while start < len(order):
            stop = start + 1
            while stop < len(order) and self.activity[order[stop]] == self.activity[order[start]]:
                stop += 1
            if stop - start > 1:
                tied = sorted(order[start:stop], key=lambda i: (self.mtime[i], self.sid(i)), reverse=True)
                order[start:stop] = array("I", tied)
            start = stop
        return order


RUN = 4096  # slots sorted at once (then merged)
NO_TIME = -(2**63)  # the `activity` of a session with no time: before every time, so listed last
MEMORY_FROM = 200  # sessions: fewer are read without a memory (opening one costs ~30 file reads)


def latest_first(
    root: Path,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
    memory: Memory | None = None,
    memory_from: int = MEMORY_FROM,
) -> Listing:
    """The overviews of every project's sessions (`all_projects`), else of the project of
    `project_path` (default: the current directory), latest active first, those with no time
    last: those active at or after `since`, begun at or before `until` (else last active then),
    at most `limit` (a session with no time is left out by `since` and `until`). `memory`:
    what earlier listings said of the files (those unchanged since are not opened), used from
    `memory_from` session files on.

    The files are found and ordered now (NotFound / NoSessionsHere when there is nothing to
    list; a KitError for both a project and every one); each overview is made as the iterator
    reaches it."""
    check_scope(project_path, all_projects)
    require_claude_root(root)
    if all_projects:
        projects = list_project_dirs(root)
    else:
        where = project_path or os.getcwd()
        project = find_project(root, where)
        if project is None:
            raise NoSessionsHere(str(where), str(root))
        projects = [project]
    table = _Table()
    table.projects.extend(projects)

    if memory is not None and not _at_least(projects, memory_from):
        memory = None  # a few files are read sooner than a memory is opened
    after = None if since is None else _micros(since)

    def scan(number: int) -> _Table:
        found = _Table()
        folders: set[str] = set()
        known = memory.tails(projects[number]) if memory is not None else {}
        for sid, path, st in session_files(projects[number], folders):
            seen = known.get(sid)
            if seen is not None and seen[:4] == stamp(st):
                if after is None or (seen[6] & ENDED and seen[4] >= after):
                    found.add_known(number, sid, st, seen)
                continue
            tail = _tail(path, st.st_size)
            if since is None or (tail.end is not None and tail.end >= since):
                found.add(number, sid, st, tail)
        if folders:
            found.mark_folders(folders)
        return found

    # The projects' tails are read on two cores (every other project in a child); the
    # slots stay in the projects' order.
    for found in ordered_map(scan, range(len(projects)), workers=spare_workers(len(projects))):
        table.extend(found)
    return Listing(table, table.order(), until=until, limit=limit, memory=memory)


def _at_least(projects: list[Path], count: int) -> bool:
    """Whether the projects hold at least `count` files named as sessions are (names only)."""
    for project in projects:
        count -= count_named_as_sessions(str(project))
        if count <= 0:
            return True
    return False


UNREAD = Tail(None, True)  # a tail that could not be read: listed with the timeless, read again for the row


def _tail(path: str, size: int) -> Tail:
    try:
        fd = open_fd(path)[0]
    except OSError:  # removed or unreadable since it was listed
        return UNREAD
    try:
        return tail_facts(fd, size)
    except OSError:
        return UNREAD
    finally:
        os.close(fd)


class Listing:
    """Sessions found and ordered (the first pass); their overviews are made as they are
    reached, a batch at a time, and never kept."""

    def __init__(
        self, table: _Table, order: array[int], *, until: datetime | None, limit: int | None, memory: Memory | None
    ) -> None:
        self._table = table
        self._order = order
        self._until = until
        self._limit = limit
        self._memory = memory

    def __iter__(self) -> Iterator[SessionOverview]:
        agents = AgentLogs(with_meta=False)
        left = len(self._order) if self._limit is None else self._limit
        at = 0
        while left and at < len(self._order):
            # Only as many slots at a time as rows are still wanted: `--limit 5` reads 5 files.
            step = min(BATCH, left)
            rows, handed = self._made(self._order[at : at + step], agents)
            if handed and self._memory is not None:
                self._memory.remember(handed)
            at += step
            left -= len(rows)
            yield from rows

    def map_batches(self, func: Callable[[list[SessionOverview]], R]) -> Iterator[R]:
        """`func(batch)` for each batch of overviews in order (what iterating gives, in lists
        of at most BATCH), split over two cores for a long listing without a limit: `func`
        does the per-row work a caller would do after (e.g. writing JSON), in both halves."""
        if self._limit is not None:
            batch: list[SessionOverview] = []
            for row in self:
                batch.append(row)
                if len(batch) == BATCH:
                    yield func(batch)
                    batch = []
            if batch:
                yield func(batch)
            return
        agents = AgentLogs(with_meta=False)

        def made(start: int) -> tuple[R, list[Handed]]:
            rows, handed = self._made(self._order[start : start + BATCH], agents)
            return func(rows), handed

        # What was read is remembered here, not in a fork: one writer, never waiting on another.
        kept: list[Handed] = []
        starts = range(0, len(self._order), BATCH)
        for part, handed in ordered_map(made, starts, workers=spare_workers(len(starts))):
            kept.extend(handed)
            if len(kept) >= KEEP_EVERY and self._memory is not None:
                self._memory.remember(kept)
                kept = []
            yield part
        if kept and self._memory is not None:
            self._memory.remember(kept)

    def _made(self, slots: array[int], agents: AgentLogs) -> tuple[list[SessionOverview], list[Handed]]:
        """The shown overviews of these slots, in order (those `until` leaves out left out):
        from the memory where it knows the file, else read; and what the memory is to keep of
        those read."""
        table = self._table
        memory = self._memory
        refs = [table.ref(i) for i in slots]
        known: dict[int, Remembered] = {}
        if memory is not None:
            wanted = [table.key[i] for i in slots if table.flags[i] & KNOWN]
            known = memory.rows(wanted) if wanted else {}
        rows: list[SessionOverview] = []
        read: list[tuple[int, int]] = []  # (where in `rows`, slot) of each row read from its file
        for i, ref in zip(slots, refs):
            facts = known.get(table.key[i]) if known else None
            if facts is not None:
                row = remembered_overview(ref, agents, facts)
            else:
                row = raw_overview(ref, agents, table.tail(i))
            if self._until is not None:
                began = row.start or row.end
                if began is None or began > self._until:
                    continue
            if facts is None:
                read.append((len(rows), i))
            rows.append(row)
        handed: list[Handed] = []
        if read:
            for (at, _i), row in zip(read, shown_overviews([rows[at] for at, _i in read])):
                rows[at] = row
            if memory is not None:
                for at, i in read:
                    tail = table.known_tail(i)
                    if tail is not None:
                        row = rows[at]
                        handed.append((str(row.ref.path), str(row.ref.project), tail, row.remembered()))
        return rows, handed

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
Does not: read a transcript's head to order it, or print; what a row says is `overview`'s,
where the files are is `store`'s.
"""

from __future__ import annotations

import heapq
import os
import re
from array import array
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TypeVar

from session_kit.claude import paths
from session_kit.errors import NoSessionsHere
from session_kit.files import open_fd
from session_kit.forked import ordered_map, spare_workers
from session_kit.sessions.overview import BATCH, SessionOverview, raw_overview, shown_overviews
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

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


class _Table:
    """The first pass's findings, one slot per session file, in flat arrays."""

    __slots__ = ("activity", "flags", "mtime", "name_at", "names", "offset", "project", "projects", "size")

    def __init__(self) -> None:
        self.projects: list[Path] = []
        self.project = array("I")
        self.names = bytearray()  # the ids, one after another (see UUID)
        self.name_at = array("I", [0])  # where each id ends in `names`
        self.mtime = array("d")
        self.size = array("q")
        self.flags = bytearray()
        self.activity = array("q")  # the last time written (else NO_TIME), in microseconds
        self.offset = array("i")  # the UTC offset the last time was written with, in seconds

    def add(self, project: int, sid: str, mtime: float, size: int, tail: Tail) -> None:
        end = tail.end
        offset = end.utcoffset() if end is not None else None
        flags = TITLED if tail.titled else 0
        if end is not None and offset is not None and not offset.microseconds:
            flags |= ENDED
            self.offset.append(offset // SECOND)
        else:  # no time (or one an offset of seconds cannot give back): the row reads its tail
            flags |= TITLED if end is not None else 0
            self.offset.append(0)
        self.activity.append(NO_TIME if end is None else _micros(end))
        self.project.append(project)
        if _UUID.fullmatch(sid):
            flags |= UUID
            self.names += bytes.fromhex(sid.replace("-", ""))
        else:
            self.names += os.fsencode(sid)
        self.name_at.append(len(self.names))
        self.mtime.append(mtime)
        self.size.append(size)
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


def latest_first(
    root: Path,
    *,
    project_path: str | os.PathLike[str] | None = None,
    all_projects: bool = False,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
) -> Listing:
    """The overviews of every project's sessions (`all_projects`), else of the project of
    `project_path` (default: the current directory), latest active first, those with no time
    last: those active at or after `since`, begun at or before `until` (else last active then),
    at most `limit` (a session with no time is left out by `since` and `until`).

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

    def scan(number: int) -> _Table:
        found = _Table()
        folders: set[str] = set()
        for sid, path, mtime, size in session_files(projects[number], folders):
            tail = _tail(path, size)
            if since is None or (tail.end is not None and tail.end >= since):
                found.add(number, sid, mtime, size, tail)
        if folders:
            found.mark_folders(folders)
        return found

    # The projects' tails are read on two cores (every other project in a child); the
    # slots stay in the projects' order.
    for found in ordered_map(scan, range(len(projects)), workers=spare_workers(len(projects))):
        table.extend(found)
    return Listing(table, table.order(), until=until, limit=limit)


UNREAD = Tail(None, True)  # a tail that could not be read: listed with the timeless, read again for the row


def _tail(path: str, size: int) -> Tail:
    try:
        fd = open_fd(path)
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

    def __init__(self, table: _Table, order: array[int], *, until: datetime | None, limit: int | None) -> None:
        self._table = table
        self._order = order
        self._until = until
        self._limit = limit

    def __iter__(self) -> Iterator[SessionOverview]:
        agents = AgentLogs(with_meta=False)
        left = len(self._order) if self._limit is None else self._limit
        batch: list[SessionOverview] = []
        for i in self._order:
            if not left:
                break
            row = self._raw(i, agents)
            if row is None:
                continue
            batch.append(row)
            left -= 1
            if len(batch) == BATCH:
                yield from shown_overviews(batch)
                batch = []
        yield from shown_overviews(batch)

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

        def made(start: int) -> R:
            rows = (self._raw(i, agents) for i in self._order[start : start + BATCH])
            return func(shown_overviews([row for row in rows if row is not None]))

        starts = range(0, len(self._order), BATCH)
        yield from ordered_map(made, starts, workers=spare_workers(len(starts)))

    def _raw(self, i: int, agents: AgentLogs) -> SessionOverview | None:
        """Slot `i`'s overview before its prompt is shown; None when `until` leaves it out."""
        row = raw_overview(self._table.ref(i), agents, self._table.tail(i))
        if self._until is not None:
            began = row.start or row.end
            if began is None or began > self._until:
                return None
        return row

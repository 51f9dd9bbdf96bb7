"""One transcript file (a session or an agent log) streamed through the steps into units.

Owns: the order of the steps on each line (noise by raw type, unreadable lines, repeated
entries (a uuid an earlier line had: a file resumed or copied into itself), the session filter, the split of a 1.0.x file's inline agents from its main conversation, then the
content steps in `elements`), grouping the lines an assistant message is written as into one
entry, the log's cwd, branch, client version and token usage, and redacting the units' texts
in batches (one pass over ~64 KB of joined text costs far less than a pass over each; on a big
file one batch is redacted by `redacting`'s worker while the next ones are built, and redacted
here while the worker is busy, so units come out a few batches late, always in order). Yields
format-neutral units (`conversation.items.Unit`), one per entry, and never holds more than
MAX_HELD batches. Does
not render a format (`preprocess/render/`, `view`), decide where documents start and end
(`preprocess.sinks`) or which agent logs are read (`preprocess.pipeline`, `view.build`); it
does say how a session's files are read, for both (`SessionReading`).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path

from session_kit.base import layout
from session_kit.base.fileio import open_fd
from session_kit.base.headfield import field_needles
from session_kit.conversation import steps
from session_kit.conversation.elements import ConvertOptions, LogFacts, UnitBuilder
from session_kit.conversation.items import REPLACEMENT, Unit, clean, replace_texts
from session_kit.conversation.noise import NoiseTally, conversation_lines
from session_kit.conversation.redacting import BatchRedactor, file_size, second_core_pays
from session_kit.redaction.engine import SEPARATOR, Redactor
from session_kit.sessions.store import SessionRef
from session_kit.transcript.entries import KIND_ASSISTANT, KIND_NOISE, Entry
from session_kit.transcript.glance import file_holds
from session_kit.transcript.reader import ReadStats, expect_to_parse, parse_line

BATCH_CHARS = 64 * 1024  # text redacted in one pass (bounds the units held)
AHEAD = 2  # batches waiting for the worker before this process redacts some itself
MAX_HELD = 8  # batches held (behind the worker's) before waiting for the worker
_WITH_WORKER = 0  # a held batch's state while the worker has it

__all__ = ["BATCH_CHARS", "ConvertOptions", "LogConverter", "LogFacts", "SessionReading"]


class SessionReading:
    """How a session's transcript and its agent logs are read, for `preprocess` and `view`
    alike: which session's entries a file keeps, the Claude roots log discovery looks for, one
    reduction tally and one read tally for the whole session, one redactor."""

    def __init__(self, ref: SessionRef, *, filtering: bool, thinking: bool, redactor: Redactor | None) -> None:
        self.ref = ref
        self.filtering = filtering
        self.thinking = thinking
        self.redactor = redactor
        self.reduction = steps.Reduction()
        self.read = ReadStats()
        # A file holds what it holds: entries of other sessions are dropped only from a file
        # that has entries of its own id (a renamed copy, or an agent log named as the session,
        # has none), and only by the content steps (`view` and `--no-filtering` read every
        # entry, as `show` counts them).
        self.own = ref.id if filtering and holds_session(ref.path, ref.id) else None
        self.roots = claude_roots_of(ref)

    def converter(
        self,
        path: str | os.PathLike[str],
        agent_id: str | None = None,
        *,
        skip_sidechains: Callable[[], bool] | None = None,
        thread: frozenset[str] | None = None,
    ) -> LogConverter:
        """The converter of the session's file (`agent_id` None) or of one agent's log."""
        options = ConvertOptions(
            session_id=self.own,
            skip_sidechains=skip_sidechains,
            thread=thread,
            filtering=self.filtering,
            thinking=self.thinking,
            claude_roots=self.roots,
            agent_id=agent_id,
        )
        # An inline agent's lines were read (and counted) with the session's file already.
        read = self.read if thread is None else ReadStats()
        return LogConverter(path, options, reduction=self.reduction, read=read, redactor=self.redactor)


def claude_roots_of(ref: SessionRef) -> tuple[str, ...]:
    """The Claude root a session lives in, and its `projects` folder, as path strings."""
    root = layout.root_of(str(ref.path))
    return (root, layout.projects_dir(root)) if root is not None else ()


def of_session(session_id: str, own: str) -> bool:
    """An entry's `sessionId` is the session's own: its id, or (a workflow agent's log, 2.1.x)
    its id followed by `#agent-<id>`."""
    return session_id == own or session_id.startswith(f"{own}#")


def holds_session(path: Path, session_id: str) -> bool:
    """Whether the file has entries of `session_id` (its `sessionId` written as the client
    writes it, with or without a space); one byte search, the file is not parsed."""
    try:
        fd = open_fd(path)[0]
    except OSError:
        return True  # the conversion reports the error
    try:
        sid = session_id.encode()
        return file_holds(fd, *field_needles(b"sessionId", sid))
    finally:
        os.close(fd)


class LogConverter:
    """Converts one transcript file; iterate `units()` once, then read `facts`."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        options: ConvertOptions,
        *,
        reduction: steps.Reduction,
        read: ReadStats,
        redactor: Redactor | None,
    ) -> None:
        self.path = path
        self.options = options
        self.reduction = reduction
        self.read = read
        self.redactor = redactor
        self.builder = UnitBuilder(options, reduction=reduction, redactor=redactor)
        self._pending: list[Unit] = []
        self._bounds: list[int] = []  # where each pending unit's texts end in `builder.texts`
        self._pending_chars = 0
        # The batches handed over, in order: [units, bounds, texts, joined as read, joined
        # cleaned, redacted (None while the worker has it)].
        self._held: deque[list] = deque()
        self._remote: list | None = None  # the held batch the worker has
        self._waiting: deque[list] = deque()  # the held batches neither redacted nor sent
        self.batches: BatchRedactor | None = None  # made when the conversion starts

    @property
    def facts(self) -> LogFacts:
        return self.builder.facts

    # --- the line loop --------------------------------------------------------------------------
    def units(self) -> Iterator[Unit]:
        reduction = self.reduction
        target = self.options.session_id
        skip_sidechains = self.options.skip_sidechains
        thread = self.options.thread
        facts = self.builder.facts
        noise = NoiseTally()  # the common case, tallied apart and added at the end
        lines = conversation_lines(self.path, self.read, noise)
        group: list[Entry] = []  # the lines of the assistant message being read
        group_id: str | None = None
        assistant, other = self.builder.assistant, self.builder.entry
        seen: set[str] = set()  # the uuids of the entries read (as `entries.read_entries`)
        try:
            # On a big file a worker redacts batches beside this process (`redacting`), and
            # msgspec parses from the first line.
            size = file_size(self.path)
            if self.redactor is not None:
                self.batches = BatchRedactor(self.redactor, parallel=second_core_pays(size))
            expect_to_parse(size // 8)  # (about a fifth of a big session's bytes is conversation)
            for line_no, raw in lines:
                value = parse_line(raw, self.read, line_no)
                size = len(raw)
                if value is None:
                    reduction.count(steps.STEP_UNREADABLE, size)
                    continue
                entry = Entry.from_raw(line_no, value)
                uuid = entry.uuid
                if uuid is not None:
                    if uuid in seen:  # a file resumed or copied into itself: each entry once
                        self.read.repeated += 1
                        continue
                    seen.add(uuid)
                if thread is not None:
                    if entry.uuid not in thread:
                        continue  # the main conversation's, or another agent's: converted there
                elif entry.is_sidechain and skip_sidechains is not None and skip_sidechains():
                    continue  # an inline agent's: converted in its own section
                if entry.kind == KIND_NOISE:
                    noise.entries += 1
                    noise.chars += size
                    continue
                session_id = entry.session_id
                if target is not None and session_id is not None and not of_session(session_id, target):
                    reduction.count(steps.STEP_SESSION_FILTER, size)
                    continue
                if facts.cwd is None and entry.cwd:
                    facts.cwd, facts.branch = entry.cwd, entry.git_branch
                if facts.version is None:
                    facts.version = entry.version
                if entry.kind == KIND_ASSISTANT:
                    facts.tokens.add(entry)
                    message_id = entry.message_id
                    if group and message_id is not None and message_id == group_id:
                        group.append(entry)
                        continue
                    if group:
                        yield from self._take(assistant(group))
                    group, group_id = [entry], message_id
                    continue
                if group:
                    yield from self._take(assistant(group))
                    group, group_id = [], None
                yield from self._take(other(entry))
            if group:
                yield from self._take(assistant(group))
            yield from self._flush()
        finally:
            lines.close()  # (its counts are in `noise` once it is closed)
            if self.batches is not None:
                self.batches.close()
            # The file's bytes (and its noise) are counted once, by its main section.
            if thread is None:
                reduction.input_chars += noise.input_chars
                reduction.count(steps.STEP_NOISE, noise.chars, noise.entries)

    def _take(self, unit: Unit | None) -> list[Unit]:
        """Queue a built unit; returns the units of a finished batch once enough text waits."""
        texts = self.builder.texts
        start = self._bounds[-1] if self._bounds else 0
        if not unit:
            del texts[start:]  # a unit dropped after all: its texts go with it
            return []
        self.builder.facts.check.saw_entry()
        self._pending.append(unit)
        self._bounds.append(len(texts))
        self._pending_chars += sum(map(len, texts[start:]))
        if self._pending_chars < BATCH_CHARS:
            if self._remote is not None and self._waiting and self.batches.ready():  # type: ignore[union-attr]
                self._share(final=False)  # the worker is free: give it the next batch now
                return self._done()
            return []
        self._hand_over()
        if self.batches is not None:
            self._share(final=False)
        return self._done()

    def _flush(self) -> list[Unit]:
        """Every unit still held, its texts cleaned and redacted (the end of the log)."""
        self._hand_over()
        if self.batches is not None:
            self._share(final=True)
        return self._done()

    def _hand_over(self) -> None:
        """Queue the pending batch to be redacted. Its texts are cleaned (made safe for any
        output) and joined here; with no redactor, or no text, it is done as it is."""
        pending = self._pending
        if not pending:
            return
        texts = self.builder.texts
        original = joined = SEPARATOR.join(texts)
        # NUL inside a text would split it: it is one of the characters `clean` replaces anyway.
        if texts:
            if joined.count(SEPARATOR) != len(texts) - 1:
                joined = SEPARATOR.join(t.replace(SEPARATOR, REPLACEMENT) for t in texts)
            joined = clean(joined, keep_nul=True)
        batch = [pending, self._bounds, texts, original, joined, joined]
        if self.batches is not None and texts:
            batch[5] = None
            self._waiting.append(batch)
        self._held.append(batch)
        self._pending, self._bounds, self._pending_chars = [], [], 0
        self.builder.texts = []

    def _share(self, *, final: bool) -> None:
        """Redact the held batches, sharing them with the worker: it takes the oldest waiting
        whenever it is free (looked at after each unit); this process redacts the newest once
        more than AHEAD wait (it builds batches faster than they are redacted) and, at the
        end, all the worker does not get to. Without a worker, each is redacted here at once."""
        batches, waiting = self.batches, self._waiting
        assert batches is not None
        while True:
            remote = self._remote
            if remote is not None and ((final and not waiting) or len(self._held) > MAX_HELD or batches.ready()):
                remote[5] = batches.result()
                remote = self._remote = None
            if remote is None and waiting:
                first = waiting.popleft()
                if batches.send(first[4]):
                    first[5], self._remote = _WITH_WORKER, first
                else:
                    first[5] = batches.here(first[4])
                continue
            if len(waiting) > (0 if final else AHEAD):
                last = waiting.pop()
                last[5] = batches.here(last[4])
                continue
            if not final or self._remote is None:
                return

    def _done(self) -> list[Unit]:
        """The units of the batches redacted so far, in order, their texts put in."""
        out: list[Unit] = []
        held = self._held
        while held and isinstance(held[0][5], str):
            out += self._filled(*held.popleft())
        return out

    def _filled(
        self, pending: list[Unit], bounds: list[int], texts: list[str], original: str, joined: str, redacted: str
    ) -> list[Unit]:
        """A batch's units with its redacted texts put in."""
        if redacted != joined:
            self.reduction.count(steps.STEP_REDACTION, len(joined) - len(redacted))
            joined = redacted
        if joined is not original:
            new = joined.split(SEPARATOR)
            start = 0
            for unit, end in zip(pending, bounds):
                if new[start:end] != texts[start:end]:
                    replace_texts(unit, iter(new[start:end]))
                start = end
        return pending

"""One file's incremental, lossless copy in the archive, and the files that make up a session.

Owns: copying only the bytes appended since the last copy, as one more gzip member, with the
CRC-32 of the original bytes carried on; a file the client rewrote or replaced (its head or
the bytes before the offset changed, another inode that does not begin with what was
archived, cut shorter) starts a new generation: its bytes go to a new member file and every
earlier generation is kept as it was (the client rewrites transcripts in place: dropping the
history before a compaction, "self-healing" a damaged file); rewriting every generation of
a copy in place at the same length (`rewrite`: secrets scrubbed); which files belong to a session
(its transcript, the client's set-aside copies of it `<id>.jsonl.superseded-<ms>`, everything
in its `<id>/` folder: agent logs and meta files, spilled tool outputs `tool-results/`,
`custom-title.json`, `precompact.json`, a workflow's `journal.jsonl`; its 2025-layout agent
logs; its plan file) and which of the files under a Claude root to archive (plans with the
session whose slug names them), from the one walk of the root (`base.layout`).
Does not: parse transcripts (a session id or slug is looked up in the raw bytes), decide when
to run (hooks, `background`, the CLI), know the folders and manifests (`layout`), read
members (`members`) or copies back (`generations`: it asks that module for a rewritten file's
earlier part), check them (`verify`) or put files back (`view`). Standard library (and the kit's
standard-library-only `state` and `transcript.follow`) only.

Crash safety: a member is written first and the manifest replaced (rename) after, so a kill
leaves the old manifest, and the next copy cuts the member back to the size the manifest
records (a copy killed half-way is redone, never doubled). A new generation is written to its
own member file before the manifest names it: a kill during a generation switch leaves the
earlier generation whole and the switch is done again. Folders 0700, files 0600; nothing is
written through a symlink inside the state folder.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Iterable, Iterator

from session_kit.archive import generations, layout
from session_kit.archive.layout import GZ, MANIFEST, Archived
from session_kit.archive.members import member_chunks
from session_kit.base import fileio, timestamps
from session_kit.base import layout as client
from session_kit.base.follow import checkpoint, resume, unchanged
from session_kit.base.headfield import field_in, head_field
from session_kit.base.layout import SESSION_SUFFIX
from session_kit.state.root import check_no_symlink, ensure_dir

CHUNK = 1 << 20
# zlib level 1 (gzip -1): transcripts are repetitive JSON; higher levels cost 3-5x the time
# for ~15% less (measured on the benchmark root).
LEVEL = 1
HEAD_BYTES = 256 * 1024  # how far into a file its session id is looked for
SLUG_BYTES = 64 * 1024  # and its slug (on every entry of a session that has one)
PLANS = client.PLANS


def archive_file(
    base: str, claude_root: str, path: str, *, session: str | None = None, made: set[str] | None = None
) -> int:
    """Bring the archived copy of `path` (a file under `claude_root`) up to date in the root's
    archive `base`; returns the original bytes copied this time (0: nothing new). OSError when
    `path` cannot be read. `made`: folders of the archive already made and checked for
    symlinks in this run (a walk over thousands of files checks each once)."""
    rel = os.path.relpath(path, claude_root).replace(os.sep, "/")
    if rel.startswith("../") or rel == "..":
        raise ValueError(f"{path} is not under {claude_root}")
    gz = layout.member_path(base, rel)
    src, info = fileio.open_fd(path)
    try:
        old = layout.load_manifest(gz)
        if unchanged(layout.checkpoint_of(old), info) and (session is None or old.get("session") == session):
            return 0  # the common case: no lock, no read
        folder = os.path.dirname(gz)
        if made is None or folder not in made:
            ensure_dir(folder, root=base)
            if made is not None:
                made.add(folder)
        with layout.locked(base):
            # Opened only under the lock: a scrub may have replaced the member while we waited.
            # The folder was checked for symlinks (`ensure_dir`); O_NOFOLLOW guards the file itself.
            out = fileio.open_fd(gz, flags=os.O_RDWR | os.O_CREAT | fileio.NOFOLLOW)[0]
            try:
                # Both again, under the lock: another copy may have run, and taken the file
                # further than our first look at it went (that is no cut: no new generation).
                old = layout.load_manifest(gz)
                info = os.fstat(src)
                if unchanged(layout.checkpoint_of(old), info) and (session is None or old.get("session") == session):
                    return 0
                return _copy(base, src, out, info, gz, old, rel, session)
            finally:
                os.close(out)
    finally:
        os.close(src)


def _crc_of_file(fd: int, size: int) -> int:
    crc, position = 0, 0
    while position < size:
        chunk = os.pread(fd, min(CHUNK, size - position), position)
        if not chunk:
            return -1  # cut short: not the same bytes
        crc = zlib.crc32(chunk, crc)
        position += len(chunk)
    return crc


def _crc_of_member(member: str, gz_size: int) -> int:
    crc = 0
    for chunk in member_chunks(member, gz_size):
        crc = zlib.crc32(chunk, crc)
    return crc


def _copy(
    base: str, src: int, out: int, info: os.stat_result, gz: str, old: dict | None, rel: str, session: str | None
) -> int:
    size = info.st_size  # bytes appended while we copy wait for the next copy
    start = gz_size = crc = generation = 0
    closed: list[dict] = []
    if old and isinstance(old.get("gz_size"), int) and isinstance(old.get("offset"), int):
        closed = [g for g in old.get("gens") or () if isinstance(g, dict)]
        generation = old.get("gen") if isinstance(old.get("gen"), int) else 0
        member = layout.member_path(base, rel, generation)
        had, crc = old["offset"], old.get("crc")
        if not isinstance(crc, int):  # archived before checksums were kept: counted once now
            crc = _crc_of_member(member, old["gz_size"])
        start = resume(src, info, layout.checkpoint_of(old))[0]
        if not start and had and size >= had and _crc_of_file(src, had) == crc:
            start = had  # another inode (a copy, a restore) that begins with what we have
        if start:
            gz_size = old["gz_size"]
        elif had:  # rewritten or replaced: the copy so far becomes an earlier generation
            closed.append({"gen": generation, "size": had, "gz_size": old["gz_size"], "crc": crc})
            generation, crc = generation + 1, 0
        else:
            crc = 0
    if old and start == size and gz_size:  # nothing new (a plan may have learnt its session)
        known = session if session is not None else old.get("session")
        checked = checkpoint(src, info, start).to_text()
        layout.save_manifest(
            gz, {**old, "session": known, "crc": crc, "checkpoint": checked, "mtime": timestamps.mtime(info)}
        )
        return 0
    target = out if not generation else _open_member(base, layout.member_path(base, rel, generation))
    try:
        os.ftruncate(target, gz_size)  # a member a killed copy left past the manifest goes
        os.lseek(target, gz_size, os.SEEK_SET)
        packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
        position = start
        while position < size:
            chunk = os.pread(src, min(CHUNK, size - position), position)
            if not chunk:
                break  # cut short while we read: what we have is what the file held
            position += len(chunk)
            crc = zlib.crc32(chunk, crc)
            fileio.write_all(target, packer.compress(chunk))
        fileio.write_all(target, packer.flush())
        written = os.lseek(target, 0, os.SEEK_CUR)
    finally:
        if target != out:
            os.close(target)
    switched = bool(old) and generation != (old.get("gen") or 0)
    manifest = {
        "v": layout.VERSION,
        "rel": rel,
        "session": session if session is not None else (old or {}).get("session"),
        "gens": closed,
        "gen": generation,
        "offset": position,
        "gz_size": written,
        "crc": crc,
        "checkpoint": checkpoint(src, info, position).to_text(),
        "mtime": timestamps.mtime(info) if position == size else 0.0,
        "archived": time.time(),
        "earlier": None if switched else (old or {}).get("earlier"),
    }
    layout.save_manifest(gz, manifest)
    if switched and rel.endswith(".jsonl"):
        try:
            if generations.write_earlier(base, rel):
                layout.save_manifest(gz, {**manifest, "earlier": generation})
        except (OSError, ValueError):
            pass  # the bytes are safe; a reader writes it again when it finds it missing
    return position - start


def _open_member(base: str, member: str) -> int:
    check_no_symlink(base, member)
    return fileio.open_fd(member, flags=os.O_RDWR | os.O_CREAT | fileio.NOFOLLOW)[0]


# --- every generation at once: what the secrets finder reads and `rewrite` changes -------------


def original_chunks(base: str, rel: str) -> Iterator[bytes]:
    """The original bytes of every generation of an archived file, oldest first (a secret
    kept only in an earlier generation is found too)."""
    entry = layout.archived(base, rel)
    if entry is None:
        raise FileNotFoundError(f"{rel} is not in the archive")
    for generation in entry.generations:
        yield from member_chunks(generation.member, generation.gz_size)


def read_original(base: str, rel: str) -> bytes:
    return b"".join(original_chunks(base, rel))


def rewrite(base: str, rel: str, change: Callable[[bytes], bytes]) -> bool:
    """Replace every generation of the archived copy of `rel` with `change(the bytes of all
    of them, oldest first)`, which must keep their length (secrets scrubbed in place: each
    generation keeps its size, its checksum is counted again, the next copy goes on from
    where the last stopped); a rewritten file's earlier part is written again. False when
    nothing changed."""
    gz = layout.member_path(base, rel)
    check_no_symlink(base, gz)
    with layout.locked(base):  # no copy into it meanwhile, and none into a member replaced here
        manifest = layout.load_manifest(gz)
        entry = layout.entry_of(base, manifest) if manifest else None
        if entry is None:
            return False
        data = read_original(base, rel)
        new = change(data)
        if new == data:
            return False
        if len(new) != len(data):
            raise ValueError(f"{rel}: a rewrite must keep the archived length")
        written: dict[int, dict] = {}
        start = 0
        for generation in entry.generations:
            piece = new[start : start + generation.size]
            if piece != data[start : start + generation.size]:
                packed = zlib.compressobj(LEVEL, zlib.DEFLATED, 31)
                packed_bytes = packed.compress(piece) + packed.flush()
                fileio.atomic_write(generation.member, packed_bytes, sync=False)
                written[generation.number] = {"gz_size": len(packed_bytes), "crc": zlib.crc32(piece)}
            start += generation.size
        gens = [{**g, **written.get(g.get("gen"), {})} for g in manifest.get("gens") or ()]
        newest = written.get(entry.generations[-1].number, {})
        layout.save_manifest(gz, {**manifest, **newest, "gens": gens, "rewritten": time.time()})
        if entry.rewritten and rel.endswith(".jsonl"):
            generations.write_earlier(base, rel)
        return True


# --- what is archived -------------------------------------------------------------------------


def all_archived(base: str) -> list[Archived]:
    return layout.entries_under(base, layout.files_dir(base))


def archived_sessions(base: str) -> dict[str, list[Archived]]:
    """Archived files by session id (files of no session left out)."""
    found: dict[str, list[Archived]] = {}
    for entry in all_archived(base):
        if entry.session:
            found.setdefault(entry.session, []).append(entry)
    return found


def archived_session_files(base: str, session_id: str) -> list[Archived]:
    """The archived files of one session, found through the project folders' listings: its
    transcript, its `<id>/` folder, (from the manifests of the project's agent logs) its
    2025-layout agents, and its plan (recorded with it, or named by its transcript's slug)."""
    found: list[Archived] = []
    for folder, listing in layout.project_listings(base):
        if f"{session_id}{SESSION_SUFFIX}{GZ}{MANIFEST}" not in listing and session_id not in listing:
            continue
        found.extend(e for e in layout.entries_under(base, folder) if e.session == session_id)
    if not found:
        return found
    plans = [
        e for e in layout.entries_under(base, os.path.join(layout.files_dir(base), PLANS)) if e.session == session_id
    ]
    if not plans:  # archived before plans recorded their session: named by the transcript's slug
        slug = _archived_slug(base, found, session_id)
        entry = layout.archived(base, f"{PLANS}/{slug}.md") if slug else None
        plans = [entry] if entry is not None else []
    return found + plans


def _archived_slug(base: str, entries: list[Archived], session_id: str) -> str | None:
    for entry in entries:
        place = client.where_rel(entry.rel)
        if place is not None and place.kind == client.TRANSCRIPT and place.session == session_id:
            newest = entry.generations[-1]
            head = b""
            for chunk in member_chunks(newest.member, newest.gz_size):
                head += chunk
                if len(head) >= SLUG_BYTES:
                    break
            return _slug_in(head)
    return None


# --- what to archive ----------------------------------------------------------------------


def _plan_name(slug: str | None) -> str | None:
    """A slug that can name a plan file (no path in it)."""
    return slug if slug and "/" not in slug and "\\" not in slug and not slug.startswith(".") else None


def _slug_in(head: bytes) -> str | None:
    return _plan_name(field_in(head, b"slug"))


def _plan_of(claude_root: str, transcript: str) -> str | None:
    slug = _plan_name(head_field(transcript, b"slug", limit=SLUG_BYTES))
    plan = os.path.join(client.plans_dir(claude_root), slug + ".md") if slug else None
    return plan if plan and os.path.isfile(plan) else None


def session_files(claude_root: str, transcript: str) -> list[tuple[str, str]]:
    """(path, session id) of the files that make up the session of `transcript`: the file,
    the client's set-aside copies of it (`<id>.jsonl.superseded-<ms>`), everything in its
    `<id>/` folder, the project's 2025-layout agent logs that name it, and its plan file
    (`plans/<slug>.md`)."""
    session = client.session_of_name(os.path.basename(transcript))
    session = session or head_field(transcript, b"sessionId", limit=HEAD_BYTES) or ""
    project = os.path.dirname(transcript)
    found = [(transcript, session)] if os.path.isfile(transcript) else []
    for item in client.project_files(project, folders=session.__eq__, contents=True):
        if item.kind == client.LEGACY_AGENT:
            if head_field(item.path, b"sessionId", limit=HEAD_BYTES) == session:
                found.append((item.path, session))
        elif item.kind != client.TRANSCRIPT and item.session == session:  # set aside, or in its folder
            found.append((item.path, session))
    plan = _plan_of(claude_root, transcript)
    if plan:
        found.append((plan, session))
    return found


def everything(
    claude_root: str, base: str | None = None, known: Callable[[str], str | None] | None = None
) -> Iterator[tuple[str, str | None]]:
    """(path, session id) of every file worth archiving under a Claude root, project by
    project: transcripts, the client's set-aside copies of them, 2025-layout agent logs,
    everything in each session's folder; then the plan files, each with the session whose
    slug names it (looked up only for a plan `base`, the root's archive, does not know the
    session of yet). `known(path)`: the session a file unchanged since it was archived is
    known by ("": none), None for any other file; the heads of files it knows are not read
    again."""
    transcripts: list[str] = []
    for project in client.project_folders(claude_root):
        for item in client.project_files(project, contents=True):
            if item.kind == client.PROJECT_FILE:
                continue
            if item.kind == client.LEGACY_AGENT:
                session = known(item.path) if known else None
                yield (
                    item.path,
                    (session or None) if session is not None else head_field(item.path, b"sessionId", limit=HEAD_BYTES),
                )
                continue
            if item.kind == client.TRANSCRIPT:
                transcripts.append(item.path)
            yield item.path, item.session
    plans = client.plan_files(claude_root)
    slugs: dict[str, str] | None = None
    settled = None  # every transcript is as when archived: none can name a plan of no session anew
    for path in plans:
        name = os.path.basename(path)
        session = known(path) if known else None
        if session is None and base:
            archived = layout.archived(base, f"{client.PLANS}/{name}")
            session = archived.session if archived else None
        if session == "" and settled is None:
            settled = all(known(path) for path in transcripts) if known else False
        if session is None or (session == "" and not settled):
            if slugs is None:
                slugs = _slugs(transcripts)
            session = slugs.get(name[: -len(".md")])
        yield path, session or None


def _slugs(transcripts: Iterable[str]) -> dict[str, str]:
    """The session each plan slug belongs to (the newest transcript naming it)."""
    found: dict[str, tuple[float, str]] = {}
    for path in transcripts:
        slug = _plan_name(head_field(path, b"slug", limit=SLUG_BYTES))
        if slug:
            try:
                mtime = timestamps.mtime(os.stat(path))
            except OSError:
                continue
            if slug not in found or mtime > found[slug][0]:
                found[slug] = (mtime, client.session_of_name(os.path.basename(path)) or "")
    return {slug: session for slug, (_mtime, session) in found.items()}


def archive_paths(
    base: str,
    claude_root: str,
    files: Iterable[tuple[str, str | None]],
    *,
    progress: Callable[[int, int], object] | None = None,
    errors: list[str] | None = None,
) -> tuple[int, int]:
    """Archive each file into the root's archive `base`; returns (files copied into, original
    bytes copied). A file that cannot be read is named in `errors` and skipped."""
    ensure_dir(layout.files_dir(base), root=base)
    touched = copied = 0
    made: set[str] = set()
    for path, session in files:
        try:
            added = archive_file(base, claude_root, path, session=session, made=made)
        except (OSError, ValueError) as exc:
            if errors is not None:
                errors.append(f"{path}: {getattr(exc, 'strerror', None) or exc}")
            continue
        if added:
            touched += 1
            copied += added
        if progress is not None:
            progress(touched, copied)
    return touched, copied

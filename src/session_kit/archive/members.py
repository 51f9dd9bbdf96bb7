"""The original bytes of an archived copy's gzip members.

Owns: reading one member file back, gzip member after gzip member, up to the size its
manifest records (each member's CRC checked by zlib; a damaged or short member is an
`OSError` like any unreadable file). What `store` (a checksum counted again, a slug, every
generation at once), `generations` (a generation's bytes, the earlier part) and `verify` read.
Does not: know manifests or folders (`layout`), write members (`store`) or decide which
generation to read (its callers). Standard library only.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from session_kit.base.fileio import open_regular

CHUNK = 1 << 20


def member_chunks(member: str, gz_size: int) -> Iterator[bytes]:
    """The original bytes in the gzip members of `member` up to `gz_size` (each member's own
    CRC checked by zlib)."""
    with open_regular(member) as f:
        remaining = gz_size
        unpacker = zlib.decompressobj(31)
        while remaining > 0:
            data = f.read(min(CHUNK, remaining))
            if not data:
                raise OSError(f"{member}: shorter than its manifest says")
            remaining -= len(data)
            while data:
                try:
                    out = unpacker.decompress(data)
                except zlib.error as exc:  # damaged: an OSError like any unreadable file
                    raise OSError(f"{member}: damaged ({exc})") from None
                if out:
                    yield out
                if unpacker.eof:  # the next gzip member starts in what is left
                    data = unpacker.unused_data
                    unpacker = zlib.decompressobj(31)
                else:
                    data = b""

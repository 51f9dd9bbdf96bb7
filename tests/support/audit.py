"""What a piece of code opens: an audit hook that records the paths this process opens."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def opened() -> Iterator[list[str]]:
    """The paths this process opens meanwhile (an audit hook: nothing is replaced)."""
    seen: list[str] = []
    live = [True]

    def hook(event: str, args: tuple) -> None:
        if live[0] and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            seen.append(os.fsdecode(args[0]))

    sys.addaudithook(hook)  # an audit hook stays for the process: it is switched off after
    try:
        yield seen
    finally:
        live[0] = False

"""The kit's one error type and its exit codes.

Core modules raise `KitError` for anything a user can cause (a missing session, an ambiguous
prefix, a bad argument); the CLI turns it into one line on stderr and its exit code. Anything
else escaping the core is a bug, reported as `internal error` with exit code 1.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_AMBIGUOUS = 4
EXIT_BAD_FILE = 5
EXIT_NOTHING_TO_DO = 6  # preprocess: the session is empty or a warmup, nothing was written

EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 internal error; 2 usage error (bad option or argument); "
    "3 not found (no such session, project or Claude root); "
    "4 ambiguous session prefix (the candidates are listed); "
    "5 a file the kit must change is not valid (it is left as it was); "
    "6 nothing to preprocess (an empty or warmup session; nothing written)."
)


class KitError(Exception):
    """A user-facing error: `message` is printed as one line, `exit_code` is returned."""

    def __init__(self, message: str, *, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class NotFound(KitError):
    def __init__(self, message: str) -> None:
        super().__init__(message, exit_code=EXIT_NOT_FOUND)


class Ambiguous(KitError):
    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message, exit_code=EXIT_AMBIGUOUS)
        self.candidates = candidates

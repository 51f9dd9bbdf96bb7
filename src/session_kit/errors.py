"""The kit's error types and its exit codes.

Owns: `KitError` and its kinds, for anything a user can cause (a missing session, an
ambiguous prefix, options that do not go together, a file the kit must not change). Each
carries the facts (the path, the candidates, the option names) and a message in the
library's words; a message never names a command-line flag: the CLI words those (it maps
option names to flags and adds hints, in `cli.errors`). Anything else escaping the core is a
bug, reported by the CLI as `internal error` with exit code 1. `Skipped` is the warning
for what a read passed over and went on without.
"""

from __future__ import annotations

from collections.abc import Sequence

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_AMBIGUOUS = 4
EXIT_BAD_FILE = 5
EXIT_NOTHING_TO_DO = 6  # preprocess: the session is empty or a warmup, nothing was written
EXIT_DRIFT = 7  # doctor --transcripts --strict: transcripts hold types the kit does not know
EXIT_SECRETS = 8  # secrets: secrets were found (with --scrub: some are left)
EXIT_DAMAGED = 9  # archive --verify: archived bytes are missing or damaged
EXIT_TEAM_UNREACHABLE = 10  # sync, --team: the team database's server cannot be reached
EXIT_TEAM_REFUSED = 11  # sync, --team: the server refused the credentials (or the database is not there)
EXIT_TEAM_SCHEMA = 12  # sync, --team: the team database was made by a newer kit
EXIT_INTERRUPTED = 130  # Ctrl-C: 128 + SIGINT, as shells report it

TEAM_CODES = (EXIT_TEAM_UNREACHABLE, EXIT_TEAM_REFUSED, EXIT_TEAM_SCHEMA)  # any command that reads or writes it

# What each code means, for the help of the commands that can end with it.
EXIT_MEANINGS = {
    EXIT_OK: "ok",
    EXIT_INTERNAL: "internal error",
    EXIT_USAGE: "usage error (bad option or argument)",
    EXIT_NOT_FOUND: "not found (no such session, project or Claude root)",
    EXIT_AMBIGUOUS: "ambiguous session prefix (the candidates are listed)",
    EXIT_BAD_FILE: "a file the kit must change is not valid (it is left as it was)",
    EXIT_NOTHING_TO_DO: "nothing to preprocess (an empty or warmup session; nothing written)",
    EXIT_DRIFT: "--strict: types the kit does not know were found",
    EXIT_SECRETS: "secrets were found (with --scrub: some are still there)",
    EXIT_DAMAGED: "--verify: archived bytes are missing or damaged",
    EXIT_TEAM_UNREACHABLE: "the team database's server cannot be reached (a push keeps what it committed, whole)",
    EXIT_TEAM_REFUSED: "the team database refused the credentials, or does not exist (nothing was written)",
    EXIT_TEAM_SCHEMA: "the team database was made by a newer kit (nothing was written)",
}

EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 internal error; 2 usage error (bad option or argument); "
    "3 not found (no such session, project or Claude root); "
    "4 ambiguous session prefix (the candidates are listed); "
    "5 a file the kit must change is not valid (it is left as it was); "
    "6 nothing to preprocess (an empty or warmup session; nothing written); "
    "7 doctor --transcripts --strict: types the kit does not know were found; "
    "8 secrets: secrets were found (with --scrub: some are still there); "
    "9 archive --verify: archived bytes are missing or damaged; "
    "10 sync, --team: the team database's server cannot be reached; "
    "11 sync, --team: the team database refused the credentials, or does not exist; "
    "12 sync, --team: the team database was made by a newer kit."
)


class Skipped(UserWarning):
    """Not an error: a file or folder a read went past because it cannot be read (the message
    says which and why); the read goes on without it. The CLI prints each as one line."""


class Rebuilt(Skipped):
    """Not an error: a cache of the kit's (the index) was found damaged, set aside and made
    again from the transcripts (the message says which, why, and where the old copy went)."""


class BadSetting(Skipped):
    """Not an error: a setting of the kit's (a budget) that is malformed and left out (the
    message says which, why, and what is accepted); the command goes on without it."""


class KitError(Exception):
    """A user-facing error: `message` is one line, `exit_code` what the CLI exits with."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, exit_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if exit_code is not None:
            self.exit_code = exit_code


class NotFound(KitError):
    exit_code = EXIT_NOT_FOUND


class NoSessionsHere(NotFound):
    """No sessions for a project folder (the user may want every project instead)."""

    def __init__(self, where: str, root: str) -> None:
        super().__init__(f"no Claude Code sessions for {where} under {root}")
        self.where = where
        self.root = root


class NotAClaudeRoot(NotFound):
    """The folder read as the Claude root (`--claude-dir`, `$CLAUDE_CONFIG_DIR`) holds no
    `projects/`: not a Claude root, or one where no session was ever written."""

    def __init__(self, root: str) -> None:
        super().__init__(f"{root} is not a Claude root (it has no projects/ folder)")
        self.root = root


class Ambiguous(KitError):
    exit_code = EXIT_AMBIGUOUS

    def __init__(self, message: str, candidates: list[str]) -> None:
        super().__init__(message)
        self.candidates = candidates


class BadFile(KitError):
    """A file the kit must read or change is not what it should be; it was left as it was."""

    exit_code = EXIT_BAD_FILE

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


class InvalidOptions(KitError):
    """Options that are wrong or do not go together. `options` are their names in the
    library's terms (`to_stdout`, `max_tokens`); `message` has a `{}` for each, in order,
    which `describe()` fills with the names (the CLI fills them with its flags)."""

    def __init__(self, template: str, options: Sequence[str], *, detail: str = "") -> None:
        self.template = template
        self.options = tuple(options)
        self.detail = detail  # said after the template, as it is (a value the user gave)
        super().__init__(template.format(*self.options) + detail)

    def describe(self, name_of: dict[str, str]) -> str:
        return self.template.format(*(name_of.get(o, o) for o in self.options)) + self.detail


class NoScratchDir(KitError):
    """A session id that cannot name a scratch dir (where output would go by default)."""

    def __init__(self, session_id: str, reason: str) -> None:
        super().__init__(f"no scratch dir for session {session_id!r} ({reason})")
        self.session_id = session_id


class TeamError(KitError):
    """The team database (PostgreSQL) cannot be used: its server is down, it refused the
    credentials, or a newer kit made its schema. The message never holds a password."""


class TeamUnreachable(TeamError):
    exit_code = EXIT_TEAM_UNREACHABLE


class TeamRefused(TeamError):
    exit_code = EXIT_TEAM_REFUSED


class TeamSchemaNewer(TeamError):
    exit_code = EXIT_TEAM_SCHEMA


def cannot_read(path: object, error: OSError) -> KitError:
    """The error for a file the user named that cannot be read: NotFound when it is gone."""
    if isinstance(error, FileNotFoundError):
        return NotFound(f"{path} is gone")
    return KitError(f"cannot read {path}: {error.strerror or error}")

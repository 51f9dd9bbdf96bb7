"""Which team database, and connecting to it.

Owns: the database's address (`--to`, else `$SESSION_KIT_TEAM_URL`, else `team.url` in the
kit's config file), the machine name (`--machine`, else `team.machine`, else the host name)
and the user; connecting with psycopg 3 (the only module of the kit that imports it, inside
functions: nothing else, hooks above all, ever loads it); and turning a failure into one line
with the kit's exit code (`errors.TeamUnreachable`, `TeamRefused`) that never holds the
password, wherever it came from (the URL, `PGPASSWORD`, `.pgpass`: libpq reads the last two
itself); `team_database`, a connection at this kit's schema (`schema.ready`) whose every
failure, on the way in or later, is the kit's one-line error. Does not: know the tables
(`schema`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from session_kit.errors import EXIT_INTERNAL, KitError, TeamRefused, TeamUnreachable

URL_VARIABLE = "SESSION_KIT_TEAM_URL"
CONFIG_SECTION = "team"
MAX_CONFIG_BYTES = 1 << 20
CONNECT_TIMEOUT_S = 10

# What libpq says when it turned the credentials away, or there is no such database or role.
_REFUSED = re.compile(
    r"authentication failed|no password supplied|pg_hba\.conf|does not exist|permission denied",
    re.IGNORECASE,
)


def _config(state_root: str | None) -> dict[str, Any]:
    if state_root is None:
        return {}
    from session_kit.base.fileio import read_json_object

    config, _problem = read_json_object(os.path.join(state_root, "config.json"), MAX_CONFIG_BYTES)
    section = config.get(CONFIG_SECTION)
    return section if isinstance(section, dict) else {}


def team_url(given: str | None, state_root: str | None) -> str:
    """The team database's address: `given`, else `$SESSION_KIT_TEAM_URL`, else the config's
    `team.url`; a usage error (2) when none says one, or when it is no `postgresql://` URL
    libpq reads as it was meant (`check_url`)."""
    for url in (given, os.environ.get(URL_VARIABLE), _config(state_root).get("url")):
        if isinstance(url, str) and url.strip():
            return check_url(url.strip())
    raise KitError(
        f"no team database: give its address (postgresql://…) with --to, ${URL_VARIABLE} "
        f'or {{"{CONFIG_SECTION}": {{"url": …}}}} in the kit\'s config.json'
    )


SCHEMES = ("postgresql", "postgres")
EXPECTED = "postgresql://USER:PASSWORD@HOST[:PORT]/DATABASE"


def _split(url: str) -> tuple[str, str | None, str] | None:
    """(scheme, user-info, the rest) of a URL; the user-info runs to the last `@`, so a password
    holding `/` or `@` is all in it. None: no `scheme://`."""
    scheme, sep, rest = url.partition("://")
    if not sep or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme):
        return None
    at = rest.rfind("@")
    return (scheme, rest[:at], rest[at + 1 :]) if at >= 0 else (scheme, None, rest)


def check_url(url: str) -> str:
    """`url` when it is a PostgreSQL URL libpq reads as written; else a usage error naming the
    expected form (a password's `/`, `@`, `?` or `#` unencoded made libpq take part of it for
    the host, and print it)."""
    parts = _split(url)
    if parts is None or parts[0].lower() not in SCHEMES:
        raise KitError(f"not a PostgreSQL URL: {where(url)}; expected {EXPECTED}")
    userinfo = parts[1]
    if userinfo is not None and any(c in userinfo for c in "/@?#"):
        raise KitError(
            f"the team database's user or password holds an unencoded '/', '@', '?' or '#': {where(url)}; "
            f"expected {EXPECTED}, with those characters percent-encoded (%2F, %40, %3F, %23)"
        )
    from urllib.parse import urlsplit

    try:
        urlsplit(url).port  # noqa: B018 (a port that is no number raises)
    except ValueError:
        raise KitError(f"not a PostgreSQL URL: {where(url)}; expected {EXPECTED}") from None
    return url


def machine_name(given: str | None, state_root: str | None) -> str:
    """`given`, else the config's `team.machine`, else this host's name."""
    name = given or _config(state_root).get("machine")
    if not (isinstance(name, str) and name.strip()):
        import socket

        name = socket.gethostname() or "unknown"
    # PostgreSQL's text holds no NUL (a machine name typed or configured with one: `sync` failed)
    return name.strip().replace("\x00", "\ufffd")


def user_name() -> str | None:
    import getpass

    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name and no passwd entry
        return None


def secrets_of(url: str) -> list[str]:
    """The passwords a failure's text must not show: the URL's (all of its user-info after the
    user's name, whatever it holds) and `$PGPASSWORD`."""
    found = []
    parts = _split(url)
    if parts is not None and parts[1] and ":" in parts[1]:
        password = parts[1].split(":", 1)[1]
        from urllib.parse import unquote

        found += [password, unquote(password)]
    kv = re.search(r"(?:^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S+)", url)
    if kv:
        found.append(kv.group(1).strip("'"))
    if os.environ.get("PGPASSWORD"):
        found.append(os.environ["PGPASSWORD"])
    return sorted({s for s in found if s}, key=len, reverse=True)


def without_password(text: str, url: str) -> str:
    """`text` with every password it could hold taken out (`***`), the URL's user part kept."""
    for secret in secrets_of(url):
        text = text.replace(secret, "***")
    text = re.sub(r"(://[^:@/\s]*):\S*@", r"\1:***@", text)  # to the last `@`: any password
    text = re.sub(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", r"\1***", text, flags=re.IGNORECASE)
    return text


def where(url: str) -> str:
    """The database's address as the kit names it in a message: no password."""
    return without_password(url, url)


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        from session_kit.extras import install_hint

        raise KitError(f"the team database needs psycopg 3: {install_hint('team')}") from None
    return psycopg


def connect(url: str) -> Any:
    """A psycopg connection to the team database (autocommit off). A server that cannot be
    reached is `TeamUnreachable` (10); credentials refused or no such database, `TeamRefused`
    (11); the message is one line without the password."""
    psycopg = _driver()
    try:
        return psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, application_name="session-kit")
    except psycopg.Error as exc:
        raise failure(exc, url) from None


def failure(exc: BaseException, url: str) -> KitError:
    """The kit's error for what the driver raised: its words on one line, no password. The
    connection failing or lost is `TeamUnreachable`; credentials, a database or role that is
    not there, or a privilege missing, `TeamRefused`; anything else the server said, a
    `KitError` with exit code 1 (what was committed before stays, whole)."""
    said = without_password(" ".join(str(exc).split()) or type(exc).__name__, url)
    if _REFUSED.search(said):
        return TeamRefused(f"the team database {where(url)} refused the connection: {said}")
    lost = {c.__name__ for c in type(exc).__mro__} & {"OperationalError", "InterfaceError"}
    if lost or "connection" in said.lower():
        return TeamUnreachable(f"cannot reach the team database {where(url)}: {said}")
    return KitError(f"the team database {where(url)} failed: {said}", exit_code=EXIT_INTERNAL)


def is_driver_error(exc: BaseException) -> bool:
    """A psycopg error (without importing psycopg where it is not loaded)."""
    return any(cls.__module__.startswith("psycopg") for cls in type(exc).__mro__)


@contextmanager
def team_database(url: str, *, write: bool) -> Iterator[Any]:
    """An open connection to the team database at this kit's schema (migrated when `write`);
    any failure of the driver, on the way in or later, is the kit's one-line error."""
    from session_kit.team import schema

    team = connect(url)
    try:
        schema.ready(team, write=write)
        yield team
    except Exception as exc:
        if is_driver_error(exc):
            raise failure(exc, url) from None
        raise
    finally:
        try:
            team.close()
        except Exception:  # a connection the server dropped: nothing left to close
            pass

"""Where the catalog lives and how to connect to it: URL defaults, password masking, engines.

SQLite needs two adjustments to behave like PostgreSQL: foreign keys are off
unless asked for on every connection, and Python's sqlite3 driver does not put
DDL inside transactions, which would let a failed schema upgrade half-apply.
SQLAlchemy's documented recipe (emit BEGIN ourselves) fixes the latter.
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from catalog.errors import CatalogOpenError
from catalog.location import DEFAULT_FILE as DEFAULT_FILE  # re-exported: defined without SQLAlchemy
from catalog.location import ENV_VAR as ENV_VAR
from catalog.location import SECRET_KEYS, mask_secrets
from catalog.location import default_url as default_url

PG_CONNECT_TIMEOUT_S = 10  # a presales laptop off the VPN should hear "server down" quickly
PG_STATEMENT_TIMEOUT_S = 20  # no catalog statement takes seconds; a stuck one is a frozen server or a held lock
SQLITE_BUSY_TIMEOUT_S = 60  # a writer queues behind a 100,000-part import rather than failing
# Execution option: "IMMEDIATE" makes a SQLite transaction take the write lock at BEGIN, so two
# writers queue (busy timeout) instead of one failing with "database is locked" halfway.
SQLITE_BEGIN = "refarch_sqlite_begin"
# Serializes schema upgrades and first seeding of a shared PostgreSQL catalog between refarch instances.
PG_LOCK_KEY = 0x7265666172636800  # "refarch\0"


def _split_credentials(url: str) -> URL:
    """Parse a server URL with `urllib.parse`, credentials included, whatever the password holds.

    SQLAlchemy's own parser stops the password at the first `@`, so `p@ss` would leak `ss` into the
    host (and into every message). Here the user info ends at the *last* `@` before the host (what
    `urllib.parse` does with a netloc), the user name at the first `:`, and both are percent-decoded, so
    `@ : / %` work typed raw or percent-encoded (`%40 %3A %2F %25`).
    """
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme:
        raise ValueError("no scheme")
    # The host part starts after the last "@" that comes before the path; a raw "/" may be in the password.
    at = rest.rfind("@", 0, rest.find("/", rest.rfind("@")) if "/" in rest[rest.rfind("@"):] else len(rest))
    userinfo, hostpart = (rest[:at], rest[at + 1:]) if at >= 0 else ("", rest)
    parts = urllib.parse.urlsplit(f"//{hostpart}")
    user, has_password, password = userinfo.partition(":")
    database = urllib.parse.unquote(parts.path[1:]) if parts.path.startswith("/") else None
    query: dict[str, str | list[str]] = {}
    for key, value in urllib.parse.parse_qsl(parts.query, keep_blank_values=True):
        previous = query.get(key)
        query[key] = value if previous is None else [*(previous if isinstance(previous, list) else [previous]),
                                                     value]
    return URL.create(
        scheme,
        username=urllib.parse.unquote(user) or None,
        password=urllib.parse.unquote(password) if has_password else None,
        host=urllib.parse.unquote(parts.hostname or "") or None,
        port=parts.port,
        database=database or None,
        query=query,
    )


def _parse(url: str) -> URL:
    if url.strip().lower().startswith("sqlite"):
        return make_url(url)  # a file path may hold "@" and has no credentials
    return _split_credentials(url)


def mask_url(url: str) -> str:
    """The URL without its password, even when it does not parse as a URL.

    >>> mask_url("postgresql://refarch:p@ss:w/rd%@db.example:5432/refarch")
    'postgresql://refarch:***@db.example:5432/refarch'
    >>> mask_url("postgresql://refarch@db.example/refarch?sslmode=require&password=s3cret")
    'postgresql://refarch@db.example/refarch?password=***&sslmode=require'
    """
    if url.strip().lower().startswith("sqlite"):
        return mask_secrets(url)  # a file path, shown as the user typed it (a ?password= would still be masked)
    try:
        return mask_secrets(_parse(url).render_as_string(hide_password=True))
    except (ArgumentError, ValueError, TypeError):
        scheme, sep, rest = url.partition("://")
        at = rest.rfind("@")
        if not sep or at < 0:
            return mask_secrets(url) if sep else "(not a URL)"
        return mask_secrets(f"{scheme}://***@{rest[at + 1:]}")


def parse_url(url: str) -> URL:
    """Parse a URL; plain `postgresql://` means psycopg 3, the driver refarch ships (not psycopg2)."""
    try:
        parsed = _parse(url)
    except (ArgumentError, ValueError, TypeError):
        hint = ""
        if "://" not in url:
            hint = f" (for a SQLite file write sqlite:///{url})"
        raise CatalogOpenError(mask_url(url), f"not a database URL{hint}") from None
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def is_sqlite(url: URL) -> bool:
    return url.get_backend_name() == "sqlite"


def sqlite_file(url: URL) -> Path | None:
    """The SQLite database file, or None for an in-memory database."""
    if not is_sqlite(url) or url.database in (None, "", ":memory:") or (url.database or "").startswith("file:"):
        return None
    return Path(url.database or "")


def create_catalog_engine(url: URL, *, foreign_keys: bool = True) -> Engine:
    """An engine for the catalog at `url`. Connecting is lazy: errors surface on first use.

    `foreign_keys=False` is for schema migrations on SQLite, which rebuild tables and
    check foreign keys once at the end instead (SQLite's documented procedure).
    """
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        if "connect_timeout" not in url.query:
            connect_args["connect_timeout"] = PG_CONNECT_TIMEOUT_S
        options = url.query.get("options", "")
        options = " ".join(options) if isinstance(options, tuple) else options
        if "statement_timeout" not in options:
            # A frozen backend or a lock held elsewhere must not hang refarch: the server cancels the statement.
            connect_args["options"] = f"{options} -c statement_timeout={PG_STATEMENT_TIMEOUT_S * 1000}".strip()
    elif is_sqlite(url):
        # Python's sqlite3 "timeout" is SQLite's busy timeout: a writer waits this long for another writer's
        # transaction (a long import) before giving up with "database is locked". Readers never wait (WAL).
        connect_args["timeout"] = SQLITE_BUSY_TIMEOUT_S
    engine = create_engine(url, pool_pre_ping=not is_sqlite(url), connect_args=connect_args)
    if is_sqlite(url):
        _make_sqlite_transactional(engine, foreign_keys=foreign_keys)
    return engine


def _make_sqlite_transactional(engine: Engine, *, foreign_keys: bool) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # sqlite3 must not BEGIN (or not) on its own
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        _use_wal(cursor)
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get(SQLITE_BEGIN, "")
        connection.exec_driver_sql(f"BEGIN {mode}".strip())


def _use_wal(cursor: Any) -> None:
    """Write-ahead logging: readers see the last commit and never wait for a writer, nor a writer for them.

    The mode is stored in the file, so this changes something only the first time; a read-only file or
    folder, or a file another process holds, keeps its mode (refarch still works, readers may then wait).
    """
    try:
        mode = cursor.execute("PRAGMA journal_mode").fetchone()
        if mode and str(mode[0]).lower() not in ("wal", "memory"):
            cursor.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error:
        pass


def take_catalog_lock(conn: Connection) -> None:
    """Wait for other refarch instances changing a shared catalog's schema or seed (until commit)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})


def describe_db_error(exc: BaseException, url: URL) -> str:
    """Why the database could not be used, in a user's terms (never with the password)."""
    if isinstance(exc, NoSuchModuleError):
        return (f"unknown database type '{url.drivername}'; refarch supports sqlite:///FILE and "
                "postgresql://USER:PASSWORD@HOST/DB")
    if isinstance(exc, ImportError):
        return f"the database driver for '{url.drivername}' is not installed ({exc.name or exc})"
    orig = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    message = " ".join(line.strip() for line in str(orig).strip().splitlines() if line.strip())
    secrets = [str(url.password)] if url.password else []
    secrets += [str(v) for key, value in url.query.items() if key.lower() in SECRET_KEYS
                for v in (value if isinstance(value, tuple) else (value,)) if v]
    for secret in secrets:
        for form in {secret, urllib.parse.quote(secret, safe=""), urllib.parse.quote_plus(secret)}:
            message = message.replace(form, "***")
    message = mask_secrets(message)
    if "statement timeout" in message:
        return (f"the database did not answer within {PG_STATEMENT_TIMEOUT_S} s (statement timeout): the server "
                "is overloaded or another session holds a lock on the catalog; try again later")
    path = sqlite_file(url)
    if path is not None:
        if "database is locked" in message:
            return (f"another program kept the catalog busy for more than {SQLITE_BUSY_TIMEOUT_S} s (a long import?); "
                    "try again when it has finished")
        if "file is not a database" in message:
            return f"{path} is not a SQLite database"
        if "unable to open database file" in message:
            if path.is_dir():
                return f"{path} is a directory"
            if not path.parent.is_dir():
                return f"directory {path.parent} does not exist"
            return f"cannot open {path} (check its permissions)"
    return message or type(orig).__name__

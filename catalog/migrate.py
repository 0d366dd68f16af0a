"""Bring a database to the current catalog schema, or refuse it with a reason.

Run on every open: a catalog already at the newest revision is recognised with one
query and without importing Alembic (0.3-0.7 s of start-up); a new database gets the schema, an older catalog is
upgraded, anything else (someone else's tables, a newer refarch's schema) is
refused without being touched. The whole upgrade is one transaction, so a failed
upgrade leaves the catalog as it was; a SQLite file is also copied to
`<file>.bak-<revision>` first, because the desktop user has no DBA to restore it.
"""

from __future__ import annotations

import ast
import sqlite3
import threading
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import URL, Connection, Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from catalog.engine import SQLITE_BEGIN, create_catalog_engine, sqlite_file, take_catalog_lock
from catalog.errors import CatalogMigrationError, CatalogOpenError
from catalog.orm import CATALOG_TABLES

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

_AST_LOCK = threading.Lock()
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
VERSION_TABLE = "alembic_version"


@dataclass(frozen=True, slots=True)
class SchemaState:
    tables: frozenset[str]
    revision: str | None


def alembic_config(script_location: Path = MIGRATIONS_DIR, connection: Connection | None = None) -> Config:
    """A Config without alembic.ini: refarch runs from any directory (and from an installed wheel)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(script_location).replace("%", "%%"))
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["connection"] = connection
    return cfg


def head_revision(script_location: Path = MIGRATIONS_DIR) -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(script_location)).get_current_head()
    assert head is not None, "the catalog has no migrations"
    return head


def quick_head_revision(script_location: Path = MIGRATIONS_DIR) -> str | None:
    """The head revision read from the migration files' `revision` / `down_revision` lines.

    Parsing a few small files is far cheaper than importing Alembic; None when the files do
    not give exactly one head (then Alembic decides). A test holds it equal to `head_revision`.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (script_location / "versions").glob("*.py"):
        try:
            with _AST_LOCK:  # CPython 3.11's ast.parse is not thread-safe ("recursion depth mismatch")
                tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, UnicodeDecodeError):
            return None
        for node in tree.body:
            target, value = None, None
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                target, value = node.target.id, node.value
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                target, value = node.targets[0].id, node.value
            if target not in ("revision", "down_revision") or value is None:
                continue
            try:
                literal = ast.literal_eval(value)
            except ValueError:
                return None
            names = literal if isinstance(literal, tuple | list) else (literal,)
            (revisions if target == "revision" else parents).update(n for n in names if isinstance(n, str))
    heads = revisions - parents
    return next(iter(heads)) if len(heads) == 1 else None


def read_state(conn: Connection) -> SchemaState:
    tables = frozenset(inspect(conn).get_table_names())
    revision = None
    if VERSION_TABLE in tables:
        # the table Alembic keeps: one row per head
        heads = [row[0] for row in conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}"))]
        revision = ",".join(heads) if heads else None
    return SchemaState(tables, revision)


def ensure_schema(url: URL, engine: Engine, display_url: str, *, script_location: Path = MIGRATIONS_DIR) -> None:
    """Create or upgrade the catalog schema at `url` to the newest revision, or raise CatalogOpenError.

    Database errors (server down, not a database file) propagate as SQLAlchemyError for
    the caller to word; refusals and failed upgrades are CatalogOpenError.
    """
    with engine.connect() as conn:
        state = read_state(conn)
    current = quick_head_revision(script_location)
    if current is not None and state.revision == current and not CATALOG_TABLES - state.tables:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(script_location))
    if not _needs_upgrade(state, script, display_url):
        return
    path = sqlite_file(url)
    backup = _backup(path, state.revision, display_url) if path is not None and state.revision else None
    # SQLite rebuilds tables to alter them; foreign keys are checked once at the end instead.
    migration_engine = create_catalog_engine(url, foreign_keys=False) if path is not None else engine
    try:
        with migration_engine.connect() as conn:
            conn.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"})  # one upgrader at a time on SQLite too
            with conn.begin():
                take_catalog_lock(conn)
                state = read_state(conn)  # another instance may have upgraded while we waited
                if _needs_upgrade(state, script, display_url):
                    command.upgrade(alembic_config(script_location, conn), "head")
                    _check_foreign_keys(conn)
    except CatalogOpenError:
        raise
    except Exception as exc:  # any failure, SQL or Python, must roll back and be reported the same way
        kept = f"; a copy from before the upgrade is at {backup}" if backup else ""
        raise CatalogMigrationError(
            display_url,
            f"upgrading the schema from {state.revision or 'nothing'} to {script.get_current_head()} failed "
            f"({type(exc).__name__}: {_first_line(exc)}); the catalog was left as it was{kept}",
        ) from exc
    finally:
        if migration_engine is not engine:
            migration_engine.dispose()


def _needs_upgrade(state: SchemaState, script: ScriptDirectory, display_url: str) -> bool:
    other_tables = state.tables - {VERSION_TABLE}
    if state.revision is None:
        if other_tables:
            shown = ", ".join(sorted(other_tables)[:6]) + (", ..." if len(other_tables) > 6 else "")
            raise CatalogOpenError(
                display_url,
                f"it is not a refarch catalog: it has tables ({shown}) but no catalog schema version; "
                "use an empty database or an existing refarch catalog",
            )
        return True
    known = {s.revision for s in script.walk_revisions()}
    if state.revision not in known:
        raise CatalogOpenError(
            display_url,
            f"its schema revision '{state.revision}' is unknown to this refarch: either it is not a refarch "
            "catalog, or a newer refarch created it (install that version)",
        )
    if state.revision != script.get_current_head():
        return True
    missing = CATALOG_TABLES - state.tables
    if missing:
        raise CatalogOpenError(
            display_url, f"it is not a usable refarch catalog: tables {', '.join(sorted(missing))} are missing"
        )
    return False


def _backup(path: Path, revision: str, display_url: str) -> Path:
    target = path.with_name(f"{path.name}.bak-{revision}")
    try:
        # The backup API copies a consistent snapshot even if another process is writing.
        with closing(sqlite3.connect(path)) as source, closing(sqlite3.connect(target)) as copy:
            source.backup(copy)
    except (sqlite3.Error, OSError) as exc:
        raise CatalogMigrationError(
            display_url, f"it needs a schema upgrade, but backing it up to {target} failed ({exc}); "
            "nothing was changed"
        ) from exc
    return target


def _check_foreign_keys(conn: Connection) -> None:
    if conn.dialect.name != "sqlite":
        return
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"{len(broken)} rows break foreign keys after the upgrade, e.g. {tuple(broken[0])}")


def _first_line(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None) if isinstance(exc, SQLAlchemyError) else None
    if isinstance(orig, BaseException):  # the driver's own error says what went wrong
        exc = orig
    return (str(exc).strip().splitlines() or [""])[0]

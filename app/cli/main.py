"""The `refarch` entry point: no arguments opens the window, subcommands are the CLI.

Each subcommand lives in its own module under `app/cli/commands/` and exposes
`register(subparsers)`; modules are discovered, so adding a command touches no
shared file.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path

from app.cli import commands, dataclass_code
from app.cli.errors import CliError

PYDANTIC_PLUGINS_VAR = "PYDANTIC_DISABLE_PLUGINS"  # read by pydantic.plugin._loader
CODE_CACHE_VAR = "REFARCH_CODE_CACHE"
GLOBAL_HELP = "refarch: size reference architectures for Greenplum, PostgreSQL and SAP IQ."
# New container objects between two young-generation collections in a refarch process (Python's default: 700)
GC_YOUNG_THRESHOLD = 100_000


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or, given the `command` the arguments name, of that one only: a process
    running one command then imports that command's module alone (`refarch size` not the window's, the report's
    and the optimizer's). Its help, usage and errors are the same. A name no command module registers gets
    the full parser, which reports it."""
    parser = argparse.ArgumentParser(prog="refarch", description=GLOBAL_HELP)
    parser.add_argument(
        "--db",
        metavar="URL",
        default=None,
        help="SQLAlchemy URL of the catalog (default: $REFARCH_DB, else SQLite in the user data dir)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(m.name for m in pkgutil.iter_modules(commands.__path__))
    if command is not None:
        names = [n for n in names if n == command.replace("-", "_")]  # `fit-usl` lives in fit_usl.py
    for name in names:
        module = importlib.import_module(f"{commands.__name__}.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    if command is not None and command not in (sub.choices or {}):
        return build_parser()
    return parser


def command_named(args: Sequence[str]) -> str | None:
    """The command word of `args` after the global `--db URL`; None when an option comes first (`--help`).

    >>> command_named(["--db", "sqlite:///c.db", "size", "s.json"]), command_named(["--db=x", "gui"])
    ('size', 'gui')
    >>> command_named(["--help"]), command_named([])
    (None, None)
    """
    rest = list(args)
    while rest and (rest[0] == "--db" or rest[0].startswith("--db=")):
        rest = rest[2:] if rest[0] == "--db" else rest[1:]
    return rest[0] if rest and not rest[0].startswith("-") else None


def configure_fit_cache() -> None:
    """Calibration fits and catalog snapshots persist in the user cache directory, so a process does not fit
    again or open an unchanged catalog through SQLAlchemy. `REFARCH_FIT_CACHE` (read by `models.fit_cache`)
    and `REFARCH_CATALOG_CACHE` (`catalog.snapshot_cache`) override the places.
    """
    from catalog import snapshot_cache
    from models import fit_cache

    if fit_cache.cache_directory() is None:
        fit_cache.configure(user_cache_directory() / "fits")
    if snapshot_cache.cache_directory() is None:
        snapshot_cache.configure(user_cache_directory() / "catalogs")


def code_cache_directory() -> Path:
    """Where the compiled dataclass methods are kept (`app.cli.dataclass_code`): `REFARCH_CODE_CACHE`, else the
    user cache directory."""
    return Path(os.environ.get(CODE_CACHE_VAR) or user_cache_directory() / "code")


def user_cache_directory() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("refarch", appauthor=False))


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if argv is None:  # this process is refarch (a test passes its argv and keeps its objects collectable)
        # At exit Python collects garbage over every object still alive (modules, classes, the result): 35-45 ms
        # of a command's 0.3-0.45 s CPU, finding almost nothing. Frozen objects (gc.freeze) are skipped; memory goes
        # back with the process, atexit handlers and the final flush of stdout run as before (objects left in
        # reference cycles are not finalized at exit, which Python does not promise either).
        atexit.register(gc.freeze)  # registered first, so it runs after every other atexit handler
        # The cyclic collector runs every 700 new container objects by default, and every tenth run of it over the
        # older ones too: sizing an estate of 10,000 databases makes millions and spent 0.56 s of its 4.6 s CPU in
        # some 1,000 collections that freed under 1,000 objects (refarch's results are trees, not cycles); at
        # 100,000 it runs about 20 times (0.11 s). Memory a cycle holds is freed later, never lost.
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        # pydantic looks for plugins when it builds its first model by reading the entry points of every installed
        # distribution (importlib.metadata): ~40 ms of `refarch size`'s CPU. refarch uses none; a user's own
        # setting of the variable stands.
        os.environ.setdefault(PYDANTIC_PLUGINS_VAR, "__all__")
        # Before any model module loads: their dataclasses' methods come compiled from the cache (~70 ms of
        # `refarch size`'s CPU otherwise).
        dataclass_code.install(code_cache_directory())
    configure_fit_cache()
    if not args_list or (args_list[0].startswith("--db") and len(args_list) <= 2):
        args_list.append("gui")
    parser = build_parser(command_named(args_list))
    args = parser.parse_args(args_list)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    from app.export.atomic import remove_stale_temps

    remove_stale_temps()  # temporary files a killed refarch left behind
    try:
        code = int(handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, not at exit where it cannot be caught
        return code
    except BrokenPipeError:
        return _quiet_closed_pipe()
    except CliError as exc:
        from catalog.location import mask_secrets

        for line in exc.lines():
            print(mask_secrets(line), file=sys.stderr)  # a password in a URL or setting never reaches the terminal
        return exc.exit_code
    except KeyboardInterrupt:
        print("refarch: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug, not bad input: say so without a traceback unless asked
        if os.environ.get("REFARCH_DEBUG"):
            raise
        from catalog.location import mask_secrets

        print(
            f"refarch: internal error: {type(exc).__name__}: {mask_secrets(str(exc))}\n"
            "Set REFARCH_DEBUG=1 to see the traceback, and please report it.",
            file=sys.stderr,
        )
        return 1


def _quiet_closed_pipe() -> int:
    """`refarch catalog list | head`: the reader has gone; stop quietly, as `cat` and `ls` do (128 + SIGPIPE).

    stdout is pointed at /dev/null so the interpreter's final flush cannot raise again (Python docs, signal).
    """
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    return 141


if __name__ == "__main__":
    sys.exit(main())

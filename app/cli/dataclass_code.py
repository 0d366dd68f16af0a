"""The methods `dataclasses` writes for each class, compiled once and kept on disk between processes.

`@dataclass` writes the source of `__init__`, `__repr__`, `__eq__`, `__hash__` (and, frozen, `__setattr__`
and `__delattr__`) for every class and compiles each text with `exec` as the class is created (Python 3.11:
one `exec` per method). `refarch size` creates ~140 dataclasses and compiles ~730 such texts: 70 ms of its
~0.4 s of CPU, the same texts in every process; the window's start compiles ~770 before its first result.

`install` gives the `dataclasses` module its own `exec` (a module global shadows the builtin for that module
only): it runs the code object compiled from the same text, taken from a cache file when an earlier process
compiled it, else compiled now and written to the file at exit. The text is the key, so a changed class
(another refarch version, an edited module) has another text and is compiled afresh; the file's header is
the interpreter's bytecode magic number, so another Python never reads it. A code object compiled from a
text is the one `exec` would compile from it (same flags: `dataclasses` uses no `__future__` import; the
tests compare them), so the classes, their methods and their errors are the same. Any problem with the file
means compiling, as without the cache.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
from pathlib import Path
from types import CodeType
from typing import Any

FILE_NAME = "dataclass-methods.marshal"
MAX_ENTRIES = 20_000  # texts kept from earlier processes (other commands, versions); ~1 KB each on disk
_HEADER = importlib.util.MAGIC_NUMBER


class _Cache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.known = _read(path)
        self.used: dict[str, CodeType] = {}
        self.compiled = 0  # texts this process compiled: the file is written at exit when there are any

    def exec(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        """`exec` for the `dataclasses` module: a text runs as its cached compiled code."""
        if type(source) is not str:
            return builtins.exec(source, globals, locals)
        code = self.known.get(source)
        if type(code) is not CodeType:
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled += 1
        self.used[source] = code
        return builtins.exec(code, globals, locals)

    def save(self) -> None:
        if not self.compiled:
            return
        from app.export.atomic import ExportError, atomic_write_bytes  # imported only when there is a text to keep

        merged = {**self.known, **self.used}
        entries = merged if len(merged) <= MAX_ENTRIES else self.used
        with contextlib.suppress(OSError, ValueError, ExportError):  # not kept: the next process compiles again
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, _HEADER + marshal.dumps(entries))  # never half a file for a reader


def _read(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
        if not data.startswith(_HEADER):
            return {}
        known = marshal.loads(memoryview(data)[len(_HEADER):])
    except (OSError, ValueError, EOFError, TypeError):  # missing, another Python's, truncated, damaged
        return {}
    return known if isinstance(known, dict) else {}


def install(directory: Path | None) -> bool:
    """Cache the compiled dataclass methods in `directory` (None: change nothing). Returns True when installed.

    For the `refarch` process only (the entry point calls it once): library use and tests compile as always.
    """
    if directory is None or "exec" in vars(dataclasses):
        return False
    global _installed
    _installed = _Cache(directory / FILE_NAME)
    # a module global shadowing the builtin `exec` dataclasses calls (not in its stubs), set on purpose
    dataclasses.exec = _installed.exec  # type: ignore[attr-defined]
    atexit.register(_installed.save)
    return True


def uninstall() -> None:
    """Back to the builtin `exec`, nothing written at exit (tests)."""
    global _installed
    if _installed is not None:
        atexit.unregister(_installed.save)
        _installed = None
    vars(dataclasses).pop("exec", None)


_installed: _Cache | None = None

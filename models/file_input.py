"""The one hardened way refarch reads a file a user hands it (scenario, project, catalog, quote, USL CSV).

A hostile or broken file must end as a list of problems (exit 2 on the CLI, a message in the GUI), never
as a hang, an exhausted memory or a traceback. So every reader goes through `read_text`, which:

- opens regular files only (a FIFO would block forever, `/dev/zero` never ends; `stat().st_size` is 0
  for both, so a size check alone does not catch them). The open is non-blocking so a FIFO cannot hang it;
- reads at most `max_bytes + 1` bytes, so a file that grows while being read is still bounded;
- decodes UTF-8 (a leading BOM, as spreadsheets write, is dropped) and refuses NUL bytes;

and every JSON file goes through `parse_json`, which refuses, naming the JSON path of each:
- nesting deeper than `MAX_DEPTH` (the standard parser would die with RecursionError),
- an object with the same key twice (`{"id": "a", "id": "b"}` would silently keep the second),
- integers longer than `MAX_INT_DIGITS` digits (Python refuses to convert 4,300+ digit strings, and no
  refarch quantity is anywhere near 10^15), and non-finite numbers (`NaN`, `Infinity`, `1e999`).

The limits are documented for users in docs/FILES.md ("Reading files"); writers check the same limits before
saving, so refarch never writes a file it will not open again.
"""

from __future__ import annotations

import codecs
import errno
import json
import math
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from models.problems import Problem

MAX_DEPTH = 64  # a scenario is 4 levels deep, a project 6; 64 leaves room and stays far from the C stack
MAX_INT_DIGITS = 15  # 10^15: more than any count, price or size refarch takes; far below Python's 4,300
MB = 1_000_000

# Size limits per kind of file (bytes). A saved file above its limit is refused at save time too.
SCENARIO_MAX_BYTES = 16 * MB  # a scenario is a few KB; 10,000 PostgreSQL databases with their current VMs ~7 MB
PROJECT_MAX_BYTES = 100 * MB  # 500 scenarios (the schema's maximum) with 20,000-character notes each fit
CATALOG_MAX_BYTES = 256 * MB  # about 650,000 parts in JSON; a vendor price list is far smaller
TABLE_MAX_BYTES = 50 * MB  # quotes, USL measurements and other CSV/XLSX tables


class FileInputError(ValueError):
    """A file that cannot be used; `problems` names each place and reason (never a traceback)."""

    def __init__(self, name: str, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:3]) + (f"; and {len(problems) - 3} more" if len(problems) > 3
                                                          else "")
        super().__init__(f"{name}: {shown}")

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


def _file_problem(name: str, message: str) -> FileInputError:
    return FileInputError(name, [Problem("file", message)])


def _os_refusal(name: str, exc: OSError, what: str) -> FileInputError:
    """Why a path cannot be opened or looked at, in the words every reader uses."""
    if isinstance(exc, FileNotFoundError):
        return _file_problem(name, "no such file")
    if isinstance(exc, IsADirectoryError):
        return _file_problem(name, f"is a directory, not a {what}")
    if exc.errno == errno.ENXIO:  # a socket or a FIFO opened in some modes
        return _file_problem(name, "is a pipe or socket, not a regular file")
    return _file_problem(name, f"cannot read it: {exc.strerror or exc}")


def check_regular(info: os.stat_result, name: str, *, max_bytes: int, what: str = "file") -> None:
    """FileInputError unless `info` (a stat) is a regular file of at most `max_bytes`: the one check every reader
    makes before reading, the whole-file one (`read_bytes`) and the streamed ones alike.

    >>> check_regular(os.stat("/dev/null"), "/dev/null", max_bytes=10)
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: /dev/null: file: is a device or other special file, not a regular file
    """
    if stat.S_ISDIR(info.st_mode):
        raise _file_problem(name, f"is a directory, not a {what}")
    if stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode):
        raise _file_problem(name, "is a pipe or socket, not a regular file")
    if not stat.S_ISREG(info.st_mode):
        raise _file_problem(name, "is a device or other special file, not a regular file")
    if info.st_size > max_bytes:
        raise _file_problem(name, f"is {info.st_size:,} bytes; the limit for a {what} is {max_bytes:,} bytes")


def check_path(path: Path | str, *, max_bytes: int, what: str = "file") -> None:
    """`check_regular` on a path, without opening it (a reader that streams the file opens it after): a missing
    file, a folder, a pipe, a device or a file above `max_bytes` is FileInputError in `read_bytes`'s words.

    >>> check_path("/no/such/catalog.json", max_bytes=10, what="catalog file")
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: /no/such/catalog.json: file: no such file
    """
    name = str(path)
    try:
        info = os.stat(name)
    except OSError as exc:
        raise _os_refusal(name, exc, what) from None
    check_regular(info, name, max_bytes=max_bytes, what=what)


def _open_regular(name: str, *, max_bytes: int, what: str) -> int:
    """A descriptor open on `name`, checked to be a regular file of at most `max_bytes` (closed on a refusal)."""
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever before we can fstat it.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _os_refusal(name, exc, what) from None
    try:
        check_regular(os.fstat(fd), name, max_bytes=max_bytes, what=what)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_head(path: Path | str, size: int, *, max_bytes: int, what: str = "file") -> bytes:
    """At most the first `size` bytes of a file `read_bytes` would read, with the same refusals: what a reader
    that tells a file's format by its start looks at (a plain open() of a pipe would wait forever).

    >>> read_head("/dev/zero", 4, max_bytes=10)
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: /dev/zero: file: is a device or other special file, not a regular file
    """
    name = str(path)
    fd = _open_regular(name, max_bytes=max_bytes, what=what)
    try:
        return os.read(fd, size)
    except OSError as exc:
        raise _file_problem(name, f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_bytes(path: Path | str, *, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most `max_bytes`, or FileInputError saying why not.

    >>> read_bytes("/dev/zero", max_bytes=10)
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: /dev/zero: file: is a device or other special file, not a regular file
    """
    name = str(path)
    fd = _open_regular(name, max_bytes=max_bytes, what=what)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:  # bounded even if the file grows while we read it
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:
            raise _file_problem(name, f"is larger than the limit for a {what} ({max_bytes:,} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise _file_problem(name, f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def decode_text(data: bytes, name: str, *, what: str = "file", hint: str = "save it as UTF-8") -> str:
    """UTF-8 text without a leading BOM; NUL bytes (a binary file) are refused."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _file_problem(name, f"not a {what} in UTF-8 text (cannot decode byte {exc.start}); {hint}") from None
    if "\x00" in text:
        raise _file_problem(name, f"not a {what} in text form (NUL byte at character {text.index(chr(0))})")
    return text


def read_text(path: Path | str, *, max_bytes: int, what: str = "file", hint: str = "save it as UTF-8") -> str:
    """`read_bytes` + `decode_text`: the text of a regular UTF-8 file within the size limit."""
    return decode_text(read_bytes(path, max_bytes=max_bytes, what=what), str(path), what=what, hint=hint)


# -- JSON ---------------------------------------------------------------------------------------------------


class _Bad:
    """A value the parser met that refarch refuses; replaced during parsing, reported with its path after."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class _Object(dict[str, Any]):
    """A JSON object that remembers keys given more than once (the standard parser keeps the last)."""

    __slots__ = ("duplicates",)

    def __init__(self, pairs: list[tuple[str, Any]]) -> None:
        super().__init__(pairs)
        self.duplicates: list[str] = []
        if len(self) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen and key not in self.duplicates:
                    self.duplicates.append(key)
                seen.add(key)


def _parse_int(text: str) -> int | _Bad:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Bad(f"a {digits}-digit integer; numbers must be below 10^{MAX_INT_DIGITS}")
    return int(text)


def _parse_float(text: str) -> float | _Bad:
    if len(text) > 400:  # the float parser is linear, but nothing sane has a 400-character mantissa
        return _Bad(f"a {len(text)}-character number; write it with fewer digits")
    value = float(text)
    if not math.isfinite(value):
        return _Bad(f"{text} is out of range (not a finite number)")
    return value


def _parse_constant(text: str) -> _Bad:
    return _Bad(f"{text} is not a number refarch accepts (numbers must be finite)")


def _key_path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if key.isidentifier():
        return f"{parent}.{key}" if parent else key
    return f"{parent}[{json.dumps(key)}]"


def _walk(value: Any, path: str, depth: int, out: list[Problem]) -> Any:
    """Report refused values and duplicate keys; return the value with plain dicts (no bookkeeping)."""
    if depth >= MAX_DEPTH and isinstance(value, dict | list):
        out.append(Problem(path or "(root)", f"nested deeper than {MAX_DEPTH} levels"))
        return None
    if isinstance(value, _Bad):
        out.append(Problem(path or "(root)", value.reason))
        return None
    if isinstance(value, dict):
        for key in getattr(value, "duplicates", ()):
            out.append(Problem(_key_path(path, key), "this key appears more than once in the object"))
        return {k: _walk(v, _key_path(path, k), depth + 1, out) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(v, _key_path(path, i), depth + 1, out) for i, v in enumerate(value)]
    return value


class _Refused(Exception):
    """`_clean` met what `_walk` reports."""


def _clean(value: Any, depth: int) -> Any:
    """`_walk`'s value where it would report nothing, without writing the path of every value on the way (a
    10,000-database estate has 70,000); raises _Refused where `_walk` would report something."""
    if isinstance(value, dict):
        if depth >= MAX_DEPTH or getattr(value, "duplicates", None):
            raise _Refused
        return {k: _clean(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        if depth >= MAX_DEPTH:
            raise _Refused
        return [_clean(v, depth + 1) for v in value]
    if isinstance(value, _Bad):
        raise _Refused
    return value


def parse_json(text: str, name: str = "<json>") -> Any:
    """Parse JSON text; FileInputError names every refused value, duplicate key or too-deep nesting.

    >>> parse_json('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: <json>: a: this key appears more than once in the object
    >>> parse_json('{"targets": {"min_tps": Infinity}}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    models.file_input.FileInputError: <json>: targets.min_tps: Infinity is not a number refarch accepts ...
    """
    try:
        data = json.loads(text, object_pairs_hook=_Object, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        # json says "Unterminated string starting at" with the position left to the caller: no second "at"
        what = exc.msg.removesuffix(" at")
        raise _file_problem(name, f"not valid JSON: {what} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise _file_problem(name, f"nested deeper than {MAX_DEPTH} levels") from None
    problems: list[Problem] = []
    try:
        clean = _clean(data, 0)
    except _Refused:  # something to report: `_walk` names each with its path
        try:
            clean = _walk(data, "", 0, problems)
        except RecursionError:  # cannot happen below MAX_DEPTH; kept so no input can surface as a traceback
            problems = [Problem("file", f"nested deeper than {MAX_DEPTH} levels")]
    if problems:
        raise FileInputError(name, problems)
    return clean


def load_json(path: Path | str, *, max_bytes: int, what: str = "file") -> Any:
    """Read and parse a JSON file with every check above."""
    return parse_json(read_text(path, max_bytes=max_bytes, what=what), str(path))


def dump_json_checked(data: Any, *, max_bytes: int, what: str, name: str) -> str:
    """JSON text for a file refarch saves, refused when it would exceed what refarch reads back.

    `allow_nan=False`: a NaN or infinity would write a file the reader refuses.
    """
    try:
        text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as exc:
        raise _file_problem(name, f"cannot be saved: {exc}") from None
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise _file_problem(name, f"would be {size:,} bytes; the limit for a {what} is {max_bytes:,} bytes "
                                  "(the size refarch can open again); split it or shorten notes")
    return text


# -- spreadsheets -------------------------------------------------------------------------------------------

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what Excel, LibreOffice and Sheets may run as a formula


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet shows as text and never runs as a formula (OWASP "CSV injection").

    A leading `'` is how Excel and LibreOffice mark a cell as text; a text that already starts with `'`
    followed by a formula character gets one more, so `restore_spreadsheet_text` can undo it exactly.

    >>> spreadsheet_text("=cmd|' /C calc'!A0"), spreadsheet_text("Xeon Gold"), spreadsheet_text("'=x")
    ("'=cmd|' /C calc'!A0", 'Xeon Gold', "''=x")
    """
    if text.startswith(FORMULA_STARTS) or (text.startswith("'") and text.lstrip("'").startswith(FORMULA_STARTS)):
        return "'" + text
    return text


def restore_spreadsheet_text(text: str) -> str:
    """The inverse of `spreadsheet_text`, for files refarch reads back (catalog import).

    >>> restore_spreadsheet_text("'=1+1"), restore_spreadsheet_text("''=x"), restore_spreadsheet_text("'quoted'")
    ('=1+1', "'=x", "'quoted'")
    """
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_STARTS):
        return text[1:]
    return text


def iter_problems(exc: FileInputError) -> Iterator[tuple[str, str]]:
    """(path, message) pairs: the shape the problems translator takes."""
    for p in exc.problems:
        yield p.path, p.message

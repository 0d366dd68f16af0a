"""A catalog file (JSON, or CSV) read one part at a time, so an import's memory does not grow with the file.

The whole-file reader (`catalog.files.read_file`) holds every row as a Python dict: about 4x the file's size before
validation, 9x at its peak. Here the list's items are found one after the other in a window of the file
(`json.JSONDecoder.raw_decode`) and each is checked by the hardened parser (`models.file_input.parse_json`:
duplicate keys, non-finite numbers, depth), so an import can go over the file several times (find the ids,
validate, write) holding one window and one batch of rows.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from catalog.errors import CatalogFileError
from catalog.files import csv_rows, csv_separator, file_error_text, with_numbers
from catalog.numbers import Separator
from catalog.validation import SourceRow
from models import file_input
from models.file_input import CATALOG_MAX_BYTES

WINDOW_CHARS = 1 << 20
_SPACE = re.compile(r"[ \t\r\n]*")


def check_file(path: Path) -> None:
    """A regular file within the catalog size limit, or CatalogFileError saying why not: the whole-file reader's
    check (`models.file_input.check_path`), made before the file is opened for streaming."""
    try:
        file_input.check_path(path, max_bytes=CATALOG_MAX_BYTES, what="catalog file")
    except file_input.FileInputError as exc:
        raise CatalogFileError(file_error_text(exc)) from None


class _Window:
    """The part of the file being read: `text[pos:]` is what is left of the last chunks read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file = path.open(encoding="utf-8-sig", newline="")
        self.text, self.pos, self.eof = "", 0, False

    def fill(self) -> None:
        try:
            chunk = self.file.read(WINDOW_CHARS)
        except UnicodeDecodeError as exc:
            raise CatalogFileError(f"{self.path}: not a catalog file in UTF-8 text ({exc.reason}); save it as "
                                   "UTF-8") from None
        if "\x00" in chunk:
            raise CatalogFileError(f"{self.path}: not a catalog file in text form (NUL byte)")
        self.text, self.pos = self.text[self.pos:] + chunk, 0
        self.eof = not chunk

    def skip_space(self) -> str:
        """The next character after blanks ('' at the end of the file)."""
        while True:
            match = _SPACE.match(self.text, self.pos)
            self.pos = match.end() if match else self.pos
            if self.pos < len(self.text) or self.eof:
                return self.text[self.pos:self.pos + 1]
            self.fill()


def iter_json_rows(path: Path) -> Iterator[SourceRow]:
    """The parts of a JSON catalog file (a list of objects), numbered from 1, one at a time; CatalogFileError for
    a file that is no such list or an item that is not an object or not valid JSON."""
    check_file(path)
    # Only the item's end is wanted from this decoder (the hardened parser reads the item): numbers are not built,
    # so a 5,000-digit number or NaN cannot fail here.
    decoder = json.JSONDecoder(parse_int=lambda _: 0, parse_float=lambda _: 0, parse_constant=lambda _: 0)
    try:
        window = _Window(path)
    except OSError as exc:
        raise CatalogFileError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    with window.file:
        first = window.skip_space()
        if first != "[":
            got = ", got an object" if first == "{" else ""
            raise CatalogFileError(f"{path}: expected a JSON list of parts{got}")
        window.pos += 1
        number = 0
        while True:
            mark = window.skip_space()
            if mark == "]":
                window.pos += 1
                if window.skip_space():
                    raise CatalogFileError(f"{path}: not valid JSON: text after the list of parts")
                return
            if number:
                if mark != ",":
                    raise CatalogFileError(f"{path}: not valid JSON: expected ',' or ']' after item {number}")
                window.pos += 1
                window.skip_space()
            number += 1
            yield SourceRow(number, _item(window, decoder, number))


def _item(window: _Window, decoder: json.JSONDecoder, number: int) -> dict[str, Any]:
    while True:
        try:
            _, end = decoder.raw_decode(window.text, window.pos)
            break
        except json.JSONDecodeError as exc:
            if window.eof:
                raise CatalogFileError(f"{window.path}: not valid JSON in item {number}: {exc.msg}") from None
            window.fill()
    try:
        item = file_input.parse_json(window.text[window.pos:end], str(window.path))
    except file_input.FileInputError as exc:  # named as the whole-file reader names it: [index].field
        shown = "; ".join(p.message if p.path == "file" else f"[{number - 1}].{p.path}: {p.message}"
                          for p in exc.problems[:5])
        raise CatalogFileError(f"{window.path}: {shown}") from None
    window.pos = end
    if not isinstance(item, dict):
        raise CatalogFileError(f"{window.path}: item {number} is a {type(item).__name__}, not an object")
    return item


def is_json_file(path: Path) -> bool:
    """A catalog file to read as JSON: named .json, or with neither extension and starting like JSON (`[` or `{`
    after blanks and a BOM); else CSV (also a path that is no regular file: the reader then says why)."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".json"):
        return suffix == ".json"
    try:
        head = file_input.read_head(path, 4096, max_bytes=CATALOG_MAX_BYTES, what="catalog file")
    except file_input.FileInputError:
        return False
    return head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"[", b"{")


def csv_file_separator(path: Path, decimal: Separator | None = None) -> Separator:
    """A CSV catalog file's decimal separator (`decimal` when given), read in one pass over its rows; the file's own
    problems (not a regular file, too large, not UTF-8 text, not CSV, a header without id and kind) as
    CatalogFileError first, as the whole-file reader gives them."""
    return csv_separator(_csv_source_rows(path), str(path), decimal)


def iter_csv_rows(path: Path, sep: Separator) -> Iterator[SourceRow]:
    """The parts of a CSV catalog file, numbered from 1 with the line each starts on, their numbers read with `sep`
    (`csv_file_separator`), one at a time: what `catalog.files.read_file` gives, holding one line at a time."""
    for row in _csv_source_rows(path):
        yield with_numbers(row, sep)


def _csv_source_rows(path: Path) -> Iterator[SourceRow]:
    check_file(path)
    try:
        fh = path.open(encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise CatalogFileError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    with fh:
        yield from csv_rows(_text_lines(fh, path), str(path))


def _text_lines(fh: Any, path: Path) -> Iterator[str]:
    """The file's lines, refused as the whole-file reader refuses it: bytes that are not UTF-8, a NUL byte."""
    at = 0
    try:
        for line in fh:
            if "\x00" in line:
                raise CatalogFileError(f"{path}: not a catalog file in text form (NUL byte at character "
                                       f"{at + line.index(chr(0))})")
            at += len(line)
            yield line
    except UnicodeDecodeError as exc:
        raise CatalogFileError(f"{path}: not a catalog file in UTF-8 text ({exc.reason}); save it as UTF-8 "
                               "CSV") from None

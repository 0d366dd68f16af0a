"""`dumps(obj, default)`: the text of `json.dumps(obj, indent=2, default=default, ensure_ascii=False)`, byte for byte,
built in one pass into a list of strings.

The standard library's C encoder takes no indent (Python 3.11), so an indented dump runs its pure-Python generator
chain: a generator per nesting level, each string yielded up through every level, and `json.dump` writes each one
to the stream (a PostgreSQL consolidation of 10,000 databases prints 5 million pieces, some 80 MB). Here each value
appends its pieces to one list, and a dict of scalars (a setting, a disk, a BOM line) that appears again at the
same depth is encoded once, and so is a list of such dicts met again as the same object at the same depth: an
estate's VMs of one shape share one list of settings (`models.plain_dict` shares what the design shares).

Equal to `json.dumps` for data without cycles (tests/app/cli/test_json_text.py compares them on sizing results and
on every kind of value); it leaves out only `json`'s cycle check, as refarch's outputs are trees.
"""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring  # the C function json.dumps uses with ensure_ascii=False
from typing import Any, TextIO

INDENT = "  "
_INF = float("inf")
_LEAVES = frozenset({str, int, float, bool, type(None)})  # a dict of values of these exact types is memoised


def _float(o: float) -> str:
    """json's floatstr with allow_nan (the default)."""
    if o != o:
        return "NaN"
    if o == _INF:
        return "Infinity"
    if o == -_INF:
        return "-Infinity"
    return float.__repr__(o)


def _scalar(o: object) -> str | None:
    """A scalar's text, in json's order of checks (str, None, True, False, int, float); None for anything else."""
    if isinstance(o, str):
        return encode_basestring(o)
    if o is None:
        return "null"
    if o is True:
        return "true"
    if o is False:
        return "false"
    if isinstance(o, int):
        return int.__repr__(o)
    if isinstance(o, float):
        return _float(o)
    return None


def _key(k: object) -> str:
    """A dict key as json writes it (its text, then quoted): strings, floats, booleans, None and ints."""
    if isinstance(k, str):
        return encode_basestring(k)
    if isinstance(k, float):
        return encode_basestring(_float(k))
    if k is True:
        return '"true"'
    if k is False:
        return '"false"'
    if k is None:
        return '"null"'
    if isinstance(k, int):
        return encode_basestring(int.__repr__(k))
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


FLUSH_PIECES = 1 << 16  # pieces held before they are written out, where the text goes to a stream


class _Encoder:
    def __init__(self, default: Callable[[Any], Any], write: Callable[[str], object] | None = None) -> None:
        self.default = default
        self.write = write
        self.parts: list[str] = []
        self.leaves: dict[tuple[int, tuple[type, ...], tuple[tuple[object, object], ...]], str] = {}
        # (depth, id) -> (the list, its text): holding the list keeps its id from being reused by another
        self.lists: dict[tuple[int, int], tuple[object, str]] = {}

    def value(self, o: object, level: int) -> None:
        text = _scalar(o)
        if text is not None:
            self.parts.append(text)
        elif isinstance(o, list | tuple):
            self.array(o, level)
        elif isinstance(o, dict):
            self.object(o, level)
        else:
            self.value(self.default(o), level)

    def array(self, o: list[Any] | tuple[Any, ...], level: int) -> None:
        if not o:
            self.parts.append("[]")
            return
        hit = self.lists.get((level, id(o)))
        if hit is not None:
            self.parts.append(hit[1])
            return
        if all(type(item) is dict and item and _LEAVES.issuperset(map(type, item.values())) for item in o):
            outer, write = self.parts, self.write
            self.parts, self.write = [], None  # the list's own text, whole
            self._items(o, level)
            text = "".join(self.parts)
            self.parts, self.write = outer, write
            self.lists[(level, id(o))] = (o, text)
            outer.append(text)
            return
        self._items(o, level)

    def _items(self, o: list[Any] | tuple[Any, ...], level: int) -> None:
        inner = "\n" + INDENT * (level + 1)
        parts = self.parts
        parts.append("[" + inner)
        first = True
        for item in o:
            if not first:
                parts.append("," + inner)
            first = False
            if type(item) is dict:  # the exact type, first: a list of dicts is most of an estate's text
                self.object(item, level + 1)
            else:
                self.value(item, level + 1)
            if self.write is not None and len(parts) > FLUSH_PIECES:
                self.write("".join(parts))
                parts.clear()
        parts.append("\n" + INDENT * level + "]")

    def object(self, o: dict[Any, Any], level: int) -> None:
        if not o:
            self.parts.append("{}")
            return
        types = tuple(map(type, o.values()))
        if _LEAVES.issuperset(types):  # the types tell 1 from 1.0 and True, which compare equal
            memo = (level, types, tuple(o.items()))
            text = self.leaves.get(memo)
            if text is None:
                inner = ",\n" + INDENT * (level + 1)
                text = ("{\n" + INDENT * (level + 1)
                        + inner.join(_key(k) + ": " + str(_scalar(v)) for k, v in o.items())
                        + "\n" + INDENT * level + "}")
                self.leaves[memo] = text
            self.parts.append(text)
            return
        inner = "\n" + INDENT * (level + 1)
        parts = self.parts
        parts.append("{" + inner)
        first = True
        for k, v in o.items():
            if not first:
                parts.append("," + inner)
            first = False
            parts.append(_key(k) + ": ")
            self.value(v, level + 1)
        parts.append("\n" + INDENT * level + "}")


def dumps(obj: object, default: Callable[[Any], Any]) -> str:
    """`json.dumps(obj, indent=2, default=default, ensure_ascii=False)`."""
    enc = _Encoder(default)
    enc.value(obj, 0)
    return "".join(enc.parts)


def dump(obj: object, out: TextIO, default: Callable[[Any], Any]) -> None:
    """`json.dump(obj, out, indent=2, default=default, ensure_ascii=False)`: the same text, written in pieces of
    about FLUSH_PIECES strings rather than one write per string (or one string of the whole)."""
    enc = _Encoder(default, out.write)
    enc.value(obj, 0)
    out.write("".join(enc.parts))

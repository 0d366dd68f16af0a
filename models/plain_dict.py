"""`plain_dict(obj)`: what `dataclasses.asdict(obj)` returns, without deep-copying the leaves that cannot change.

`asdict` passes every leaf through `copy.deepcopy`, which returns a str, int, float, bool or None as it is but only
after a dispatch of its own, and reads each class's fields again for every instance. A PostgreSQL consolidation of
10,000 databases has some 200,000 settings, each a dataclass of five such leaves: `plain_dict` keeps each class's
field names once and returns those leaves directly; every other value goes the way `asdict` takes it (named tuples,
lists, tuples and dicts rebuilt, anything else deep-copied). tests/models/sizing/test_plain_dict.py holds it equal to
`asdict` on sizing results of every kind.

A tuple met again as the same object (an estate's VMs of one shape share one tuple of settings: 60 tuples for
10,000 VMs) is converted once and the converted tuple shared: the result equals `asdict`'s, but where the dataclasses
shared a tuple the result shares it too. The result is read (written as JSON), never changed.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

_ATOMS = frozenset({str, int, float, bool, type(None)})  # deepcopy returns these exact types as they are
_FIELDS: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _plain(obj: Any, tuples: dict[int, tuple[tuple[Any, ...], tuple[Any, ...]]]) -> Any:
    cls = type(obj)
    if cls in _ATOMS:
        return obj
    if hasattr(cls, "__dataclass_fields__"):
        return {name: _plain(getattr(obj, name), tuples) for name in _names(cls)}
    if cls is tuple:  # keyed by identity, holding the tuple: its id is not reused while the memo lives
        hit = tuples.get(id(obj))
        if hit is None:
            hit = tuples[id(obj)] = (obj, tuple([_plain(v, tuples) for v in obj]))
        return hit[1]
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return cls(*[_plain(v, tuples) for v in obj])
    if isinstance(obj, list | tuple):
        return cls(_plain(v, tuples) for v in obj)
    if isinstance(obj, dict):
        return cls((_plain(k, tuples), _plain(v, tuples)) for k, v in obj.items())
    return copy.deepcopy(obj)


def plain_dict(obj: Any) -> dict[str, Any]:
    """`dataclasses.asdict(obj)` for a dataclass instance `obj`.

    >>> from models.sizing.settings import Setting
    >>> plain_dict(Setting("work_mem", 64, "MB", "why", "where"))
    {'name': 'work_mem', 'value': 64, 'unit': 'MB', 'reason': 'why', 'source': 'where'}
    """
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("plain_dict() should be called on dataclass instances")
    out: dict[str, Any] = _plain(obj, {})
    return out

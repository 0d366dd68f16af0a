"""`replacer(cls, *names)`: a function that does `dataclasses.replace(obj, name=value, ...)` for those names, built for
calling 10,000 times (an estate's VMs: each VM's settings group renamed, each database's disks given its TPS).

`replace` reads the class's fields, checks each one and builds keyword arguments on every call (some 2-5 us); the
replacer reads every init field's value with one `operator.attrgetter`, puts the new values at their positions and
calls the class with positional arguments, so `__init__` and `__post_init__` run as they do for `replace`. Every
field the class has is carried over, those added later too. tests/models/test_fast_replace.py holds it equal to
`replace`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def replacer(cls: type[T], *names: str) -> Callable[..., T]:
    """`f(obj, *values)` = `dataclasses.replace(obj, **dict(zip(names, values)))` for instances of `cls`.

    >>> from models.sizing.settings import Setting
    >>> renamed = replacer(Setting, "name", "unit")
    >>> renamed(Setting("work_mem", 64, "MB", "why", "where"), "maintenance_work_mem", "kB")
    Setting(name='maintenance_work_mem', value=64, unit='kB', reason='why', source='where')
    """
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    if any(f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__} has keyword-only fields: use dataclasses.replace")
    order = [f.name for f in fields]
    unknown = [n for n in names if n not in order]
    if unknown:
        raise TypeError(f"{cls.__name__} has no init field {', '.join(unknown)}")
    positions = [order.index(n) for n in names]
    get = attrgetter(*order)

    def replaced(obj: Any, *values: Any) -> T:
        args = list(get(obj)) if len(order) > 1 else [get(obj)]
        for i, v in zip(positions, values, strict=True):
            args[i] = v
        return cls(*args)

    return replaced

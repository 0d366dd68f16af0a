"""plain_dict(obj) is dataclasses.asdict(obj): the same dicts, lists and tuples, with leaves that compare equal."""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any, NamedTuple

import numpy as np
import pytest

from models.plain_dict import plain_dict
from tests.models.sizing.conftest import SizeOnce, sample


class Pair(NamedTuple):
    a: Any
    b: Any


@dataclasses.dataclass(frozen=True)
class Inner:
    x: Any
    y: tuple[Any, ...] = ()


@dataclasses.dataclass
class Outer:
    inner: Inner
    items: list[Any]
    mapping: dict[Any, Any]
    pair: Pair
    leaf: Any = None
    kept: Any = dataclasses.field(default=None, compare=False, repr=False)


def _same(a: object, b: object) -> None:
    """Equal, and of the same types all the way down (asdict keeps tuples as tuples and lists as lists)."""
    assert type(a) is type(b)
    if isinstance(a, dict):
        assert list(a) == list(b)  # type: ignore[arg-type]
        for k in a:
            _same(a[k], b[k])  # type: ignore[index]
    elif isinstance(a, list | tuple):
        assert len(a) == len(b)  # type: ignore[arg-type]
        for x, y in zip(a, b, strict=True):  # type: ignore[call-overload]
            _same(x, y)
    else:
        assert a == b or (a != a and b != b)


def test_every_kind_of_field_comes_out_as_asdict_gives_it() -> None:
    mutable = [1, [2, 3]]
    obj = Outer(Inner(np.float64(0.25), (Inner(1), "s", None)), [Inner(True, (1.5,)), mutable],
                {"k": Inner(date(2026, 1, 2)), 3: (4, 5)}, Pair(Inner(float("nan")), [7]), leaf=np.arange(3),
                kept={"x": mutable})
    out = plain_dict(obj)
    ref = dataclasses.asdict(obj)
    assert out.keys() == ref.keys()
    leaf = out.pop("leaf")
    assert np.array_equal(leaf, ref.pop("leaf")) and leaf is not obj.leaf  # deep-copied, as asdict does
    _same(out, ref)
    assert out["kept"]["x"] is not mutable and out["items"][1] is not mutable  # containers are copies


def test_a_class_is_refused_as_asdict_refuses_it() -> None:
    with pytest.raises(TypeError):
        plain_dict(Inner)
    with pytest.raises(TypeError):
        plain_dict({"a": 1})


@pytest.mark.parametrize("name", ["pg-consolidation", "retail-dw-gen5", "sap-iq", "study-000-vsphere"])
def test_a_designs_dict_is_asdicts(name: str, size_once: SizeOnce) -> None:
    design = size_once(sample(name)).design
    _same(plain_dict(design), dataclasses.asdict(design))


def test_a_tuple_shared_by_several_dataclasses_is_converted_once_and_equal_everywhere() -> None:
    """Three VMs' groups share one tuple of settings (an estate's VMs of one shape), a fourth has an equal tuple of
    its own, a fifth another; each comes out as asdict gives it, and the shared tuple's copy is shared."""
    shared = (Inner(1, ("a", 2.5)), Inner(None))
    equal = (Inner(1, ("a", 2.5)), Inner(None))
    other = (Inner(2, ("b",)), Inner(True))
    groups = [Inner(f"vm{i}", shared) for i in range(3)] + [Inner("vm3", equal), Inner("vm4", other)]
    obj = Outer(Inner(0, tuple(groups)), [shared, other], {"s": shared}, Pair(shared, equal))
    out = plain_dict(obj)
    _same(out, dataclasses.asdict(obj))
    ys = [g["y"] for g in out["inner"]["y"]]
    assert ys[0] is ys[1] is ys[2] is out["items"][0] is out["mapping"]["s"] and ys[3] is not ys[0]

"""A replacer gives what dataclasses.replace gives: every field carried over, the named ones changed, __post_init__
run; a field it cannot set positionally is refused when it is made."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.fast_replace import replacer
from models.sizing.result import DatabaseDisks, PlacedVm
from models.sizing.settings import SettingGroup


@dataclasses.dataclass(frozen=True)
class Checked:
    a: int
    b: str = "b"
    c: tuple[int, ...] = ()
    derived: int = dataclasses.field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must be >= 0")
        object.__setattr__(self, "derived", self.a + len(self.c))


@dataclasses.dataclass
class One:
    only: Any


values = st.integers(0, 9) | st.text(max_size=3) | st.none() | st.tuples(st.integers(0, 3))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 50), st.text(max_size=3), st.lists(st.integers(0, 5), max_size=3),
       st.sets(st.sampled_from(["a", "b", "c"]), min_size=1), st.integers(0, 50))
def test_a_replacer_gives_what_replace_gives(a: int, b: str, c: list[int], names: set[str], new_a: int) -> None:
    obj = Checked(a, b, tuple(c))
    chosen = sorted(names)
    new = {"a": new_a, "b": b + "x", "c": (*c, 9)}
    got = replacer(Checked, *chosen)(obj, *(new[n] for n in chosen))
    want = dataclasses.replace(obj, **{n: new[n] for n in chosen})
    assert got == want and got.derived == want.derived


@settings(max_examples=8, deadline=None)
@given(values, values)
def test_the_classes_an_estate_renames_come_out_as_replace_gives_them(x: Any, y: Any) -> None:
    disks = DatabaseDisks("d", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, None, 9.0, "CPU")
    assert replacer(DatabaseDisks, "tps_p50", "tps_binding")(disks, x, y) == dataclasses.replace(
        disks, tps_p50=x, tps_binding=y)
    vm = PlacedVm("vm", 2, None, 4, 16.0, ("d",), (disks,), 16.0)
    assert replacer(PlacedVm, "disks", "numa_node")(vm, (), x) == dataclasses.replace(vm, disks=(), numa_node=x)
    assert replacer(One, "only")(One(x), y) == One(y)


def test_post_init_still_refuses_and_an_unknown_or_derived_field_is_refused() -> None:
    with pytest.raises(ValueError, match="a must be"):
        replacer(Checked, "a")(Checked(1), -1)
    with pytest.raises(ValueError, match="unknown settings product"):
        replacer(SettingGroup, "product")(SettingGroup("postgresql", "vm", ()), "nosuch")
    with pytest.raises(TypeError, match="no init field derived"):
        replacer(Checked, "derived")
    with pytest.raises(TypeError, match="keyword-only"):
        replacer(dataclasses.make_dataclass("K", [("k", int)], kw_only=True), "k")

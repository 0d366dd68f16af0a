"""The CLI's JSON writer gives json.dumps(indent=2, ensure_ascii=False)'s text byte for byte."""

from __future__ import annotations

import enum
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli import json_text
from app.cli.output import _default, print_json
from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.scenario import parse_scenario
from models.sizing.engine import size

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


def _reference(obj: object) -> str:
    return json.dumps(obj, indent=2, default=_default, ensure_ascii=False)


ODD: list[Any] = [
    {}, [], (), "", 0, -0.0, 1e300, 1.5e-7, float("nan"), float("inf"), float("-inf"), True, False, None,
    {"a": 1, "b": 1.0, "c": True}, {"a": True, "b": 1, "c": 1.0}, [{"a": 1}, {"a": 1.0}, {"a": True}, {"a": 1}],
    {1: "int key", 2.5: "float key", None: "none", float("nan"): "nan key", False: "bool",
     "é": "ünïcode \u2028 \"q\" \\ \n\t"},
    {True: "bool key"}, {"deep": [[[], {}], [{"x": [1, {"y": {}}]}]]}, (1, (2, (3,))), {"t": (1.0, "x")},
    {"np": [np.float64(0.1), np.int64(7), np.float32(0.5), np.bool_(True)], "d": date(2026, 11, 29)},
    {"enum": Level.HIGH, "sub": Name("s"), Name("k"): Level.HIGH},
    [{"same": "leaf"}, {"same": "leaf"}, [{"same": "leaf"}]],  # one leaf dict at two depths
]


@pytest.mark.parametrize("obj", ODD, ids=range(len(ODD)))
def test_every_kind_of_value_is_written_as_json_dumps_writes_it(obj: object) -> None:
    assert json_text.dumps(obj, _default) == _reference(obj)


def test_a_key_json_refuses_is_refused() -> None:
    with pytest.raises(TypeError):
        json_text.dumps({(1, 2): 3}, _default)
    with pytest.raises(TypeError):
        json_text.dumps({"x": object()}, _default)


@pytest.fixture(scope="module")
def catalog() -> HardwareCatalog:
    return seed_catalog()


def _estate() -> dict[str, Any]:
    """A skewed consolidation with vSphere HA: large and small databases, some busy together, so a failure restarts
    VMs of many shapes onto the survivors (18 of them onto two survivors of three hosts)."""
    data = json.loads((SAMPLES / "pg-consolidation.json").read_text())
    data["workload"]["databases"] = [
        {"name": f"db{i:03d}", "size_gb": 10 + (i * 37) % 400, "peak_clients": 3 + (i * 11) % 90,
         "working_set_gb": 1 + (i * 7) % 40, "busy_hours": sorted({i % 5, 5 + (i * 3) % 19})} for i in range(60)]
    return data


@pytest.mark.parametrize("name", ["pg-consolidation", "retail-dw-gen5", "sap-iq", "estate"])
def test_a_sizing_result_is_printed_as_json_dumps_prints_it(name: str, catalog: HardwareCatalog,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = _estate() if name == "estate" else json.loads((SAMPLES / f"{name}.json").read_text())
    result = size(parse_scenario(data), catalog).to_dict()
    out = io.StringIO()
    monkeypatch.setattr(json_text, "FLUSH_PIECES", 50)  # written out in many pieces
    print_json(result, out)
    assert out.getvalue() == _reference(result) + "\n"


_scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=4)
_flat = st.dictionaries(st.sampled_from(["name", "value", "unit", "reason"]), _scalars, min_size=1)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.lists(_flat, min_size=1, max_size=3), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=12))
def test_lists_met_again_as_the_same_object_are_written_as_json_dumps_writes_them(
        pool: list[list[dict[str, Any]]], picks: list[tuple[int, int]]) -> None:
    """Lists of flat dicts (a VM's settings) placed as the same objects at one to three depths, beside lists equal
    to them but not the same, and a list changed between two writes."""
    tree: list[Any] = []
    for which, depth in picks:
        item: Any = pool[which % len(pool)]
        for _ in range(depth):
            item = {"settings": item, "deeper": [item]}
        tree.append(item)
    tree.append([dict(d) for d in pool[0]])  # equal, not the same
    assert json_text.dumps(tree, _default) == _reference(tree)
    pool[0].append({"name": "added"})
    assert json_text.dumps(tree, _default) == _reference(tree)


def test_a_list_made_anew_by_default_is_not_taken_for_another() -> None:
    """`default` returns a new list of flat dicts each time: each is written as itself (were one freed, its id could
    come back as the next one's)."""
    class Fresh:
        count = 0

    def default(o: object) -> object:
        if isinstance(o, Fresh):
            Fresh.count += 1
            return [{"n": Fresh.count}]
        return _default(o)

    obj = [Fresh() for _ in range(50)]
    Fresh.count = 0
    reference = json.dumps(obj, indent=2, default=default, ensure_ascii=False)
    Fresh.count = 0
    assert json_text.dumps(obj, default) == reference

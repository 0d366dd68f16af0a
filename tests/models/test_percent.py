"""One way to write a share in every text refarch produces: the number, a space, "%" (models.percent)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.formatting import percent as app_percent
from app.formatting import value
from catalog.seed import seed_catalog
from models.hardware import HardwareCatalog
from models.percent import percent, percent_range
from models.scenario import load_project
from models.sizing.engine import size
from tests.models.sizing.conftest import SAMPLES, sample

GLUED = re.compile(r"\d%")  # "45%": the style the product does not use


@given(st.floats(min_value=-10, max_value=10, allow_nan=False), st.integers(min_value=0, max_value=2))
def test_a_share_is_its_number_a_space_and_the_sign(fraction: float, decimals: int) -> None:
    text = percent(fraction, decimals)
    assert text.endswith(" %") and not GLUED.search(text)
    assert float(text[:-2].replace(",", "")) == pytest.approx(fraction * 100, abs=0.51 * 10 ** -decimals)
    assert app_percent(fraction, decimals) == text  # the window, the PDF and the CLI use the same rule
    assert value(fraction, "fraction", 3).endswith(" %")  # as does a fraction printed with its unit


def test_a_range_writes_the_sign_once() -> None:
    assert percent_range(0.45, 0.55) == "45-55 %"
    assert percent(0.121, 1, sign=True) == "+12.1 %" and percent(-0.005, 1, sign=True) == "-0.5 %"


def _cases() -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for path in sorted(SAMPLES.glob("*.json")):
        out += [(f"{path.name}:{s.name}", s) for s in load_project(path).scenarios]
    out += [
        ("pg shared VMs, conventional", sample("pg-consolidation", workload={
            "placement": "shared-vm", "shared_buffers_policy": "conventional"})),
        ("pg overcommitted hosts", sample("pg-consolidation", workload={"host_memory_available_gib": 24})),
        ("iq on a SAN", sample("sap-iq", workload={"shared_storage": "san", "san_price_per_tb": 400})),
    ]
    return out


def test_no_text_of_a_sizing_glues_the_percent_sign_to_its_number() -> None:
    catalog: HardwareCatalog = seed_catalog()
    for name, scenario in _cases():
        text = json.dumps(size(scenario, catalog).to_dict(), ensure_ascii=False)  # type: ignore[arg-type]
        glued = sorted({text[max(0, m.start() - 40):m.end()] for m in GLUED.finditer(text)})
        assert not glued, (name, glued[:3])

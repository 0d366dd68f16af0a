"""Warnings are structured: a stable code, a severity, and the scenario field they concern when there is one."""

from __future__ import annotations

from datetime import date

import pytest

from models.hardware import HardwareCatalog, Rack
from models.money import ExchangeRates
from models.sizing.engine import size
from models.vocabulary import TARGETS, field_info
from tests.models.sizing.conftest import sample

SEVERITIES = {"info", "warning", "critical"}


@pytest.mark.parametrize("name", ["retail-dw-gen5", "gp-oltp", "pg-consolidation", "sap-iq", "study-000-vsphere"])
def test_every_warning_names_a_scenario_field_the_vocabulary_knows(catalog: HardwareCatalog, name: str) -> None:
    # a budget no design meets, so every sample also raises target warnings
    r = size(sample(name, targets={"max_capex": 1.0, "max_rack_u": 1}), catalog)
    assert r.warnings
    for w in r.warnings:
        assert w.code and w.code == w.code.strip().lower() and " " not in w.code
        assert w.severity in SEVERITIES
        assert w.field is None or field_info(w.field) is not None, (w.code, w.field)
        assert w.field is None or not w.text.startswith(w.field + ":"), w.text  # nothing to parse back
    critical = {w.field for w in r.warnings if w.severity == "critical"}
    for check in r.target_checks:
        assert check.target in TARGETS
        assert (f"targets.{check.target}" in critical) == (check.status != "met")


def test_parts_left_out_for_want_of_a_rate_name_the_currency_field(catalog: HardwareCatalog) -> None:
    chf_rack = Rack("ch-rack", "Rittal", "VX", 1000.0, "CHF", date(2026, 11, 1), "quote", rack_u=42, max_kw=20)
    cat = HardwareCatalog((*catalog.parts, chf_rack), ExchangeRates(()))  # USD project, no CHF rate
    r = size(sample("retail-dw-gen5"), cat)
    w = [x for x in r.warnings if x.code == "no-rate"]
    assert len(w) == 1 and "CHF" in w[0].text
    assert (w[0].field, w[0].severity) == ("commercial.currency", "warning")

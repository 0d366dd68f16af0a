"""A design's host layouts name the BOM role that prices them, so renderers match them by value, not by wording."""

from __future__ import annotations

import pytest

from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


@pytest.mark.parametrize("name", ["pg-consolidation", "retail-dw-gen5", "gp-oltp", "sap-iq", "study-000-vsphere"])
def test_every_host_layout_names_the_bom_role_that_prices_it(catalog: HardwareCatalog, name: str) -> None:
    # the report's roles table leaves out the BOM roles a layout already shows (it listed SAP IQ's nodes twice)
    r = size(sample(name), catalog)
    priced = {ln.role for ln in r.bom if ln.kind == "server"}
    assert r.design.hosts and {h.bom_role for h in r.design.hosts} <= priced
    assert sum(h.count for h in r.design.hosts) <= sum(ln.hosts for ln in r.bom if ln.kind == "server")
    if name == "pg-consolidation":  # one layout per host, numbered; priced together
        assert len(r.design.hosts) > 1 and {h.bom_role for h in r.design.hosts} == {"database host"}
        assert [h.role for h in r.design.hosts] == [f"database host {i}" for i in range(1, len(r.design.hosts) + 1)]

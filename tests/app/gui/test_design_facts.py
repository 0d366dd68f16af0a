"""The Design tab's facts name what the design has: a bare-metal SAP IQ multiplex on a SAN has no data drives,
no raw capacity on its hosts and no VMs, and says where its dbspaces are."""

from __future__ import annotations

from app.gui.results_view import design_facts
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


def test_bare_metal_sap_iq_on_a_san(seed: HardwareCatalog) -> None:
    scenario = sample("sap-iq", platform={"deployment": "bare-metal", "server_id": None, "drive_id": None,
                                          "nic_id": None})
    d = size(scenario, seed).design
    assert (d.deployment, d.data_drives_per_host, d.raw_capacity_tb) == ("bare-metal", 0, 0.0)
    facts = dict(design_facts(d, str))
    assert facts["Data drives per host"] == "none: dbspaces on the external SAN"  # was "0 (external SAN)"
    assert "Raw capacity" not in facts and "VMs per host" not in facts  # was "Raw capacity 0 TB"
    assert facts["IQ nodes"] == str(d.segment_hosts)
    assert facts["DQP mode"] in ("Network transfer (private interconnect)", "Storage transfer (shared temp store)")

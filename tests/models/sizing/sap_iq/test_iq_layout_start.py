"""SAP IQ on vSAN lays out the drives asked for and the stripe width the policy spreads over; every node starts with
the full start_iq parameters, each with its source."""

from __future__ import annotations

import pytest

from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.sizing.engine import size
from tests.models.sizing.conftest import sample


def _policy(r: object) -> dict[str, object]:
    group = next(g for g in r.design.settings if g.product == "vsan-policy")  # type: ignore[attr-defined]
    return {s.name: s for s in group.settings}


def test_study_003_ten_drives_per_host_make_two_disk_groups_and_stripe_five(catalog: HardwareCatalog) -> None:
    """Study 003: 10 x 900 GB per host in 2 disk groups of 5, stripeWidth 5 (before: 1 capacity drive, stripe 1)."""
    r = size(sample("sap-iq", workload={"data_tb": 0.3, "nodes": 4}, platform={"drives_per_host": 10}), catalog)
    assert r.design.data_drives_per_host == 10
    assert _policy(r)["stripeWidth"].value == 5
    assert "10 capacity drive(s) in 2 disk group(s)" in _policy(r)["stripeWidth"].reason


def test_without_a_drive_count_a_host_gets_the_stripe_width_of_drives(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", workload={"data_tb": 2, "query_streams": 3}), catalog)
    width = figure("sapiq_dqp_003", "vsan_stripe_width")
    assert r.design.data_drives_per_host >= width and _policy(r)["stripeWidth"].value == width


def test_fewer_drives_than_the_stripe_say_so(catalog: HardwareCatalog) -> None:
    r = size(sample("sap-iq", workload={"data_tb": 0.5}, platform={"drives_per_host": 3}), catalog)
    stripe = _policy(r)["stripeWidth"]
    assert r.design.data_drives_per_host == 3 and stripe.value == 3 and "platform.drives_per_host" in stripe.reason


@pytest.mark.parametrize("streams", [2, 40])
def test_every_node_gets_the_full_start_parameters(catalog: HardwareCatalog, streams: int) -> None:
    r = size(sample("sap-iq", workload={"query_streams": streams, "data_tb": 3}), catalog)
    group = next(g for g in r.design.settings if g.product == "sap-iq-server" and g.target == "all nodes")
    values = {s.name: s.value for s in group.settings}
    assert {"x", "gm", "c", "gc", "gd", "gl", "gp", "ti", "iqmc", "iqtc", "iqlm"} <= set(values)
    assert values["gm"] == streams + figure("sapiq_dqp_003", "start_connections_default")
    assert values["x"] == "tcpip{port=2638}"
    assert all(s.source for s in group.settings)

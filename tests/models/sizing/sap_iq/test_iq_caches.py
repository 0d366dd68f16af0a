"""SAP IQ caches that count: throughput falls where the main and temp caches hold less than study 003's ratios,
a temp cache below the floor is refused naming platform.memory_gib and its limit, and the band widens with the
distance from the study (the one extrapolation rule PostgreSQL TPS uses too)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from models.calibration_data import figure
from models.hardware import HardwareCatalog
from models.perf import bands, pg_tps, sap_iq, sap_iq_fit
from models.sizing.engine import size
from models.sizing.parts import SizingInputError
from models.sizing.result import SizingResult
from tests.models.sizing.conftest import sample

STUDY = "sapiq_dqp_003"
MEMORIES = (32, 64, 128, 256, 512, 768)


def _iq(memory_gib: int, nodes: int | None, streams: int, data_tb: float = 5.0) -> SizingResult | SizingInputError:
    storage = {"shared_storage": "san", "san_price_per_tb": 500.0} if nodes is not None and nodes < 3 else {}
    try:
        return size(sample("sap-iq", platform={"memory_gib": memory_gib},
                           workload={"nodes": nodes, "query_streams": streams, "data_tb": data_tb,
                                     "compression_ratio": 1.0, **storage}), _CATALOG[0])
    except SizingInputError as e:
        return e


_CATALOG: list[HardwareCatalog] = []


@pytest.fixture(autouse=True)
def _keep(catalog: HardwareCatalog) -> None:
    _CATALOG[:] = [catalog]


@pytest.mark.parametrize(("nodes", "streams"), [(1, 2), (2, 20), (5, 9), (16, 40)])
def test_throughput_rises_with_node_memory_and_small_caches_are_refused_below_the_floor(nodes: int,
                                                                                      streams: int) -> None:
    results = [_iq(m, nodes, streams) for m in MEMORIES]
    refused = [r for r in results if isinstance(r, SizingInputError)]
    # 20 streams on 2 nodes need 171 GiB of temp cache per node: 32 and 64 GiB hosts hold less than 1/8 of it
    assert len(refused) == (2 if (nodes, streams) == (2, 20) else 0)
    sized = [r for r in results if not isinstance(r, SizingInputError)]
    assert sized, "768 GiB nodes must size"
    # refusals only at the small end, each naming the field and the temp cache limit
    assert results[: len(refused)] == refused
    for e in refused:
        assert [p.path for p in e.problems] == ["platform.memory_gib"]
        assert "limit is" in e.problems[0].message and "GiB per host" in e.problems[0].message
    p50 = [r.estimates["throughput_metric"].p50 for r in sized]
    assert all(b >= a * (1 - 1e-9) for a, b in itertools.pairwise(p50)), p50
    assert p50[0] < p50[-1]  # the smallest memory that sizes is slower than 768 GiB nodes
    small = sized[0]
    assert small.binding_resource == "memory"
    assert "iq-caches-short" in {w.code for w in small.warnings}


def test_28_gib_nodes_for_5_tb_give_less_than_384_gib_nodes() -> None:
    """The customer's case: 28 GiB nodes (7.5 GiB main cache) for 5 TB gave the same throughput as 384 GiB."""
    small, big = _iq(28, 4, 6), _iq(384, 4, 6)
    assert not isinstance(small, SizingInputError) and not isinstance(big, SizingInputError)
    assert small.estimates["throughput_metric"].p50 < 0.7 * big.estimates["throughput_metric"].p50


def test_caches_at_the_study_ratio_cost_nothing_and_more_is_not_credited() -> None:
    at = sap_iq_fit.CacheFit(sap_iq_fit.study_cache_gib("main"), sap_iq_fit.study_cache_gib("temp"), 0.3)
    assert float(sap_iq_fit.cache_factor(at, 4, 6, 2.0, 2.0)) == pytest.approx(1.0)
    more = sap_iq_fit.CacheFit(500.0, 500.0, 0.1)
    assert float(sap_iq_fit.cache_factor(more, 7, 3, 0.5, 0.5)) == pytest.approx(1.0)


def test_a_temp_cache_below_the_floor_exits_2_on_the_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads((Path(__file__).resolve().parents[4] / "resources" / "samples" / "sap-iq.json").read_text())
    data["platform"]["memory_gib"] = 24
    data["workload"].update({"nodes": 3, "query_streams": 11})
    f = tmp_path / "iq.json"
    f.write_text(json.dumps(data))
    code = main(["--db", f"sqlite:///{tmp_path / 'c.sqlite'}", "size", str(f)])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err
    assert "platform.memory_gib" in err and "limit is" in err
    need = sap_iq_fit.temp_need_gib(3, 11) * figure(STUDY, "temp_cache_floor_share")
    assert f"{need:,.1f} GiB of temp cache" in err


def test_free_node_counts_add_nodes_before_refusing() -> None:
    """With the node count left free, the multiplex grows until its temp caches hold the floor."""
    r = _iq(48, None, 30)
    assert not isinstance(r, SizingInputError)
    temp = r.design.iq_temp_cache_gib or 0.0
    need = sap_iq_fit.temp_need_gib(r.design.segment_hosts, 30)
    assert temp >= figure(STUDY, "temp_cache_floor_share") * need - 0.1


def _width(e: sap_iq.IqPrediction) -> float:
    return e.throughput.p90 / e.throughput.p10


def test_the_band_widens_with_distance_from_the_study() -> None:
    """Issue 33: one node of a 2013 CPU with 8 streams was flagged extrapolated with only +-7 %."""
    at = sap_iq.predict_iq("network-transfer", 4, 6, 14.0)
    one = sap_iq.predict_iq("network-transfer", 1, 8, 14.0 * 3.0 / 2.9, away=sap_iq.Away(3.0 / 2.9))
    assert not at.extrapolated and one.extrapolated
    assert _width(one) > 2.5 * _width(at) - 1.5  # relative half-width at least doubles
    assert (one.throughput.p90 / one.throughput.p50 - 1) > 0.2
    widths = [_width(sap_iq.predict_iq("network-transfer", n, 6, 14.0)) for n in (4, 8, 16)]
    assert widths[0] < widths[1] < widths[2]


def test_one_extrapolation_rule_for_postgresql_and_sap_iq() -> None:
    assert pg_tps.miss_share is bands.miss_share
    x = pg_tps.PgTpsInputs(vcpus=12, clients=200, cache_gib=1.0, working_set_gib=1.0)
    assert pg_tps.band_sd(x) == bands.extrapolation_sd(figure("pg_tps_model", "band_sd_per_doubling"),
                                                        pg_tps.distances(x).values())
    d = sap_iq_fit.distances(2, 28, 1.1, 40, 8.0)
    assert sap_iq_fit.band_sd(2, 28, 1.1, 40, 8.0) == bands.extrapolation_sd(
        figure(STUDY, "band_sd_per_doubling"), d.values())


@settings(max_examples=8, deadline=None)
@given(nodes=st.integers(1, 16), memory=st.sampled_from(MEMORIES), streams=st.integers(1, 500))
def test_any_multiplex_sizes_or_is_refused_on_its_memory(nodes: int, memory: int, streams: int) -> None:
    r = _iq(memory, nodes, streams, data_tb=20.0)
    if isinstance(r, SizingInputError):
        assert {p.path for p in r.problems} <= {"platform.memory_gib", "workload.nodes", "platform"}
        return
    t = r.estimates["throughput_metric"] if streams > 1 else r.estimates["power_metric"]
    assert 0 < t.p10 <= t.p50 <= t.p90
    assert r.design.segment_hosts == nodes


def test_a_newer_cpu_lies_further_from_the_study_than_its_base_clock_says(catalog: HardwareCatalog) -> None:
    """The band's CPU distance is the larger of the base clock's and, for a scored CPU, its per-core
    SPECrate2017_int_base's from the study CPU's stand-in; the study's own E5-2690 (unscored) is 0 away."""
    from models.estate import socket_score
    from models.sizing.sap_iq.node import cpu_doublings, speed_factor

    study = catalog.server("dell-r720xd-2x-e5-2690")
    assert cpu_doublings(study) == pytest.approx(0.0)
    scored = [s for s in catalog.servers if socket_score(s.cpu.model) is not None]
    assert scored
    for s in scored:
        clock = bands.doublings(speed_factor(s), 1.0)
        per_core = bands.doublings(socket_score(s.cpu.model) / s.cpu.cores,  # type: ignore[operator]
                                   figure(STUDY, "study_cpu_specrate_per_core"))
        assert cpu_doublings(s) == pytest.approx(max(clock, per_core))


def test_what_sap_does_not_give_is_stated_as_refarch_assumptions(catalog: HardwareCatalog) -> None:
    """The cost of a miss, the temp-cache floor and the 32-node cap are refarch's, not SAP's: the caches' reason and
    the capped-nodes warning say so with the figures of the calibration file (and SAP IQ's own per-statement guard
    and the 40-node multiplex SAP's sizing architect works through), each source resolving; the model card too."""
    from models.percent import percent
    from models.perf.sap_iq_card import card
    from models.references import unresolved

    r = size(sample("sap-iq", workload={"data_tb": 14, "query_streams": 900},
                    platform={"server_id": None, "drive_id": None, "nic_id": None}), catalog)
    why = next(x for x in r.rationale if x.decision == "IQ caches")
    floor, guard = figure(STUDY, "temp_cache_floor_share"), figure(STUDY, "hash_thrashing_percent_default")
    assert "Refarch assumptions" in why.text and percent(floor, 1) in why.text and f"{guard:g} %" in why.text
    assert f"adds {figure(STUDY, 'cache_miss_slowdown_main'):g} x the time of a hit" in why.text
    assert not unresolved(why.source) and any("Troubleshooting" in s for s in why.source)
    capped = next(w for w in r.warnings if w.code == "nodes-capped")
    assert "refarch assumption, not a product limit" in capped.text
    assert f"{figure(STUDY, 'multiplex_nodes_sap_example'):g} nodes" in capped.text
    note = card().note
    assert all(s in note for s in ("Assumed", percent(floor, 1), "refarch's cap", "HASH_THRASHING_PERCENT"))

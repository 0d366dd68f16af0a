"""Memory models from the vFabric Postgres study: overcommitment, shared_buffers, working sets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from models.calibration_data import STUDY_FILES, dataset, figure
from models.perf.cards import all_cards
from models.perf.memory import (
    SCHEMES,
    overcommit_rate,
    performance_preserved,
    safe_overcommit_rate,
    shared_buffers_throughput_factor,
    shared_buffers_working_set_mb,
    vm_memory_working_set_mb,
)

DS = "pg_vfabric_001"
DIP_LOW, DIP_HIGH = figure(DS, "sb_dip_low_ratio"), figure(DS, "sb_dip_high_ratio")


def _in_dip(r: float) -> bool:
    return DIP_LOW < r < DIP_HIGH


# ------------------------------------------------------------------ calibration data


@pytest.mark.parametrize("name", ["pg_vfabric_001", "gp6_oltp_004"])
def test_datasets_cite_their_study(name: str) -> None:
    data = dataset(name)
    assert data.dataset == name
    assert all(p.source.file in STUDY_FILES for p in data.points)


@pytest.mark.parametrize("table", ["t5", "t6"])
@pytest.mark.parametrize("scheme", [1, 2, 3, 4])
def test_tables_5_and_6_are_transcribed_consistently(table: str, scheme: int) -> None:
    notpm = figure(DS, f"{table}_s{scheme}_notpm")
    pcpu = figure(DS, f"{table}_s{scheme}_pcpu_pct")
    assert notpm / (pcpu / 100.0) == pytest.approx(figure(DS, f"{table}_s{scheme}_notpm_per_pcpu"), rel=1e-4)


def test_quoted_gains_follow_from_the_tables() -> None:
    for s in (3, 4):
        gain = figure(DS, f"t6_s{s}_notpm") / figure(DS, f"t5_s{s}_notpm") - 1.0
        assert gain == pytest.approx(figure(DS, f"sb75_gain_s{s}"), abs=0.0006)


# ------------------------------------------------------------------ Equation 1


def test_overcommit_rate_examples() -> None:
    assert overcommit_rate(4, 8) == pytest.approx(0.5)
    assert overcommit_rate(8, 8) == 0.0
    assert overcommit_rate(12, 8) == 0.0
    out = overcommit_rate(np.array([2.0, 4.0, 16.0]), 8.0)
    assert np.allclose(out, [0.75, 0.5, 0.0])


@pytest.mark.parametrize(("avail", "conf"), [(0, 8), (-1, 8), (4, 0), (4, -2), (float("nan"), 8)])
def test_overcommit_rate_rejects_bad_memory(avail: float, conf: float) -> None:
    with pytest.raises(ValueError):
        overcommit_rate(avail, conf)


@given(
    avail=st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False),
    conf=st.floats(min_value=1e-300, max_value=1e300, allow_nan=False, allow_infinity=False),
)
def test_overcommit_rate_is_in_unit_interval(avail: float, conf: float) -> None:
    rate = overcommit_rate(avail, conf)
    assert 0.0 <= rate < 1.0


def test_safe_overcommit_reproduces_69_percent() -> None:
    needed_gib = (vm_memory_working_set_mb(30) + vm_memory_working_set_mb(2)) / 1024.0
    configured_gib = figure(DS, "t2_mem_config_total_mb") / 1024.0
    assert safe_overcommit_rate(configured_gib, needed_gib) == pytest.approx(
        figure(DS, "ws_safe_overcommit_rate"), abs=0.005
    )


# ------------------------------------------------------------------ shared_buffers


def test_shared_buffers_factor_at_calibration_points() -> None:
    assert shared_buffers_throughput_factor(0.25) == pytest.approx(1.0)
    f75 = shared_buffers_throughput_factor(0.75)
    assert 1.0 + figure(DS, "sb75_gain_s3") <= f75 <= 1.0 + figure(DS, "sb75_gain_s4")
    # The dip: half-memory shared buffers do worse than either side of the 45-55 % region.
    assert shared_buffers_throughput_factor(0.5) < shared_buffers_throughput_factor(0.44)
    assert shared_buffers_throughput_factor(0.5) < shared_buffers_throughput_factor(0.56)
    out = shared_buffers_throughput_factor(np.array([0.25, 0.5, 0.75]))
    assert out.shape == (3,)


@pytest.mark.parametrize("ratio", [0.0, 1.0, -0.1, 1.5, float("nan")])
def test_shared_buffers_factor_rejects_bad_ratio(ratio: float) -> None:
    with pytest.raises(ValueError):
        shared_buffers_throughput_factor(ratio)


@given(
    a=st.floats(min_value=0.001, max_value=0.999),
    b=st.floats(min_value=0.001, max_value=0.999),
)
def test_more_shared_buffers_never_lowers_throughput_outside_the_dip(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assume(not _in_dip(lo) and not _in_dip(hi))
    assert shared_buffers_throughput_factor(hi) >= shared_buffers_throughput_factor(lo)


# ------------------------------------------------------------------ working sets


def test_working_sets_reproduce_the_knees() -> None:
    assert vm_memory_working_set_mb(30) == pytest.approx(figure(DS, "ws_vm_30c_mb"))
    assert vm_memory_working_set_mb(2) == pytest.approx(figure(DS, "ws_vm_2c_mb"))
    assert shared_buffers_working_set_mb(30) == pytest.approx(figure(DS, "ws_sb_30c_mb"))
    assert shared_buffers_working_set_mb(2) == pytest.approx(figure(DS, "ws_sb_2c_mb"))
    assert vm_memory_working_set_mb(0) == vm_memory_working_set_mb(2)  # held below the 2-client reading
    assert vm_memory_working_set_mb(np.array([2, 30])).shape == (2,)
    with pytest.raises(ValueError):
        vm_memory_working_set_mb(-1)


@given(a=st.floats(min_value=0, max_value=1000), b=st.floats(min_value=0, max_value=1000))
def test_working_sets_grow_with_clients(a: float, b: float) -> None:
    lo, hi = sorted((a, b))
    assert vm_memory_working_set_mb(hi) >= vm_memory_working_set_mb(lo)
    assert shared_buffers_working_set_mb(hi) >= shared_buffers_working_set_mb(lo)


# ------------------------------------------------------------------ overcommitment


def test_performance_preserved_reproduces_quoted_ratios() -> None:
    rate = figure(DS, "oc_test_rate")

    def p(scheme: str, sb: float) -> float:
        return performance_preserved(rate, scheme, sb)  # type: ignore[arg-type]

    assert p("vm-per-database", 0.25) / p("shared-instance", 0.25) == pytest.approx(
        1 + figure(DS, "oc55_sb25_vm_advantage")
    )
    assert p("vm-per-database", 0.75) / p("shared-os", 0.75) == pytest.approx(1 + figure(DS, "oc55_sb75_s3_advantage"))
    assert p("vm-per-database+db-balloon", 0.75) / p("shared-instance", 0.75) == pytest.approx(
        1 + figure(DS, "oc55_sb75_s4_advantage")
    )
    assert p("vm-per-database+db-balloon", 0.75) / p("vm-per-database", 0.75) == pytest.approx(
        1 + figure(DS, "oc55_sb75_s4_over_s3")
    )


def test_performance_preserved_below_divergence_is_full() -> None:
    rates = np.linspace(0.0, figure(DS, "oc_divergence_rate"), 5)
    for scheme in SCHEMES:
        assert np.allclose(performance_preserved(rates, scheme), 1.0)
    with pytest.raises(ValueError):
        performance_preserved(1.0, "vm-per-database")
    with pytest.raises(ValueError, match="unknown scheme"):
        performance_preserved(0.3, "containers")  # type: ignore[arg-type]


@settings(max_examples=80)
@given(
    a=st.floats(min_value=0.0, max_value=0.999),
    b=st.floats(min_value=0.0, max_value=0.999),
    scheme=st.sampled_from(SCHEMES),
    sb=st.floats(min_value=0.05, max_value=0.95),
)
def test_more_available_memory_never_lowers_preserved_performance(a: float, b: float, scheme: str, sb: float) -> None:
    lo, hi = sorted((a, b))  # lower rate = more memory available
    p_lo = performance_preserved(lo, scheme, sb)  # type: ignore[arg-type]
    p_hi = performance_preserved(hi, scheme, sb)  # type: ignore[arg-type]
    assert 0.0 <= p_hi <= p_lo <= 1.0
    # A VM per database never does worse than one shared VM.
    assert performance_preserved(hi, "vm-per-database", sb) >= performance_preserved(hi, "shared-instance", sb)


def test_memory_cards_meet_target() -> None:
    cards = {c.name: c for c in all_cards() if c.name.startswith("pg-") and c.name != "pg-tps"}  # TPS: test_pg_tps
    assert set(cards) == {"pg-shared-buffers", "pg-working-sets", "pg-memory-overcommit"}
    for card in cards.values():
        assert card.residuals
        assert card.mape_pct <= 5.0
        assert card.note


def test_performance_preserved_over_arrays_has_each_scalar_calls_bits() -> None:
    """The PostgreSQL design reads the curve for every VM in one array call: each element is the scalar value."""
    import numpy as np

    from models.perf.memory import performance_preserved

    rng = np.random.default_rng(7)
    rates = np.concatenate([rng.uniform(0.0, 0.999, 400), [0.0, 0.2, 0.55, 0.69, 0.999]])
    ratios = np.concatenate([rng.uniform(0.05, 0.95, 400), [0.25, 0.75, 0.4, 0.1, 0.9]])
    for scheme in ("vm-per-database", "shared-instance"):
        vector = performance_preserved(rates, scheme, ratios)
        scalar = [float(performance_preserved(float(r), scheme, float(s))) for r, s in zip(rates, ratios, strict=True)]
        assert np.asarray(vector).tobytes() == np.array(scalar).tobytes()

"""The TPS of many VMs read at once is each VM's TPS read alone, bit for bit: band, binding and every bound."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.perf import pg_tps
from models.perf.pg_tps import PgTpsInputs

N = 300  # samples: the equality is element for element, so a short draw tests it as well as 4,000

inputs = st.builds(
    PgTpsInputs, vcpus=st.integers(1, 96), clients=st.integers(1, 3_000), cache_gib=st.floats(0.1, 512.0),
    working_set_gib=st.floats(0.0, 2_000.0), specrate_per_core=st.none() | st.floats(2.0, 20.0),
    storage_iops=st.none() | st.floats(1.0, 2e6), storage_latency_ms=st.none() | st.floats(0.05, 20.0),
    wal_flush_ms=st.none() | st.floats(0.05, 20.0))


@settings(max_examples=12, deadline=None)
@given(st.lists(inputs, min_size=1, max_size=7), st.integers(0, 2**31))
def test_many_vms_read_at_once_are_each_vm_read_alone(xs: list[PgTpsInputs], seed: int) -> None:
    xs = xs + xs[:2]  # repeats: an estate's VMs of one shape
    assert pg_tps.pg_tps_many(xs, samples=N, seed=seed) == {x: pg_tps.pg_tps(x, samples=N, seed=seed) for x in xs}


def test_blocks_and_the_full_draw_give_each_vm_its_own_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven VMs in blocks of three (the last one short) at the sizing's 4,000 draws."""
    monkeypatch.setattr(pg_tps, "BLOCK", 3)
    xs = [PgTpsInputs(vcpus=2 + 3 * i, clients=10 + 40 * i, cache_gib=4.0 + i, working_set_gib=30.0 - 3 * i,
                      specrate_per_core=None if i % 3 else 9.5, storage_iops=None if i == 4 else 900.0 * (i + 1),
                      storage_latency_ms=0.4 if i % 2 else None, wal_flush_ms=1.0 if i == 5 else None)
          for i in range(7)]
    many = pg_tps.pg_tps_many(xs)
    assert many == {x: pg_tps.pg_tps(x) for x in xs}
    assert len({t.binding for t in many.values()}) > 1  # CPU- and storage-bound VMs both


def test_an_input_the_model_refuses_is_refused_at_once_too() -> None:
    with pytest.raises(ValueError, match="vcpus"):
        pg_tps.pg_tps_many([PgTpsInputs(vcpus=0, clients=4, cache_gib=1.0, working_set_gib=1.0)])


def test_vms_alike_but_in_their_iops_share_share_a_band_and_keep_their_own_figures() -> None:
    """Caches that hold the working sets: no read reaches storage, so the IOPS share changes nothing; beside them
    VMs that miss their caches, whose IOPS share binds."""
    held = [PgTpsInputs(vcpus=4, clients=40, cache_gib=8.0, working_set_gib=6.0, storage_iops=100.0 * k)
            for k in range(1, 6)]
    missed = [PgTpsInputs(vcpus=4, clients=40, cache_gib=2.0, working_set_gib=6.0, storage_iops=100.0 * k)
              for k in range(1, 6)]
    many = pg_tps.pg_tps_many(held + missed, samples=N)
    assert many == {x: pg_tps.pg_tps(x, samples=N) for x in held + missed}
    assert len({many[x].estimate for x in held}) == 1 and len({many[x].estimate for x in missed}) == 5

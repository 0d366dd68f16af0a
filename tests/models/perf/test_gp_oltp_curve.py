"""The host searches' TPS curve gives `predict_tps`'s percentiles to the bit, wherever it is flat or not."""

from __future__ import annotations

import numpy as np
import pytest

from models.perf.gp_oltp import TpsCurve, curve, predict_tps
from models.vocabulary import OLTP_MIXES, OltpMix

HOSTS = np.array([*range(1, 41), 57, 64, 100, 250, 999, 1000], dtype=np.int64)
CLUSTERS = [(100.0, 16.0, 64.0), (3000.0, 64.0, 16.0), (3000.0, 192.0, 8.0), (10000.0, 32.0, 192.0), (1.0, 8.0, 8.0)]


def _predicted(mix: OltpMix, clients: float, coordinator: float, segment: float, q: float) -> np.ndarray:
    est = predict_tps(mix, clients, coordinator, HOSTS.astype(float), segment).estimate
    return np.asarray({10.0: est.p10, 50.0: est.p50, 90.0: est.p90}[q], dtype=float)


@pytest.mark.parametrize("mix", OLTP_MIXES)
@pytest.mark.parametrize("cluster", CLUSTERS)
def test_the_curve_is_predict_tps_at_its_percentile(mix: OltpMix, cluster: tuple[float, float, float]) -> None:
    for q in (10.0, 50.0, 90.0):
        tps = TpsCurve(mix, *cluster, q)
        assert np.array_equal(tps.at(HOSTS), _predicted(mix, *cluster, q)), (mix, cluster, q)


@pytest.mark.parametrize("mix", OLTP_MIXES)
def test_counts_asked_one_at_a_time_or_in_any_order_give_the_same_bits(mix: OltpMix) -> None:
    whole = TpsCurve(mix, 3000.0, 64.0, 16.0, 50.0).at(HOSTS)
    one = TpsCurve(mix, 3000.0, 64.0, 16.0, 50.0)
    singly = [float(one.at(np.array([h]))[0]) for h in HOSTS[::-1]][::-1]
    assert np.array_equal(whole, np.array(singly))
    alone = [float(predict_tps(mix, 3000.0, 64.0, float(h), 16.0).estimate.p50) for h in (1, 7, 40, 1000)]
    assert [float(whole[list(HOSTS).index(h)]) for h in (1, 7, 40, 1000)] == alone


def test_the_flat_part_is_where_every_draw_binds_on_the_coordinator() -> None:
    """Past the count the curve starts its flat part the value holds; before it, the segment hosts still count."""
    tps = TpsCurve("select", 3000.0, 64.0, 16.0, 50.0)
    flat = tps._flat_from
    assert 1 < flat < 1000
    vals = tps.at(np.arange(1, 1001, dtype=np.int64))
    assert np.all(vals[flat - 1:] == vals[flat - 1])
    assert vals[flat - 2] < vals[flat - 1] or vals[0] < vals[flat - 1]


def test_curves_are_kept_per_cluster_and_percentile() -> None:
    assert curve("select", 3000.0, 64.0, 16.0, 50.0) is curve("select", 3000.0, 64.0, 16.0, 50.0)
    assert curve("select", 3000.0, 64.0, 16.0, 50.0) is not curve("select", 3000.0, 64.0, 16.0, 10.0)

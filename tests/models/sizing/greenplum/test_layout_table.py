"""A search's host-layout values (`layout_table.LayoutTable`), computed once for every layout of the search, are
the values each chunk computed for its own layouts: every chunk evaluated with them equals, bit for bit, the chunk
evaluated computing them itself, on analytics (every mirroring policy, queued reports) and OLTP searches, in whole
and cut templates."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from app.bench.catalogs import scaled_catalog
from models.hardware import HardwareCatalog
from models.sizing.greenplum import evaluation, search, segments
from models.sizing.greenplum.candidates import iter_columns
from models.sizing.parts import current, resolve
from models.vocabulary import DEPLOYMENTS, RAID_LEVELS
from tests.models.sizing.conftest import sample

FREE = {"server_id": None, "drive_id": None, "drives_per_host": None, "deployment": "vsphere"}


def _bits(a: Any) -> tuple[Any, ...]:
    if a is None:
        return (None,)
    if isinstance(a, dict) or hasattr(a, "keys"):
        return tuple((k, _bits(a[k])) for k in sorted(a.keys()))
    arr = np.asarray(a)
    return (arr.dtype.str, arr.shape, arr.tobytes())


def _same(x: Any, y: Any) -> bool:
    for f in dataclasses.fields(x):
        if f.name == "candidates":
            continue
        if _bits(getattr(x, f.name)) != _bits(getattr(y, f.name)):
            return False
    return all(_bits(x.metrics[k]) == _bits(y.metrics[k]) for k in x.metrics)


@pytest.mark.parametrize(("name", "changes"), [
    ("retail-dw-gen5", {}),
    ("retail-dw-gen5", {"workload": {"mirroring": "spread", "concurrent_queries": 120}}),
    ("retail-dw-gen5", {"workload": {"mirroring": "block", "mirror_block_hosts": 4, "concurrent_queries": 400,
                                     "data_tb": 900}}),
    ("retail-dw-dual-socket-sas", {"workload": {"mirrors": False}}),
    ("gp-oltp", {}),
])
def test_every_chunk_evaluates_the_same_with_the_searchs_layout_values(
        catalog: HardwareCatalog, name: str, changes: dict[str, dict[str, Any]]) -> None:
    catalog = scaled_catalog(catalog, 2)  # servers sharing templates, pieces cut at chunk edges
    scenario = sample(name, platform=FREE, **changes)
    workload = scenario.workload
    servers, drives = current(catalog.servers, catalog), current(catalog.drives, catalog)
    space = search.search_space(scenario, workload, catalog, resolve(scenario, catalog), servers, drives,  # type: ignore[arg-type]
                                   DEPLOYMENTS, RAID_LEVELS, None)
    known = 0
    for _, cands, extra, layouts in iter_columns(space.tables, space.servers, space.drives, space.deployments,
                                                 space.raids, space.drives_per_host, evaluation.min_data_drives(),
                                                 3000):
        if layouts is None:
            continue
        plain = segments.HostLayouts(*layouts)
        looked_up = space.layout_table.known(cands, plain)
        assert isinstance(looked_up, segments.KnownLayouts)  # every layout of the search is in its table
        known += 1
        with_table = search._evaluated(space, cands, extra[0], looked_up)
        computed = search._evaluated(space, cands, extra[0], plain)
        assert _same(with_table, computed)
    assert known >= 5


def test_a_layout_missing_from_the_table_is_computed_as_before(catalog: HardwareCatalog) -> None:
    """A table of another search (one server) has none of this chunk's other servers' layouts: the chunk keeps
    its plain layouts and computes them, never reads another layout's values."""
    scenario = sample("retail-dw-gen5", platform=FREE)
    servers, drives = current(catalog.servers, catalog), current(catalog.drives, catalog)
    args = (scenario, scenario.workload, catalog, resolve(scenario, catalog))
    whole = search.search_space(*args, servers, drives, DEPLOYMENTS, RAID_LEVELS, None)  # type: ignore[arg-type]
    one = search.search_space(*args, servers[:1], drives, DEPLOYMENTS, RAID_LEVELS, None)  # type: ignore[arg-type]
    for _, cands, _, layouts in iter_columns(whole.tables, whole.servers, whole.drives, whole.deployments,
                                             whole.raids, whole.drives_per_host, evaluation.min_data_drives(), 4096):
        if layouts is not None and int(cands.server_idx.max()) > 0:
            plain = segments.HostLayouts(*layouts)
            assert one.layout_table.known(cands, plain) is plain
            return
    pytest.fail("no chunk with layouts beyond the first server")

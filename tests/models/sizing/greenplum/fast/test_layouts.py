"""A chunk's host layouts read off its templates (`fast.layouts.chunk_layouts`) are `segments.host_layouts` of its
rows, None alike."""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models.hardware import BAY_ACCEPTS, Drive, HardwareCatalog, Server
from models.sizing.greenplum import segments
from models.sizing.greenplum.candidates import Choices, Tables, count_candidates, iter_columns
from models.sizing.greenplum.fast.layouts import chunk_layouts
from models.vocabulary import DEPLOYMENTS, RAID_LEVELS


def _same_layouts(servers: list[Server], drives: list[Drive], deployments: tuple[str, ...], raids: tuple[str, ...],
                  drives_per_host: int | None, min_drives: int, chunk: int) -> int:
    """Each chunk's layouts read off the templates are `segments.host_layouts` of its rows (None alike); the number
    of chunks grouped."""
    grouped = 0
    ch = Choices(servers, drives, deployments, raids, drives_per_host, min_drives)
    for _, part, _, pieces in iter_columns(Tables.of(servers, drives), ch, chunk):
        layouts = chunk_layouts(pieces, len(part))
        expected = segments.host_layouts(part)
        assert (layouts is None) == (expected is None)
        if layouts is not None and expected is not None:
            assert np.array_equal(layouts[0], expected.rep) and np.array_equal(layouts[1], expected.which)
            grouped += 1
    return grouped


def test_a_chunks_layouts_from_the_templates_are_host_layouts(catalog: HardwareCatalog) -> None:
    args = (catalog.servers, catalog.drives, DEPLOYMENTS, RAID_LEVELS, None, 2)
    for chunk in (997, 4096, 65_536):  # templates cut at either end, or in the middle, or whole
        assert _same_layouts(*args, chunk) > 0  # the shortcut is taken
    # U.2 bays take one drive (a layout of one row, cut anywhere), SFF bays many: chunks of both
    drives = [d for d in catalog.drives if d.form_factor == "U.2"][:1] + [d for d in catalog.drives
                                                                          if d.form_factor == "SFF"]
    servers = [next(s for s in catalog.servers if s.data_bay_form_factor == form) for form in ("SFF", "U.2")]
    rows = count_candidates(servers[:1], drives, DEPLOYMENTS, RAID_LEVELS, None, 2)
    for cut in (1, 10, 50):  # the SFF server's rows, then the U.2 server's first `cut`: those after lie beyond
        assert _same_layouts(servers, drives, DEPLOYMENTS, RAID_LEVELS, None, 2, rows + cut) > 0
    sff = [s for s in catalog.servers if s.data_bay_form_factor == "SFF"]
    for k in (3, 4):  # a group per 3 rows (3 drives) is not worth it, per 4 it is: host_layouts's bound, here alike
        drives = [d for d in catalog.drives if d.form_factor == "SFF"][:k]
        assert (_same_layouts(sff, drives, DEPLOYMENTS, RAID_LEVELS, None, 2, 65_536) > 0) == (k == 4)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_layouts_from_the_templates_are_host_layouts_on_any_catalog(catalog: HardwareCatalog,
                                                                    data: st.DataObject) -> None:
    """Servers of any bays, NUMA nodes and bay form factor, any drives, deployments, RAID levels and chunk size."""
    picked = data.draw(st.lists(st.sampled_from(catalog.servers), min_size=1, max_size=8))
    servers = [dataclasses.replace(
        s, id=f"s{k}", data_bays=data.draw(st.integers(1, 26)),
        numa_nodes_per_socket=data.draw(st.sampled_from([1, 2])),
        data_bay_form_factor=data.draw(st.sampled_from(sorted(BAY_ACCEPTS)))) for k, s in enumerate(picked)]
    drives = data.draw(st.lists(st.sampled_from(catalog.drives), min_size=1, max_size=8, unique_by=lambda d: d.id))
    deployments = tuple(data.draw(st.lists(st.sampled_from(DEPLOYMENTS), min_size=1, unique=True)))
    raids = tuple(data.draw(st.lists(st.sampled_from(RAID_LEVELS), min_size=1, unique=True)))
    _same_layouts(servers, drives, deployments, raids, data.draw(st.none() | st.integers(1, 12)),
                  data.draw(st.integers(1, 4)), data.draw(st.integers(200, 6000)))

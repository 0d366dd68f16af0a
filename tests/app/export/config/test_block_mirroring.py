"""Block mirroring is written as gpinitsystem builds it: a -I input file placing every primary and mirror in its
block, and a gpinitsystem_config that gpinitsystem -c would not refuse (MIRROR_PORT_BASE without
MIRROR_DATA_DIRECTORY stops it)."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest

from app.export.config import build_config
from models.hardware import HardwareCatalog
from models.scenario import Scenario
from models.sizing.engine import size
from tests.app.export.conftest import sample_json


def _entries(text: str, array: str) -> list[tuple[str, str, int, str, int, int]]:
    body = re.search(rf"^declare -a {array}=\(\n(.*?)\n\)$", text, re.M | re.S)
    assert body is not None, array
    out = []
    for line in body.group(1).splitlines():
        host, address, port, path, dbid, content = line.split("~")
        out.append((host, address, int(port), path, int(dbid), int(content)))
    return out


@pytest.mark.parametrize(("block", "version"), [(3, "6"), (4, "7")])
def test_block_mirroring_places_every_mirror_in_its_block(catalog: HardwareCatalog, block: int,
                                                          version: str) -> None:
    data = sample_json("retail-dw-gen5.json")
    data["workload"].update({"mirroring": "block", "mirror_block_hosts": block, "data_tb": 150,
                             "concurrent_queries": 12, "greenplum_version": version})
    data["targets"] = {}
    result = size(Scenario.model_validate(data), catalog)
    bundle = build_config(result)
    script = bundle.get("greenplum/gpinitsystem.sh").text
    assert re.search(r"^gpinitsystem -I gpinitsystem_input -s \S+$", script, re.M)
    assert not re.search(r"^MIRROR_PORT_BASE=", bundle.get("greenplum/gpinitsystem_config").text, re.M)

    text = bundle.get("greenplum/gpinitsystem_input").text
    primaries, mirrors = _entries(text, "PRIMARY_ARRAY"), _entries(text, "MIRROR_ARRAY")
    hosts = sorted({p[0] for p in primaries}, key=lambda h: int(re.sub(r"\D", "", h)))
    p = result.design.primary_segments_per_host
    assert len(hosts) == result.design.segment_hosts and len(hosts) % block == 0
    assert len(primaries) == len(mirrors) == len(hosts) * p
    assert sorted(e[5] for e in primaries) == sorted(e[5] for e in mirrors) == list(range(len(primaries)))
    dbids = [1] + [e[4] for e in primaries + mirrors]
    assert sorted(dbids) == list(range(1, len(dbids) + 1))
    assert len({(e[0], e[2]) for e in primaries + mirrors}) == len(dbids) - 1  # no port twice on a host
    assert len({(e[0], e[3]) for e in primaries + mirrors}) == len(dbids) - 1  # no directory twice on a host
    where = {e[5]: hosts.index(e[0]) for e in primaries}
    moved: Counter[tuple[int, int]] = Counter()
    for m in mirrors:
        src, dst = where[m[5]], hosts.index(m[0])
        assert src != dst and src // block == dst // block  # another host of the same block
        moved[(src, dst)] += 1
    assert Counter(hosts.index(m[0]) for m in mirrors) == Counter({h: p for h in range(len(hosts))})
    # a failed host's primaries fail over to the other hosts of its block, at most ceil(P / (B - 1)) on each
    assert max(moved.values()) == math.ceil(p / (block - 1))

"""Greenplum 7's own resource-group memory rule (issue 27, item 6): no host share, MEMORY_LIMIT in MB per segment.

Greenplum 6 gives resource groups gp_resource_group_memory_limit's share of the host (rg_perseg_mem); Greenplum 7,
WarehousePG 7 and Apache Cloudberry 2 have no such share: they hold each segment instance to gp_vmem_protect_limit,
a group's MEMORY_LIMIT (MEMORY_QUOTA in Cloudberry) is MB on each segment and a query gets MEMORY_LIMIT /
CONCURRENCY. Cases no other test names: a 96-core host with 1 TiB (16 primaries, 32 acting with a host down) and a
16-core host with 128 GiB (5 primaries, 10 acting), each at its own concurrency, on all four releases.
"""

from __future__ import annotations

import math

import pytest

from models.calibration_data import figure
from models.references import unresolved
from models.sizing.greenplum.design_settings import greenplum_dialect, greenplum_settings
from models.sizing.greenplum.memory import MirrorLayout, OltpHost, memory_plan
from models.sizing.rules import gp_vmem_mb
from models.sizing.settings import SettingGroup

GROUP = MirrorLayout("group", None, False)
HOSTS = {  # ram GiB, swap GiB, primaries, acting primaries after the worst failure, concurrent reports
    "96-core 1 TiB": (1024.0, 32.0, 16, 32, 80),
    "16-core 128 GiB": (128.0, 32.0, 5, 10, 30),
}
GP7_LINE = {"7": "MEMORY_LIMIT", "warehousepg-7": "MEMORY_LIMIT", "cloudberry-2": "MEMORY_QUOTA"}


def _setting(groups: tuple[SettingGroup, ...], product: str, name: str) -> int:
    return int(next(s.value for g in groups if g.product == product for s in g.settings if s.name == name))


def _gp6_statement_mem(ram: float, swap: float, acting: int, c: int) -> int:
    """Greenplum 6's documented rule, restated from its two formulas (rg_perseg_mem and 0.9 x the limit)."""
    per_seg = (ram * figure("vendor_docs", "vm_overcommit_ratio_pct") / 100 + swap) * 0.7 * 1024 / acting
    limit = float(gp_vmem_mb(ram, swap)) // acting
    return int(min(per_seg, 0.9 * limit) // c)


@pytest.mark.parametrize("host", list(HOSTS))
@pytest.mark.parametrize(("version", "word"), list(GP7_LINE.items()))
def test_gp7_line_sizes_the_group_per_segment_from_gp_vmem_protect_limit(host: str, version: str, word: str) -> None:
    ram, swap, primaries, acting, c = HOSTS[host]
    plan = memory_plan(ram, swap, primaries, acting, c, c, GROUP, version=version)
    groups, _ = greenplum_dialect(greenplum_settings(plan), version)
    limit = _setting(groups, "greenplum", "gp_vmem_protect_limit")
    assert limit == int(float(gp_vmem_mb(ram, swap)) // acting)
    stmt = _setting(groups, "greenplum", "statement_mem")
    group_mb = _setting(groups, "greenplum-resource-group", word.lower())
    conc = _setting(groups, "greenplum-resource-group", "concurrency")
    # the Reference Guide's estimate on 7: 0.9 x gp_vmem_protect_limit over what runs at once; the group holds it
    assert stmt == math.floor(0.9 * limit / conc) and group_mb == stmt * conc <= 0.9 * limit
    assert _setting(groups, "greenplum", "max_statement_mem") == max(int(ram * 1024 // conc), stmt)
    names = {s.name for g in groups for s in g.settings}
    assert not names & {"gp_resource_group_memory_limit", "memory_spill_ratio"}
    reason = next(s for g in groups for s in g.settings if s.name == word.lower())
    assert "rg_perseg_mem" not in reason.reason and "0.7" not in reason.reason
    # per segment, and what that makes on the host with a host down (gpdb#17195 asked which)
    assert f"{word} is memory in MB on each segment, not on the host" in reason.reason
    assert f"{group_mb * acting:,} MB on a segment host running {acting} active primaries" in reason.reason
    assert "workload_mgmt_resgroups.html.md), Memory Limits" in reason.source
    assert "guc-list.html.md), statement_mem" in reason.source
    assert ("cloudberry" in reason.source) == (version == "cloudberry-2")
    assert not unresolved(reason.source)  # every document it names is in the reference list


@pytest.mark.parametrize("host", list(HOSTS))
def test_greenplum_6_keeps_its_share_and_7_differs_only_where_the_share_binds(host: str) -> None:
    ram, swap, primaries, acting, c = HOSTS[host]
    by_version = {v: greenplum_dialect(greenplum_settings(memory_plan(ram, swap, primaries, acting, c, c, GROUP,
                                                                      version=v)), v)[0]
                  for v in ("6", *GP7_LINE)}
    stmt = {v: _setting(g, "greenplum", "statement_mem") for v, g in by_version.items()}
    assert stmt["6"] == _gp6_statement_mem(ram, swap, acting, c)
    assert _setting(by_version["6"], "greenplum-resource-group", "memory_spill_ratio") == 0
    assert len({stmt[v] for v in GP7_LINE}) == 1  # one rule for the whole 7 line
    share_binds = _gp6_statement_mem(ram, swap, acting, 1) < 0.9 * (float(gp_vmem_mb(ram, swap)) // acting)
    assert (stmt["7"] > stmt["6"]) == share_binds and stmt["7"] >= stmt["6"]


def test_gp7_admits_what_its_own_pool_gives_the_default_statement_mem() -> None:
    ram, swap, primaries, acting, _ = HOSTS["96-core 1 TiB"]
    asked = 5000
    six = memory_plan(ram, swap, primaries, acting, asked, asked, GROUP).settings
    seven = memory_plan(ram, swap, primaries, acting, asked, asked, GROUP, version="7").settings
    floor = figure("vendor_docs", "gp_statement_mem_default_mb")
    assert seven.resource_group_concurrency == math.floor(0.9 * seven.gp_vmem_protect_limit_mb / floor)
    assert seven.resource_group_concurrency > six.resource_group_concurrency
    assert seven.statement_mem_mb >= floor > 0


def test_gp7_coordinator_on_a_segment_host_counts_in_the_host_total() -> None:
    """OLTP with the coordinator on the first segment host (96-core 1 TiB, 8 primaries, 16 acting): the group's
    memory is taken once more on that host, and the total says so."""
    ram, swap = HOSTS["96-core 1 TiB"][:2]
    plan = memory_plan(ram, swap, 8, 16, 300, 300, GROUP, OltpHost(True), version="warehousepg-7")
    groups, _ = greenplum_dialect(greenplum_settings(plan), "warehousepg-7")
    group_mb = _setting(groups, "greenplum-resource-group", "memory_limit")
    assert _setting(groups, "greenplum", "gp_vmem_protect_limit") == int(float(gp_vmem_mb(ram, swap)) // 17)
    reason = next(s for g in groups for s in g.settings if s.name == "memory_limit").reason
    assert f"{group_mb * 17:,} MB on a segment host running 17 instances (the 16 active primaries and the" \
           " coordinator)" in reason

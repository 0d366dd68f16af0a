"""Greenplum sizing (analytics and OLTP): the package's one public face.

Outside this package only `models.sizing.engine`, `models.sizing.curves` and `models.optimizer` import it, and
only these names (the import-linter contracts in pyproject.toml); its modules are its own business:

* sizing a scenario: `size_greenplum` (the explained design), `oltp_warnings` (OLTP beyond what was measured) and
  `extrapolation_warning` (inputs outside the studies' measured ranges);
* evaluating candidates: `enumerate_candidates`, `evaluate` / `Evaluated` / `pick`, the per-candidate sizing
  figures (`needed_tb`, `primaries_per_host`, `min_hosts`, `capacity_per_host`, `min_data_drives`), the
  performance context and estimates (`GpContext`, `gp_ranges`, `gp_full_scan_s`);
* the search space: `search_space` / `SearchSpace` over the parts `Choices` combines, streamed in
  `SEARCH_CHUNK`s, the streamed reducers (`RunningBest`, `CheapestFeasible`, `Lowest`, `lowest`,
  `first_per_server`), the settling of the pick (`settle_designs`, `settled_pick`, `settled_pool`), the
  approximate TCO (`approx_tco`) and the BOM's controllers and management switches at least (`BomFloor`), the
  part warnings a design raises (`raised_part_warnings`) and the segment tier a workload gets (`tier_choice`).
"""

from models.sizing.greenplum.bom_floor import BomFloor
from models.sizing.greenplum.candidates import Choices, cpu_doublings, enumerate_candidates
from models.sizing.greenplum.context import needed_tb
from models.sizing.greenplum.design import size_greenplum
from models.sizing.greenplum.evaluation import (
    Evaluated,
    capacity_per_host,
    evaluate,
    min_data_drives,
    min_hosts,
    pick,
    primaries_per_host,
)
from models.sizing.greenplum.extrapolation import extrapolation_warning, p90_band_warning
from models.sizing.greenplum.fast.stream import CheapestFeasible, Lowest, RunningBest, first_per_server, lowest
from models.sizing.greenplum.metrics import GpContext, gp_full_scan_s, gp_ranges
from models.sizing.greenplum.oltp_advice import oltp_warnings
from models.sizing.greenplum.part_warnings import raised as raised_part_warnings
from models.sizing.greenplum.search import (
    SEARCH_CHUNK,
    SearchSpace,
    search_space,
    settle_designs,
    settled_pick,
    settled_pool,
)
from models.sizing.greenplum.segments import busy_cores, tier_choice
from models.sizing.greenplum.tco import approx_tco

__all__ = [
    "SEARCH_CHUNK",
    "BomFloor",
    "CheapestFeasible",
    "Choices",
    "Evaluated",
    "GpContext",
    "Lowest",
    "RunningBest",
    "SearchSpace",
    "approx_tco",
    "busy_cores",
    "capacity_per_host",
    "cpu_doublings",
    "enumerate_candidates",
    "evaluate",
    "extrapolation_warning",
    "first_per_server",
    "gp_full_scan_s",
    "gp_ranges",
    "lowest",
    "min_data_drives",
    "min_hosts",
    "needed_tb",
    "oltp_warnings",
    "p90_band_warning",
    "pick",
    "primaries_per_host",
    "raised_part_warnings",
    "search_space",
    "settle_designs",
    "settled_pick",
    "settled_pool",
    "size_greenplum",
    "tier_choice",
]

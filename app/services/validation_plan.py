"""`refarch validate-plan`: the measurements to take on the delivered hosts, and the design's acceptance thresholds.

Writes into a folder: host files, `gpcheckperf.sh` (disk and stream with -D per host, the network bisection and
full matrix), for Greenplum OLTP `pgbench_sweep.sh` (a client sweep past the design's clients), `thresholds.json`
(`models.measurements.plan.thresholds`) and a README that states each threshold, where it comes from and how to
import the results (`refarch measure import results/* --name NAME --plan DIR` checks them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.export.config.bundle import one_line
from app.services import sizing
from app.services.errors import ServiceError
from models.hardware import HardwareCatalog
from models.measurements.plan import gpcheckperf_mib_s, thresholds
from models.scenario import Scenario
from models.sizing.result import SizingResult

THRESHOLDS = "thresholds.json"


def write_plan(scenario: Scenario, catalog: HardwareCatalog, folder: Path, *, force: bool = False,
               label: str | None = None) -> list[Path]:
    """Size `scenario`, then write its validation plan into `folder` (empty unless `force`); the paths written."""
    from app.export.atomic import ExportError, atomic_write_bytes, atomic_write_text

    _check_folder(folder, force)
    result = sizing.size(scenario, catalog, label=label)
    if not result.design.kind.startswith("greenplum"):
        raise ServiceError(f"a validation plan is written for Greenplum designs; {label or scenario.name} is "
                           f"{result.design.kind}")
    plan = thresholds(scenario, result, catalog)
    files: dict[str, tuple[str, bool]] = {
        "hosts/segment_hosts": (_hosts(result), False),
        "gpcheckperf.sh": (_gpcheckperf(result), True),
        THRESHOLDS: (json.dumps(plan, indent=2) + "\n", False),
        "README.md": (_readme(scenario, result, plan), False),
    }
    if "oltp" in plan:
        files["pgbench_sweep.sh"] = (_pgbench(plan["oltp"]), True)
    written = []
    try:
        for rel, (text, executable) in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if executable:
                atomic_write_bytes(path, text.encode("utf-8"), executable=True)
            else:
                atomic_write_text(path, text)
            written.append(path)
        (folder / "results").mkdir(exist_ok=True)
    except (ExportError, OSError) as exc:
        raise ServiceError(f"cannot write the plan into {folder}: {exc}") from None
    return written


def read_plan(path: Path) -> dict[str, Any]:
    """A plan's thresholds.json (the folder or the file), or ServiceError saying why not."""
    from models import file_input

    target = path / THRESHOLDS if path.is_dir() else path
    try:
        doc = file_input.load_json(target, max_bytes=file_input.SCENARIO_MAX_BYTES, what="validation plan")
    except file_input.FileInputError as exc:
        raise ServiceError(f"cannot read the validation plan {target}", exc.problems) from None
    if not isinstance(doc, dict) or "tolerance" not in doc:
        raise ServiceError(f"{target} is not a refarch validation plan's {THRESHOLDS}")
    return doc


def _check_folder(folder: Path, force: bool) -> None:
    if folder.exists() and not folder.is_dir():
        raise ServiceError(f"{folder} is a file; name a folder for the plan")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise ServiceError(f"{folder} is not empty; name an empty folder or add --force")


def _hosts(r: SizingResult) -> str:
    return "".join(f"sdw{i}\n" for i in range(1, r.design.segment_hosts + 1))


def _data_dirs(r: SizingResult) -> list[str]:
    """One directory per data volume: per drive without RAID, one volume otherwise (edit to the mount points)."""
    n = r.design.data_drives_per_host if r.design.raid in ("none", "jbod") else 1
    return [f"/data{i}/gpcheckperf" for i in range(1, max(n, 1) + 1)]


def _gpcheckperf(r: SizingResult) -> str:
    dirs, name = " ".join(f"-d {d}" for d in _data_dirs(r)), one_line(r.scenario_name)  # a comment's one line
    return f"""#!/bin/sh
# Validation plan for {name}: run as gpadmin on the coordinator, with GPHOME set and the keys exchanged
# (gpssh-exkeys -f hosts/segment_hosts). Edit the data directories to the hosts' data mount points.
set -e
cd "$(dirname "$0")"
HOSTS=hosts/segment_hosts
# disk write and read on every data directory at once (file size 2 x memory), per host (-D)
gpcheckperf -f $HOSTS -r d -D {dirs} > results/gpcheckperf_disk.txt 2>&1
# memory bandwidth (stream), per host
gpcheckperf -f $HOSTS -r s -D -d /tmp > results/gpcheckperf_stream.txt 2>&1
# network: pairs in parallel (bisection), then every host to every other (full matrix), 60 s each
gpcheckperf -f $HOSTS -r N --duration 60 -d /tmp > results/gpcheckperf_network.txt 2>&1
gpcheckperf -f $HOSTS -r M --duration 60 -d /tmp > results/gpcheckperf_matrix.txt 2>&1
echo "now: refarch measure import results/* --name <profile> --plan ."
"""


def sweep_clients(clients: float) -> list[int]:
    """Client counts from 1 by doubling to past twice the design's, with the design's own count among them."""
    out, c = [], 1
    while c <= 4 * clients:
        out.append(c)
        c *= 2
    return sorted({*out, int(clients)})


def _pgbench(oltp: dict[str, Any]) -> str:
    builtin = oltp.get("pgbench_builtin")
    script = f"-b {builtin}" if builtin else "-f insert.sql  # write the mix's script: pgbench has no builtin"
    counts = " ".join(map(str, sweep_clients(float(oltp["clients"]))))
    return f"""#!/bin/sh
# The {oltp['mix']} sweep: 5 minutes at each client count, progress every 10 s; every run is appended to one file,
# which `refarch measure import` reads as a sweep. Set PGDATABASE (and PGHOST/PGPORT/PGUSER) to the cluster.
set -e
cd "$(dirname "$0")"
: "${{PGDATABASE:?set PGDATABASE to the benchmark database}}"
: > results/pgbench_sweep.txt
for c in {counts}; do
  j=$(( c < 16 ? c : 16 ))
  pgbench -n {script} -c "$c" -j "$j" -T 300 -P 10 >> results/pgbench_sweep.txt 2>&1
done
"""


def _readme(s: Scenario, r: SizingResult, plan: dict[str, Any]) -> str:
    tol = plan["tolerance"]
    rows = []
    for key, mb in plan["per_host_mb_s"].items():
        rows.append(f"| {key.replace('_', ' ')} per host | {mb:,.0f} MB/s ({gpcheckperf_mib_s(mb):,.0f} in "
                    f"gpcheckperf's MB/s) | model: {r.design.data_drives_per_host} data drives x datasheet x "
                    f"drive efficiency x RAID factor | slowest host >= {tol:g} x |")
    if plan["link_mb_s"] is not None:
        mb = plan["link_mb_s"]
        rows.append(f"| network per link | {mb:,.0f} MB/s ({gpcheckperf_mib_s(mb):,.0f} in gpcheckperf's MB/s) | "
                    f"one port's line rate | median link >= {tol:g} x |")
    rows.append(f"| uniformity | every host and link | gpcheckperf's own rule | >= {tol:g} x the fastest |")
    if "oltp" in plan:
        o = plan["oltp"]
        rows.append(f"| {o['mix']} TPS at {o['clients']:g} clients | P10 {o['tps_p10']:,.0f} / P50 "
                    f"{o['tps_p50']:,.0f} / P90 {o['tps_p90']:,.0f} | the design's estimate | >= P10 |")
    table = "\n".join(["| what | threshold | the design's assumption | passes when |", "|---|---|---|---|", *rows])
    return f"""# Validation plan: {one_line(s.name)}

The design ({r.design.segment_hosts} segment hosts of {r.design.server_id}, {r.design.data_drives_per_host} data
drives each) rests on the rates below. Measure them on the delivered hosts before go-live; each threshold is the
model's own figure for this design, so a passing measurement confirms the assumption it was sized on.

{table}

gpcheckperf prints MB/s as 2^20 bytes a second; refarch converts. A rate within {tol:g} x of its threshold passes
(the tolerance refarch uses when it sizes on measurements).

## Steps
1. Put the real host names in `hosts/segment_hosts` and the data mount points in `gpcheckperf.sh`.
2. Run `./gpcheckperf.sh`{' and `./pgbench_sweep.sh`' if 'oltp' in plan else ''} (results go to `results/`).
3. `refarch measure import results/* --name <profile> --server {r.design.server_id} --plan .` stores them and
   prints each check; `refarch size` with `platform.measurements: ["<profile>"]` then sizes on what was measured.
"""

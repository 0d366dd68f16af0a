"""The current estate, right-sized: VMs as an export observed them become the databases of a consolidation.

Each powered-on VM becomes one database whose figures are what it used, not what it was given:

- size: the storage it uses (RVTools' In Use);
- working set: the memory it used (active, else consumed) times the comfort factor;
- CPU: the MHz it used, in cores of its host (MHz / the host's core clock), scaled to cores of the target
  processor by their SPECrate2017_int_base per core (`resources/benchmarks/specrate2017_int.json`), times the
  comfort factor, rounded up; expressed as the peak clients study 001 runs on that many vCPUs (the rule
  `pg_clients_per_vcpu`), since the consolidation sizes a VM's vCPUs from its clients.

A VM whose CPU or memory use was not observed keeps what it was configured with, and the notes say so.

>>> vm = ObservedVm("erp", vcpus=8, memory_gib=32, in_use_gb=400, cpu_used_mhz=4800, memory_used_gib=12,
...                 cpu_model="Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", core_mhz=2400, cores_per_socket=14)
>>> sized = right_size(vm, RightSizing(comfort=1.25))  # no target processor: cores for cores
>>> sized.vcpus, sized.database["working_set_gb"], sized.database["peak_clients"]
(3, 16.106, 30)
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from models.calibration_data import figure

GB_PER_GIB = 2**30 / 1e9
RULES = "sizing_rules"  # the clients a consolidation runs per vCPU, the rule the PostgreSQL sizing reads too
BENCHMARK_FILE = "specrate2017_int.json"


@dataclass(frozen=True)
class ObservedVm:
    """One VM as the export shows it; None where the export has no figure."""

    name: str
    vcpus: int
    memory_gib: float
    in_use_gb: float
    cpu_used_mhz: float | None = None
    memory_used_gib: float | None = None
    cpu_model: str = ""
    core_mhz: float | None = None  # the host processor's clock, MHz per core
    cores_per_socket: float | None = None
    iops: float | None = None  # I/O operations per second it ran (Live Optics), for the report


@dataclass(frozen=True)
class RightSizing:
    """How observed use becomes a size: the comfort factor over it, and the processor it moves to."""

    comfort: float = 1.2
    target_cpu: str = ""  # a processor of the benchmark table; empty: a core is a core
    target_cores_per_socket: int | None = None
    source: str = ""  # "RVTools export FILE", for the report


@dataclass(frozen=True)
class RightSized:
    database: dict[str, Any]  # a `PgDatabase` as JSON, with its `current` VM
    vcpus: int
    notes: tuple[str, ...]


def cpu_key(name: str) -> str:
    """A processor name as the benchmark table is keyed: no (R)/(TM), clock, 'CPU', vendor or punctuation.

    >>> cpu_key("Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz"), cpu_key("AMD EPYC 9354P 32-Core Processor")
    ('xeon gold 6130', 'epyc 9354p')
    """
    s = name.lower()
    s = re.sub(r"\(r\)|\(tm\)|®|™", " ", s)
    s = re.sub(r"@?\s*[\d.]+\s*[gm]hz", " ", s)
    s = re.sub(r"\b\d+-core\b|\bprocessor\b|\bcpu\b|\bintel\b|\bamd\b", " ", s)
    s = re.sub(r"[(),]", " ", s)
    return " ".join(s.split())


@cache
def _scores() -> dict[str, float]:
    data = json.loads((resources.files("resources") / "benchmarks" / BENCHMARK_FILE).read_text(encoding="utf-8"))
    return {cpu_key(row["cpu"]): float(row["specrate2017_int_base_per_socket"]) for row in data["scores"]}


def socket_score(cpu: str) -> float | None:
    """SPECrate2017_int_base per socket of a processor, None when the table has not got it."""
    return _scores().get(cpu_key(cpu))


def _cpu_ratio(vm: ObservedVm, how: RightSizing) -> tuple[float, str]:
    """Target cores per source core of work, and why (1.0 where a score or a core count is missing)."""
    if not how.target_cpu:
        return 1.0, "no target processor given: a core of the current hosts counts as a core of the new"
    source, target = socket_score(vm.cpu_model), socket_score(how.target_cpu)
    if source is None or target is None or not vm.cores_per_socket or not how.target_cores_per_socket:
        missing = vm.cpu_model if source is None else how.target_cpu if target is None else "the cores per socket"
        return 1.0, f"no SPECrate2017_int_base score for {missing or 'the current processor'}: a core counts as a core"
    per_core_source = source / vm.cores_per_socket
    per_core_target = target / how.target_cores_per_socket
    return per_core_source / per_core_target, (
        f"{vm.cpu_model} {per_core_source:.2f} and {how.target_cpu} {per_core_target:.2f} SPECrate2017_int_base"
        " per core")


def right_size(vm: ObservedVm, how: RightSizing) -> RightSized:
    """The database of one observed VM (see the module text)."""
    notes: list[str] = []
    ratio, why = _cpu_ratio(vm, how)
    if vm.cpu_used_mhz is None or not vm.core_mhz:
        vcpus = vm.vcpus
        why_kept = "CPU use not observed" if vm.cpu_used_mhz is None else (
            f"CPU use observed ({vm.cpu_used_mhz:,.0f} MHz) but not the clock of its host's cores (the export"
            " has no row for its host)")
        notes.append(f"{vm.name}: {why_kept}, kept its {vm.vcpus} vCPUs")
    else:
        busy_cores = vm.cpu_used_mhz / vm.core_mhz
        vcpus = max(1, math.ceil(busy_cores * ratio * how.comfort - 1e-9))
    if vm.memory_used_gib is None:
        used_gib = vm.memory_gib
        notes.append(f"{vm.name}: memory use not observed, its {vm.memory_gib:g} GiB taken as the working set")
    else:
        used_gib = max(vm.memory_used_gib * how.comfort, 0.1)
    current: dict[str, Any] = {"vcpus": vm.vcpus, "memory_gib": vm.memory_gib, "cpu_used_mhz": vm.cpu_used_mhz,
                               "memory_used_gib": vm.memory_used_gib, "iops": vm.iops, "cpu_model": vm.cpu_model[:200],
                               "source": how.source[:300], "cpu_basis": why[:300]}
    database = {"name": vm.name, "size_gb": round(max(vm.in_use_gb, 0.001), 3),
                "peak_clients": math.ceil(vcpus * figure(RULES, "pg_clients_per_vcpu") - 1e-9),
                "working_set_gb": round(used_gib * GB_PER_GIB, 3), "current": current}
    return RightSized(database, vcpus, tuple(notes))

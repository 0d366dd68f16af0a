"""The full-scan roofline at many host counts for one set of designs: what a host-count search asks for.

`FullScan` computes what the host count does not change (drive and CPU rates, virtualization) once and answers
`seconds(hosts)` with the few operations that depend on it; `models.perf.scan_load.full_scan_seconds` is the
model, and the kernel gives its numbers bit for bit (tests/models/sizing/greenplum/fast/test_scan.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from models.perf.scan_load import (
    MB_PER_TB,
    ClusterShape,
    RooflineResult,
    ScanParams,
    as_array,
    drive_read_rate,
    host_free_rates,
    network_rate,
    roofline_result,
    scan_cpu_rate,
    scan_network_rate,
    virt_factor,
)

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class FullScan:
    """`full_scan_seconds` of a set of designs at any host counts, with the cost of everything the host count
    does not change (drives, CPU, virtualization) paid once: a host-count search asks for many counts.

    `shape` is the designs' (their `segment_hosts` unused); `seconds(hosts, idx)` equals
    `full_scan_seconds(shape at those hosts, taken at idx).seconds` exactly.
    """

    shape: ClusterShape
    data_on_disk_tb: float
    params: ScanParams
    virt: FloatArray
    drives_cpu: FloatArray  # min(drives, cpu) per design
    drives: FloatArray
    cpu: FloatArray
    # per design: the network rate stays at or above min(drives, cpu) at every host count, so `seconds` skips it
    network_never_binds: BoolArray

    @classmethod
    def of(cls, shape: ClusterShape, data_on_disk_tb: float, params: ScanParams,
           groups: tuple[IntArray, IntArray] | None = None) -> FullScan:
        """The kernel of `shape`'s designs. `groups`: (one design of each group sharing every input of the CPU
        rate, the virtualization and the line rate, each design's group), e.g. the candidates of one server, drive
        count and deployment: those rates are computed once per group (the same arithmetic, element by element)."""
        if groups is None:
            virt, drives, cpu = host_free_rates(shape, as_array(shape.primary_segments_per_host),
                                                 params.virt_overhead_seq, params)
            drives_cpu = np.minimum(drives, cpu)
            never = np.asarray(drives_cpu <= _network_floor(shape, virt, params))
        else:
            rep, which = groups
            # one design of each group, in the fields the group's rates read (the others, never read, as they are)
            one = replace(shape, **{name: (v[rep] if isinstance(v := getattr(shape, name), np.ndarray) and v.ndim
                                           else v) for name in _GROUP_FIELDS})
            virt_g = virt_factor(one, params.virt_overhead_seq)
            cpu_g = scan_cpu_rate(one, as_array(one.primary_segments_per_host), virt_g, params)
            floor_g = _network_floor(one, virt_g, params)
            # the virtualization factor by its own two operations per design (a group shares their inputs: the
            # same bits), cheaper than gathering it; the CPU rate is then the one gather where the interconnect is
            # at least as fast as every group's CPU: min(drives, cpu) <= cpu <= the floor wherever it is a number
            virt, cpu = virt_factor(shape, params.virt_overhead_seq), cpu_g[which]
            drives = drive_read_rate(shape, virt, params)
            drives_cpu = np.minimum(drives, cpu)
            never = drives_cpu == drives_cpu if np.all(cpu_g <= floor_g) else drives_cpu <= floor_g[which]
        return cls(shape, data_on_disk_tb, params, virt, drives_cpu, drives, cpu, never)

    def result(self, hosts: ArrayLike) -> RooflineResult:
        """`full_scan_seconds(shape at hosts)` of every design, the same result (binding rates included)."""
        h = as_array(hosts)
        network = scan_network_rate(self.shape, h, self.virt, self.params)
        rates = (self.drives, self.cpu, network, np.full_like(self.cpu, np.inf))
        host = np.minimum(self.drives_cpu, network)
        out = roofline_result(as_array(self.data_on_disk_tb) * MB_PER_TB / h / host, "s", rates, host)
        if np.all(self.network_never_binds) and np.shape(self.cpu) == np.shape(host):
            # neither NaN (min(drives, cpu) <= the network's floor holds) nor an interconnect that can win: the
            # first of drives and CPU binds, as `first_min` finds it
            out.__dict__["binding"] = (self.cpu < self.drives).astype(np.intp)  # the cached property's value
        return out

    def point(self, hosts: ArrayLike, seconds: FloatArray | None = None, codes: type = np.intp
              ) -> tuple[FloatArray, NDArray[Any]]:
        """`result(hosts)`'s seconds and binding codes alone. Where the interconnect binds at no host count for any
        design, its rate is not computed: the minimum is min(drives, cpu) bit for bit, and the first of the two
        binds (as `result` finds it), its codes made `codes` (e.g. float, for a caller that wants them so: one cast,
        not two). `seconds`: `seconds(hosts)`, when the caller has them (a host search ends with them), taken as
        they are there."""
        if np.all(self.network_never_binds) and np.shape(self.cpu) == np.shape(hosts):
            return self.seconds(hosts) if seconds is None else seconds, (self.cpu < self.drives).astype(codes)
        out = self.result(hosts)
        return out.seconds, out.binding

    def seconds(self, hosts: ArrayLike, idx: IntArray | None = None) -> FloatArray:
        h = as_array(hosts)
        drives_cpu, never = np.broadcast_arrays(self.drives_cpu, self.network_never_binds)
        if idx is not None:
            drives_cpu, never = drives_cpu[idx], never[idx]
        seconds: FloatArray = as_array(self.data_on_disk_tb) * MB_PER_TB / h / drives_cpu
        if never.all():
            return seconds
        if np.shape(seconds) != never.shape:
            return self._with_network(h, idx)
        rows = np.flatnonzero(~never)  # where the network can bind: the full arithmetic on these rows only
        seconds[rows] = self._with_network(np.broadcast_to(h, never.shape)[rows],
                                           rows if idx is None else np.asarray(idx)[rows])
        return seconds

    def _with_network(self, h: FloatArray, idx: IntArray | None) -> FloatArray:
        virt, drives_cpu = np.broadcast_arrays(self.virt, self.drives_cpu)
        line = np.broadcast_to(as_array(self.shape.network_gbps_per_host), drives_cpu.shape)
        if idx is not None:
            virt, drives_cpu, line = virt[idx], drives_cpu[idx], line[idx]
        network = scan_network_rate(replace(self.shape, network_gbps_per_host=line), h, virt, self.params)
        seconds: FloatArray = as_array(self.data_on_disk_tb) * MB_PER_TB / h / np.minimum(drives_cpu, network)
        return seconds


# what `virt_factor`, `scan_cpu_rate` and `_network_floor` read of a shape: the inputs a group of designs shares
_GROUP_FIELDS = ("virtualized", "cores_per_host", "cpu_generation", "core_speed", "numa_local", "compression_ratio",
                 "primary_segments_per_host", "network_gbps_per_host")


def _network_floor(shape: ClusterShape, virt: FloatArray, params: ScanParams) -> FloatArray:
    """The lowest interconnect rate of a scan at any host count (NaN where no such bound holds).

    The network rate falls with the host count toward its rate at a cross-host share of 1; computed in floating
    point the same way, (H-1)/H rounds to at most 1 and each step is monotone, so no host count gives a lower rate
    than this. Where min(drives, cpu) is at or below it, the minimum is min(drives, cpu), bit for bit. (A negative
    line rate would turn the bound around: such a design gets NaN, and the full arithmetic.)
    """
    floor = network_rate(shape, as_array(params.motion_fraction) * 1.0 * as_array(shape.compression_ratio)) / virt
    return np.where(as_array(shape.network_gbps_per_host) >= 0, floor, np.nan)

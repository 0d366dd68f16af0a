"""The share of its hard disks' streaming rate a scan gets where several instances' streams share a spindle.

The scan model (`models.perf.scan_load`) streams every data drive at its datasheet rate (times its RAID factor and
the fitted drive efficiency), as the calibration counted study 000's 16 disks under its 8 primaries. On a hard disk
each request served for another stream costs a head positioning, the datasheet's random-read time 1 / IOPS, between
runs of one read-ahead (16,384 sectors, study 000's blockdev setting) split over the volume's spindles (a RAID
volume stripes every request over all of them): the disk streams run / (run + positioning x rate) of its rate.
Without RAID the primaries per volume share its disk; on a RAID volume every primary's stream reaches every spindle.
Flash has no head to position. Study 000's own advice is the same physics: "a single partition per data disk ... to
reduce randomization of sequential I/O streams".

The studies' calibrated shapes run one stream per disk or fewer, so the fit is unchanged (share 1), and so do
designs on hard disks without RAID (one primary per spindle, `volumes.per_drive`) for one scan. Reports running at
once each read their own stream from every disk, so the queries/h estimate counts their streams together
(`Spindles.concurrent_factor`): one primary per spindle still pays a positioning per run once two reports run.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.calibration_data import figure
from models.sizing.greenplum.candidates import Candidates
from models.sizing.greenplum.volumes import data_volumes
from models.vocabulary import raid_code

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
GP000 = "gp_vsphere_000"
BYTES_PER_SECTOR = 512.0  # the unit blockdev --setra counts in
BYTES_PER_MB = 1e6


def readahead_mb() -> float:
    """The run a scan reads from one volume per request: study 000's read-ahead, in MB."""
    return figure(GP000, "data_disk_readahead_sectors") * BYTES_PER_SECTOR / BYTES_PER_MB


def streaming_share(streams: FloatArray, run_mb: FloatArray, seq_mb_s: FloatArray, random_iops: FloatArray
                    ) -> FloatArray:
    """The share of its sequential rate a hard disk keeps serving `streams` interleaved sequential streams, each
    request a run of `run_mb` followed by a head positioning (1 / `random_iops`) for the next stream; 1 for one stream.

    >>> streaming_share(np.array([1.0, 2.0, 8.0]), np.array([8.4, 8.4, 1.2]), np.full(3, 200.0), np.full(3, 300.0)
    ...                 ).round(3).tolist()
    [1.0, 0.926, 0.643]
    """
    transfer_s = run_mb / seq_mb_s
    share: FloatArray = np.where(streams > 1.0, transfer_s / (transfer_s + 1.0 / random_iops), 1.0)
    return share


@dataclass(frozen=True)
class Spindles:
    """Per candidate, what the streams on its hard disks depend on (`spindles`): one report's streams per disk, the
    run each request reads, the disk's sequential rate and random-read IOPS, and whether it spins."""

    streams: FloatArray
    run_mb: FloatArray
    seq_mb_s: FloatArray
    iops: FloatArray
    spinning: NDArray[np.bool_]

    def share(self, reports: FloatArray | float = 1.0) -> FloatArray:
        """The share of its disks' rate a scan keeps while `reports` run at once: their streams interleave on the
        same disks, `reports` x one report's streams per disk (1 on flash)."""
        many = self.streams * np.maximum(np.asarray(reports, dtype=float), 1.0)
        out: FloatArray = np.where(self.spinning, streaming_share(many, self.run_mb, self.seq_mb_s, self.iops), 1.0)
        return out

    def concurrent_factor(self, reports: FloatArray | float) -> FloatArray:
        """The share `reports` concurrent reports keep relative to one report's (what `scan_share` already counts):
        one stream per disk streams at full rate, several pay a head positioning per run, however many they are.
        Below: one primary per hard disk, alone and with 20 reports; flash; two primaries per hard disk.

        >>> s = Spindles(np.array([1.0, 1.0, 1.0, 2.0]), np.full(4, 8.4), np.full(4, 200.0), np.full(4, 300.0),
        ...              np.array([True, True, False, True]))
        >>> s.concurrent_factor(np.array([1.0, 20.0, 20.0, 20.0])).round(3).tolist()
        [1.0, 0.926, 1.0, 1.0]
        """
        out: FloatArray = self.share(reports) / self.share(1.0)
        return out

    def take(self, idx: IntArray) -> Spindles:
        return Spindles(self.streams[idx], self.run_mb[idx], self.seq_mb_s[idx], self.iops[idx], self.spinning[idx])


def spindles(c: Candidates, primaries: IntArray, vms: IntArray) -> Spindles | None:
    """The candidates' disk streams (see the module); None where no candidate has a hard disk."""
    spinning = c.spinning
    if not np.any(spinning):
        return None
    drives = c.drives_per_host // vms
    unit = primaries // vms
    raid = c.raid_code != raid_code("none")
    volumes = data_volumes(drives, c.raid_code)
    streams = np.where(raid, unit, unit / np.maximum(volumes, 1)).astype(float)
    run_mb = readahead_mb() / np.where(raid, np.maximum(drives, 1), 1)
    return Spindles(streams, run_mb, c.seq_read_mb_s, c.drive_random_read_iops, spinning)


def scan_share(c: Candidates, primaries: IntArray, vms: IntArray) -> FloatArray | None:
    """Per candidate, the share of its data drives' streaming rate a scan of its primaries gets (see the module);
    None where every candidate gets all of it (flash, or one stream per hard disk)."""
    s = spindles(c, primaries, vms)
    if s is None or not np.any(s.spinning & (s.streams > 1.0)):
        return None
    return s.share()

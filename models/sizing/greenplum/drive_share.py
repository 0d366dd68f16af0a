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
designs on hard disks without RAID (one primary per spindle, `volumes.per_drive`).
"""

from __future__ import annotations

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


def scan_share(c: Candidates, primaries: IntArray, vms: IntArray) -> FloatArray | None:
    """Per candidate, the share of its data drives' streaming rate a scan of its primaries gets (see the module);
    None where every candidate gets all of it (flash, or one stream per hard disk)."""
    spinning = c.spinning
    if not np.any(spinning):
        return None
    drives = c.drives_per_host // vms
    unit = primaries // vms
    raid = c.raid_code != raid_code("none")
    volumes = data_volumes(drives, c.raid_code)
    streams = np.where(raid, unit, unit / np.maximum(volumes, 1)).astype(float)
    if not np.any(spinning & (streams > 1.0)):
        return None
    run_mb = readahead_mb() / np.where(raid, np.maximum(drives, 1), 1)
    disk = streaming_share(streams, run_mb, c.seq_read_mb_s, c.drive_random_read_iops)
    share: FloatArray = np.where(spinning, disk, 1.0)
    return share

"""`segments.host_layouts` of a chunk of candidates, read off the templates it was assembled from.

A chunk holds each server's rows in one piece, in server order, so its host layouts (server, drive count,
deployment, RAID level) are each piece's template layouts in turn, those present where the piece is cut: no key over
the chunk's rows to build and look up. The plain function is `segments.host_layouts`; `chunk_layouts` gives its
result (or None alike) bit for bit (tests/models/sizing/greenplum/fast/test_layouts.py).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from models.sizing.greenplum.candidates import Piece, Template
from models.sizing.greenplum.segments import HostLayouts

IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class TemplateLayouts:
    """A template's host layouts (`segments.host_layouts` of one server's rows): each row's, numbered in (drive
    count, virtualized, RAID code) order, each layout's last row, and each layout's (drive count, virtualized, RAID
    code)."""

    group: IntArray  # m
    last: IntArray  # layouts
    layout: IntArray  # 3 x layouts
    bounds: tuple[int, int, int]  # the most drives per host, the highest and the lowest RAID code
    # each layout's first row and the rows between its rows: a layout holds one row per fitting drive, evenly spaced
    # (its (deployment, RAID) block lists the drives in turn, each with the same valid counts)
    first: IntArray  # layouts
    step: IntArray  # layouts

    @property
    def size(self) -> int:
        return int(self.group.size)


@functools.lru_cache(maxsize=1024)
def template_layouts(template: Template) -> TemplateLayouts:
    """A template's host layouts, found once per template (a search holds a few dozen), numbered in
    (drive count, virtualized, RAID code) order as host_layouts's key orders them: by a direct table over that key
    (RAID codes are positions in RAID_LEVELS, never negative), no sort."""
    counts, virt, codes = template.ints[1], template.virtualized, template.ints[2]
    code_n = int(codes.max()) + 1
    key = (counts * 2 + virt) * code_n + codes
    table = np.full(int(key.max()) + 1, -1, dtype=np.int64)
    table[key] = np.arange(key.size)  # the last write stays: each layout's last row
    present = np.flatnonzero(table >= 0)
    slot = np.zeros(table.size, dtype=np.int64)
    slot[present] = np.arange(present.size)
    layout = np.stack([present // code_n // 2, present // code_n % 2, present % code_n])
    last = table[present]
    table[key[::-1]] = np.arange(key.size - 1, -1, -1)  # the last write stays: each layout's first row
    first = table[present]
    step = np.maximum((last - first) // max(key.size // present.size - 1, 1), 1)  # 1 where a layout has one row
    out = TemplateLayouts(slot[key], last, layout, (int(counts.max()), code_n - 1, int(codes.min())), first, step)
    for a in (out.group, out.last, out.layout, out.first, out.step):
        a.flags.writeable = False  # shared by every chunk the template's rows fall in
    return out


def chunk_layouts(pieces: Sequence[Piece], rows: int) -> HostLayouts | None:
    """`segments.host_layouts` of the candidates `Tables.assemble` builds of `pieces` (`rows` in all), read off the
    templates, or None where host_layouts finds that grouping would not save work (its tests, on the same numbers).

    A chunk holds each server's rows in one piece, in server order, so its groups (server, drive count, deployment,
    RAID level) are each piece's template layouts in turn, those present where the piece is cut: no key over the
    chunk's rows to build and look up. Each group's row is its last, as host_layouts's table keeps it."""
    if rows < 256 or not pieces:
        return None
    which = np.empty(rows, dtype=np.int64)
    reps = []
    at = groups = count_top = code_top = 0
    code_low = sys.maxsize
    for _, template, start, stop in pieces:
        end = at + stop - start
        layout, last, (count_max, code_max, code_min) = _piece_groups(template_layouts(template), start, stop,
                                                                      which[at:end], groups)
        reps.append(last + at)
        count_top, code_top, code_low = max(count_top, count_max), max(code_top, code_max), min(code_low, code_min)
        groups += last.size
        at = end
    if groups * 4 > rows or code_low < 0:
        return None
    # the size of host_layouts's key table: one past the key of the last server's last layout (layouts are numbered
    # in key order)
    span = pieces[-1][0] - pieces[0][0]
    if (((span * (count_top + 1) + int(layout[0, -1])) * 2 + int(layout[1, -1])) * (code_top + 1)
            + int(layout[2, -1]) + 1 > 4 * rows):
        return None
    return HostLayouts(np.concatenate(reps), which)


def _piece_groups(template: TemplateLayouts, start: int, stop: int, out: IntArray, base: int
                  ) -> tuple[IntArray, IntArray, tuple[int, int, int]]:
    """Writes into `out` the group (numbered from `base`) of each of template rows [start, stop); returns the template
    layouts present (3 x layouts, in key order), each one's last row (counted from `start`) and (the most drives, the
    highest and the lowest RAID code) among them."""
    if start == 0 and stop == template.size:  # a whole template: its layouts as they are
        np.add(template.group, base, out=out)
        return template.layout, template.last, template.bounds
    local = template.group[start:stop]
    # each layout's last row before `stop`, from its evenly spaced rows: present where that row is at `start` or after
    k = np.minimum((stop - 1 - template.first) // template.step, template.size // template.last.size - 1)
    rows = template.first + k * template.step
    here = (k >= 0) & (rows >= start)
    ids = np.flatnonzero(here)
    if ids.size == here.size:  # every layout present: numbered as in the template
        np.add(local, base, out=out)
        layout = template.layout
    else:
        slot = np.zeros(here.size, dtype=np.int64)
        slot[ids] = np.arange(ids.size)
        np.add(slot[local], base, out=out)
        layout = template.layout[:, ids]
    return layout, rows[ids] - start, (int(layout[0, -1]), int(layout[2].max()), int(layout[2].min()))

"""The report's table of the current estate: each VM as an export observed it, beside the VM the design gives it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reportlab.platypus import Flowable, Spacer

from app.export.pdf_blocks import Ctx
from app.formatting import number
from models.scenario import PostgresConsolidation
from models.sizing.result import SizingResult


def estate_rows(w: PostgresConsolidation, r: SizingResult) -> list[list[str]]:
    """One row per database that has a current VM: name, vCPU and memory today, what it used, and the design's VM
    (marked "shared" where the design puts several databases in one VM)."""
    vm_of = {name: vm for vm in r.vms for name in vm.databases}
    rows = []
    for db in w.databases:
        now = db.current
        if now is None:
            continue
        vm = vm_of.get(db.name)
        shared = " (shared)" if vm is not None and len(vm.databases) > 1 else ""
        rows.append([db.name, str(now.vcpus), number(now.memory_gib),
                     number(now.cpu_used_mhz) if now.cpu_used_mhz is not None else "not observed",
                     number(now.memory_used_gib) if now.memory_used_gib is not None else "not observed",
                     f"{vm.vcpus}{shared}" if vm is not None else "–",
                     f"{number(vm.memory_gib)}{shared}" if vm is not None else "–"])
    return rows


def estate_section(ctx: Ctx, w: PostgresConsolidation, r: SizingResult) -> list[Flowable]:
    rows = estate_rows(w, r)
    if not rows:
        return []
    note = ""
    if len(rows) > LISTED_IN_FULL:  # the most vCPUs today first: where right-sizing moves the most
        total_now = sum(int(row[1]) for row in rows)
        note = (f" {len(rows):,} VMs with {total_now:,} vCPUs today; the {LISTED_IN_FULL // 2} with the most vCPUs"
                " follow, every VM's figures are in the scenario file.")
        rows = sorted(rows, key=lambda row: -int(row[1]))[:LISTED_IN_FULL // 2]
    sources = sorted({db.current.source for db in w.databases if db.current is not None and db.current.source})
    bases = sorted({db.current.cpu_basis for db in w.databases if db.current is not None and db.current.cpu_basis})
    if 0 < len(bases) <= 3:  # a few rules for the whole estate: say them; each VM's is in the scenario file
        note += " CPU use carried over to the new processor: " + "; ".join(bases) + "."
    observed = ", ".join(sources) or "the estate export"
    cw = ctx.width
    return [ctx.heading("Current VMs, as they are and right-sized", 1),
            ctx.p(f"As observed in {observed}: the vCPUs and memory each VM has today and what it used,"
                  " beside the VM this design gives it (sized from the use, with the comfort factor of the import)."
                  + note,
                  ctx.styles.body),
            Spacer(1, 4),
            ctx.grid(["VM", "vCPU today", "Memory today (GiB)", "CPU used (MHz)", "Memory used (GiB)",
                      "vCPU right-sized", "Memory right-sized (GiB)"], rows,
                     [cw * 0.2, cw * 0.1, cw * 0.13, cw * 0.13, cw * 0.14, cw * 0.14, cw * 0.16],
                     numeric=(1, 2, 3, 4, 5, 6))]


LISTED_IN_FULL = 60  # databases listed one by one; beyond, the largest and the totals (the file has them all)


def database_table(ctx: Ctx, w: PostgresConsolidation, tps: Sequence[str],
                   carried: Mapping[str, str] | None = None) -> list[Flowable]:
    """The databases, one row each (`tps`: each one's peak TPS as shown; `carried`: what the design's VM carries for
    it, P10-P90 and what binds, by database name); an estate of more than LISTED_IN_FULL: its totals and its largest,
    the full list being in the scenario file."""
    indexed = list(enumerate(w.databases))
    shown = indexed if len(indexed) <= LISTED_IN_FULL else sorted(
        indexed, key=lambda item: -item[1].size_gb)[:LISTED_IN_FULL // 2]
    carried = carried or {}
    rows = [[db.name, number(db.size_gb), str(db.peak_clients), number(db.working_set_gb), tps[i],
             carried.get(db.name, "-")] for i, db in shown]
    cw = ctx.width
    out: list[Flowable] = [Spacer(1, 6)]
    if len(shown) < len(indexed):
        dbs = w.databases
        clients = sum(d.peak_clients for d in dbs)
        size, working = number(sum(d.size_gb for d in dbs)), number(sum(d.working_set_gb for d in dbs))
        out.append(ctx.p(
            f"{len(dbs):,} databases: {size} GB in all, {clients:,} peak clients, {working} GB of working sets. The"
            f" {len(shown)} largest follow; every database is in the scenario file.", ctx.styles.body))
    out.append(ctx.grid(["Database", "Size (GB)", "Peak clients", "Working set (GB)", "Peak TPS",
                         "Its VM carries (TPS, P10-P90)"], rows,
                        [cw * 0.2, cw * 0.1, cw * 0.1, cw * 0.13, cw * 0.17, cw * 0.3], numeric=(1, 2, 3, 4)))
    return out

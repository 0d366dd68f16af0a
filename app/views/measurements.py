"""A measurement profile as text lines, for `refarch measure show` and the window's Measurements page.

The document is `app.services.measurements.profile_document`; the caller passes its table formatter (the CLI's
aligned columns), so the lines are the same wherever they are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from app.formatting import DASH, number, significant

Table = Callable[[Sequence[Mapping[str, Any]], Sequence[str]], str]


def plain_table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Columns aligned with spaces under a dashed rule (what the window shows in a fixed-width font)."""
    cells = [[DASH if r.get(c) is None else str(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c), *(len(row[i]) for row in cells)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines)


def profile_lines(doc: dict[str, Any], format_table: Table = plain_table) -> list[str]:
    """The `measure show` table text of a profile document."""
    out = [f"measurement profile {doc['name']}" + (f" (server {doc['server']})" if doc["server"] else ""),
           f"hosts: {', '.join(doc['hosts']) or 'not named in the files'}",
           "data drives per host: " + (f"{doc['data_drives_per_host']} x {doc['drive'] or '(drive not said)'}"
                                       if doc.get("data_drives_per_host") else
                                       "not said (disk rates are compared with the first design's drives)"), ""]
    out.append(format_table([{"file": f["file"], "kind": f["kind"],
                              "measured": (f["measured_at"] or "")[:19].replace("T", " "),
                              "imported": f["imported_at"][:19].replace("T", " ")} for f in doc["files"]],
                            ["file", "kind", "measured", "imported"]))
    if doc["per_host"]:
        out += ["", "per-host rates (MB/s; the design uses the slowest host's disk rates; memory is checked only)"]
        out.append(format_table([{"resource": k, "design": number(v["design_mb_s"], 4),
                                  "slowest host": v["slowest_host"], "fastest": number(v["fastest_mb_s"], 4),
                                  "mean": number(v["mean_mb_s"], 4), "hosts": v["hosts"] or "",
                                  "slow hosts": ", ".join(v["slow_hosts"])} for k, v in doc["per_host"].items()],
                                ["resource", "design", "slowest host", "fastest", "mean", "hosts", "slow hosts"]))
    net = doc["network"]
    if net:
        out += ["", f"network ({net['mode']}): {number(net['link_mb_s'], 4)} MB/s per link (median), slowest "
                    f"{number(net['slowest_link_mb_s'], 4)}"]
        out += [f"  no good (below 0.9 x the fastest): {link}" for link in net["no_good_links"]]
    for f in doc["files"]:
        if f.get("tps_rel_sd") is not None:
            lo, hi = f["interval_tps_p10_p90"]
            out += ["", f"{f['file']}: {number(f['tps'], 4)} TPS over {f['intervals']} intervals of "
                        f"{f['interval_s']} s; the whole intervals vary {100 * f['tps_rel_sd']:.1f} % (relative sd), "
                        f"P10-P90 {number(lo, 4)}-{number(hi, 4)} TPS",
                    "  a Greenplum OLTP fit on this profile takes that spread as its points' uncertainty"]
    for s in doc["sweeps"]:
        out += ["", f"{s['tool']} sweep, {s['mix']} ({s['unit']} at {', '.join(f'{c:g}' for c in s['clients'])} "
                    "clients)"]
        usl = s["usl"]
        if usl:
            out.append(f"  USL: lambda {number(usl['lambda'], 4)}, sigma {significant(usl['sigma'], 3)}, kappa "
                       f"{significant(usl['kappa'], 3)}; peak {number(usl['peak_throughput'], 4)} {s['unit']} at "
                       f"{significant(usl['peak_clients'], 4)} clients; r2 {significant(usl['r2'], 4)}, rms error "
                       f"{100 * usl['rms_relative_error']:.1f} %")
        if s["note"]:
            out.append(f"  note: {s['note']}")
        if s["tool"] == "hammerdb":
            out.append("  sizing: Greenplum OLTP (tpcb) and PostgreSQL compare TPM / 60 (the database's transactions "
                       "a second) with TPS, not NOPM")
    return out



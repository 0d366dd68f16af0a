"""What the engine used for each scenario field left empty, in words: the form's placeholders and the report's
workload tables.

The engine records the values it used (`SizingResult.values_used`, `models.sizing.values_used`); this module only
writes them down, with where a figure comes from by title, never a file name ("Recommend: 1 (from Distributed
Query Processing in SAP IQ ...)"). A field the design has no use for comes back as `NotUsed`, a value, so a
renderer asks `isinstance(..., NotUsed)` rather than reading the words.
"""

from __future__ import annotations

from app.formatting import dqp_mode
from models.references import reference_for
from models.sizing.result import NotUsed, SizingResult, UsedValue
from models.vocabulary import raid_label


def title_of(source: str) -> str:
    """The title of the document a reference ("study file, locator") names (`resources/references.json`), without
    its detail (the kind of document, "Performance Study"): a placeholder has little room."""
    found = reference_for(source)
    if found is None:
        return "the calibration data"  # never a file name in front of a user
    return found[0].title


def _num(v: float, unit: str = "") -> str:
    text = f"{v:,.3g}" if v < 1000 else f"{v:,.0f}"
    return f"{text} {unit}" if unit else text


def _value_text(u: UsedValue) -> str:
    v = u.value
    if isinstance(v, NotUsed):
        return v.text
    if isinstance(v, tuple):
        return f"{_num(v[0])}–{_num(v[1], u.unit)} (sized per VM)"
    if u.field == "platform.raid" and isinstance(v, str):
        return raid_label(v)
    if u.field == "workload.dqp_mode" and isinstance(v, str):
        return dqp_mode(v)
    if isinstance(v, str):
        return v
    if isinstance(v, int) and not u.unit:
        return str(v)  # a count
    return _num(v, u.unit)


def used_text(u: UsedValue) -> str:
    """One value as the form and the report show it: the figure with its unit and what it follows from, or the
    title of the document it was taken from; for a field the design has no use for, the words saying so."""
    if isinstance(u.value, NotUsed):
        return u.value.text
    text = _value_text(u)
    if u.basis:  # in brackets, unless the value ends in its own ("Type 2 (10-30 concurrent queries), from 20 ...")
        return f"{text}, {u.basis}" if text.endswith(")") else f"{text} ({u.basis})"
    if u.source:
        return f"{text} (from {title_of(u.source[0])})"
    return text


def used_figure(u: UsedValue) -> str:
    """The figure alone, for a table cell whose heading gives the unit ("1,234"); "" for a field not used."""
    if isinstance(u.value, NotUsed):
        return ""
    return _value_text(UsedValue(u.field, u.value))


def used_values(result: SizingResult) -> dict[str, UsedValue]:
    """Field path -> what the engine used, for every optional field the scenario left empty (and only those)."""
    return {u.field: u for u in result.values_used}


def estimated_tps_source() -> str:
    """Where an empty peak TPS comes from, by title: the throughput model's rate for the database's clients."""
    from models.sizing.postgres import cite, clients_per_vcpu

    study = title_of(cite("notpm_per_pcpu", "pg_tps_model"))
    return (f"the PostgreSQL throughput model's rate for its clients on the design's processor: the median CPU"
            f" rate of the vCPUs they take at {_num(clients_per_vcpu())} per vCPU ({study}'s rate per core, scaled by"
            " SPECrate2017_int_base per core and a factor fitted on published pgbench runs), the rate a stated peak"
            " TPS is sized on")


def estimated_tps_cites() -> tuple[str, str]:
    """The sources of that rate: the study's rate per core and the published runs the rate factor is fitted on."""
    from models.sizing.postgres import cite

    return cite("notpm_per_pcpu", "pg_tps_model"), cite("pgbench_rds_m5_4vcpu_100gb", "pg_published_runs")

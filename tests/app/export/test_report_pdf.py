"""The PDF report read back: sections, BOM lines, totals to the cent, TOC and comparison, text safety."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from pypdf import PdfReader

from app.export import bom_table, render_report
from app.export.bom import group_of
from app.export.engine_values import used_text, used_values
from models.hardware import HardwareCatalog
from models.release_words import role_label
from models.scenario import Scenario
from models.sizing.engine import size
from models.sizing.result import SizingResult
from models.tasks import Cancelled
from models.whatif import growth
from tests.app.export.conftest import SCENARIO_FILES, flat, long_pdf_text, pdf_text, sample_json, scenario_from

Sized = Callable[[str], tuple[Scenario, SizingResult]]

SECTIONS = ("Executive summary", "Workload and assumptions", "Design", "Roles and hosts", "Host layout",
            "Drives and RAID", "Network", "Bill of materials", "Cost and power", "Performance estimates",
            "Rationale", "Warnings", "Appendix: models and their fit")


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory, sized: Sized, catalog: HardwareCatalog) -> tuple[
        Path, Scenario, SizingResult, str]:
    s, r = sized("retail-dw-gen5.json")
    out = tmp_path_factory.mktemp("single") / "report.pdf"
    render_report([r], [s], out, growth=[growth(s, catalog, r)], report_date=date(2026, 3, 14))
    return out, s, r, pdf_text(out)


@pytest.fixture(scope="module")
def multi(tmp_path_factory: pytest.TempPathFactory, sized: Sized) -> tuple[Path, list[SizingResult], str]:
    pairs = [sized(n) for n in ("retail-dw-gen5.json", "retail-dw-dual-socket-sas.json", "study-000-vsphere.json")]
    out = tmp_path_factory.mktemp("multi") / "options.pdf"
    render_report([r for _, r in pairs], [s for s, _ in pairs], out)
    return out, [r for _, r in pairs], pdf_text(out)


def test_single_report_has_every_section(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    _, s, _, text = single
    for heading in SECTIONS:
        assert heading in text, heading
    assert s.name in text and s.customer in text and s.prepared_by in text
    assert "14 March 2026" in text
    assert "Contents" not in text  # a one-scenario report is short enough without a TOC


def test_single_report_lists_every_bom_part(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    _, _, r, text = single
    for line in r.bom:
        assert line.part_id in text, line.part_id
        assert f"{line.unit_price:,.2f}" in text


def test_bom_totals_are_those_of_size_to_the_cent(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    _, _, r, text = single
    cur = r.totals.currency
    for label, amount in (("One-time total (capex)", r.totals.capex),
                          ("Per-year total (subscriptions and support)", r.totals.recurring_per_year),
                          ("BOM total, first year", r.totals.bom_total)):
        expected = f"{amount:,.2f} {cur}"
        total_line = next(ln for ln in text.splitlines() if ln.startswith(label))
        assert total_line.endswith(expected) or expected in text.split(label, 1)[1].split("\n")[1], total_line
    for group in {group_of(ln) for ln in r.bom}:
        subtotal = sum((Decimal(str(ln.extended_price)) for ln in r.bom if group_of(ln) == group), Decimal("0"))
        assert f"Subtotal {role_label(group, r.design.greenplum_version)}" in text  # Greenplum 6: master host
        assert f"{subtotal:,.2f}" in text
    assert "Rack elevation" in text and "Cost of ownership, year by year" in text


def test_summary_states_estimates_ranges_and_binding_resource(
        single: tuple[Path, Scenario, SizingResult, str]) -> None:
    _, _, r, text = single
    flat_text = flat(text)
    assert "P10–P90" in flat_text and "binding resource" in flat_text.lower()
    main = r.estimates[r.main_metric]
    assert f"{main.p50:,.0f}" in flat_text
    assert "Headline estimates" in flat_text


def test_every_page_after_the_cover_is_numbered_with_header_and_footer(
        single: tuple[Path, Scenario, SizingResult, str]) -> None:
    path, s, _, _ = single
    reader = PdfReader(str(path))
    n = len(reader.pages)
    assert n >= 6
    assert "Page 1 of" not in (reader.pages[0].extract_text() or "")
    for i, page in enumerate(reader.pages[1:], start=2):
        t = page.extract_text() or ""
        assert f"Page {i} of {n}" in t
        assert "refarch" in t and s.name in t


def test_pdf_has_an_outline_and_metadata(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    path, s, _, _ = single
    reader = PdfReader(str(path))
    titles = [o.title for o in reader.outline if not isinstance(o, list)]
    assert any("Executive summary" in t for t in titles)
    assert reader.metadata is not None and reader.metadata.title == s.name


@pytest.mark.parametrize("name", [p.name for p in SCENARIO_FILES])
def test_every_sample_renders_with_its_capex(name: str, tmp_path: Path, sized: Sized) -> None:
    s, r = sized(name)
    out = tmp_path / "r.pdf"
    render_report([r], [s], out)
    text = pdf_text(out)
    assert f"{r.totals.capex:,.2f} {r.totals.currency}" in text
    assert bom_table(r).one_time_total == Decimal(str(r.totals.capex))
    assert bom_table(r).grand_total == Decimal(str(r.totals.bom_total))
    words = flat(text)
    for w in r.warnings:  # in the release's words: Greenplum 6's master where the key says coordinator
        assert flat(role_label(w.title, r.design.greenplum_version)) in words
    for x in r.rationale:
        assert role_label(x.decision, r.design.greenplum_version) in words
    assert_customer_text(words)
    # a field left empty reads as what the engine used, as the form shows it, never a bare "chosen by refarch"
    for path, used in used_values(r).items():
        assert flat(used_text(used)) in words, (path, used)
    assert not re.search(r"(?<!, )chosen by refarch", words), re.findall(r".{40}chosen by refarch", words)
    if r.target_checks:  # an OLTP workload's target throughput is judged as a target: the report says so
        assert "No targets were set" not in words
    pages = [flat(pg.extract_text() or "") for pg in PdfReader(str(out)).pages]
    assert "References" in pages[-1] and "Documents cited in this report" in pages[-1]  # the list is not split


# what must never reach a customer: study file names, calibration files, stand-in values, JSON paths, Python values
_INTERNAL = re.compile(
    # (a .json name inside a folder path is a generated configuration file the appendix lists, e.g. vsphere/vms.json)
    r"\b\d{3}_[0-9a-f]{16}\.txt\b|(?<![/.])\b\w+\.json\b|1,?000,?000 concurrent|10\*\*6|\bNone\b|\bnan\b"
    r"|\b(?:workload|platform|targets|assumptions)\.[a-z_]+|\b(?i:study)[- ]?00[0-4]\b|\b00[0-4]'s\b"
    r"|\b[a-z]+_[a-z_]+\(\)|\bgive peak_tps\b"  # a Python call or a JSON field name where words belong
)


def assert_customer_text(words: str) -> None:
    leaks = sorted({m.group(0) for m in _INTERNAL.finditer(words)})
    assert not leaks, f"internal values in customer text: {leaks}"
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", words)}
    listed = words.rsplit("References", 1)[-1]
    assert cited, "no citations"
    for n in cited:  # every [n] points at an entry of the reference list
        assert f"[{n}]" in listed, n


def test_multi_report_has_toc_comparison_and_each_option(multi: tuple[Path, list[SizingResult], str]) -> None:
    path, results, text = multi
    assert "Contents" in text and "Options compared" in text
    assert "Lowest capex" in text
    toc_page = PdfReader(str(path)).pages[1].extract_text() or ""
    assert "Options compared" in toc_page
    for i, r in enumerate(results):
        assert f"Option {'ABC'[i]}: {r.scenario_name}" in flat(toc_page)
        assert f"{r.totals.capex:,.2f} {r.totals.currency}" in text
        for line in r.bom:
            assert line.part_id in text
    assert text.count("Bill of materials") >= len(results)
    assert_customer_text(flat(text))


def test_the_appendix_pages_carry_the_reports_header_not_the_last_options(
        multi: tuple[Path, list[SizingResult], str]) -> None:
    path, _, _ = multi
    pages = [p.extract_text() or "" for p in PdfReader(str(path)).pages]
    start = next(i for i, t in enumerate(pages) if "Appendix: models and their fit" in t and i > 2)
    assert "Design options" not in pages[start - 1]  # an option's page is headed with the option's name
    for t in pages[start:]:
        assert "Design options" in t, t[:200]  # the report's own header again


def test_no_winner_across_workload_kinds_in_the_report(tmp_path: Path, sized: Sized) -> None:
    pairs = [sized("retail-dw-gen5.json"), sized("gp-oltp.json")]
    out = tmp_path / "mixed.pdf"
    render_report([r for _, r in pairs], [s for s, _ in pairs], out)
    words = flat(pdf_text(out))
    assert "Lowest capex: no clear winner (the options run different workloads)" in words
    assert not re.search(r"Lowest (?:capex|power): [AB] ", words)
    assert_customer_text(words)


def test_a_mixed_report_ranks_options_only_within_their_workload(tmp_path: Path, sized: Sized) -> None:
    """Three Greenplum warehouses and a PostgreSQL farm: winners and deltas among the warehouses only, and among
    those only the two sized for the same work (60 TB, 20 reports, 600 s): the 6 TB lab test bed is shown, named as
    not ranked, never "lowest capex"; the farm's table holds only its own metrics and no chart of single bars."""
    names = ("retail-dw-gen5.json", "pg-consolidation.json", "retail-dw-dual-socket-sas.json",
             "study-000-vsphere.json")
    pairs = [sized(n) for n in names]
    out = tmp_path / "mixed.pdf"
    render_report([r for _, r in pairs], [s for s, _ in pairs], out, cards=[])
    words = flat(pdf_text(out))
    assert "Lowest capex among the Greenplum analytics (MPP data warehouse) options: A " in words
    assert "Not ranked: sized for other work (data, concurrency or targets) than the other options of its workload: D"\
        " (Greenplum on vSphere 5.5" in words
    assert "PostgreSQL consolidation on vSphere: Option B" in words
    assert "Greenplum analytics (MPP data warehouse): Options A, C, D" in words
    section = words.split("Options compared", 2)[2].split("Option A:", 1)[0]
    pg_table = section.split("PostgreSQL consolidation on vSphere: Option B", 1)[1]
    assert "Full-scan time" not in pg_table and "Throughput preserved" in pg_table
    assert "Option B: P50 values" not in section  # no chart for a workload with one option
    assert_customer_text(words)


def test_names_with_markup_and_non_latin_letters_print_as_written(tmp_path: Path, catalog: HardwareCatalog) -> None:
    data = sample_json("retail-dw-gen5.json")
    data.update(name="Müller & Søn <DW>", customer="Łódź 東京", prepared_by="Zoë <b>not bold</b>",
                notes="Phase 1 & <b>2</b>\n東京 office")
    s = scenario_from(data)
    pg = sample_json("pg-consolidation.json")
    pg["workload"]["databases"][0]["name"] = "客户 & <orders>"
    pg["name"] = "Łódź <consolidation>"
    s2 = scenario_from(pg)
    out = tmp_path / "safe.pdf"
    render_report([size(s, catalog), size(s2, catalog)], [s, s2], out)
    text = pdf_text(out)
    for written in ("Müller & Søn <DW>", "Łódź 東京", "Zoë <b>not bold</b>", "Phase 1 & <b>2</b>", "東京 office",
                    "Łódź <consolidation>", "客户 & <orders>"):
        assert written in text, written


def test_cancel_leaves_no_file_and_keeps_the_old_one(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("gp-oltp.json")
    out = tmp_path / "r.pdf"
    out.write_bytes(b"previous report")
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 3  # cancel part-way through

    with pytest.raises(Cancelled):
        render_report([r], [s], out, cancelled=cancelled)
    assert out.read_bytes() == b"previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.pdf"]


def test_cancel_during_layout_also_stops(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("gp-oltp.json")
    out = tmp_path / "r.pdf"
    calls = {"n": 0}

    def cancelled() -> bool:
        calls["n"] += 1
        return calls["n"] > 40  # past the section building, inside reportlab's layout

    with pytest.raises(Cancelled):
        render_report([r], [s], out, cancelled=cancelled)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_progress_reaches_the_total_in_order(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("sap-iq.json")
    seen: list[tuple[int, int]] = []
    render_report([r], [s], tmp_path / "r.pdf", progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] == seen[-1][1]
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_mismatched_inputs_are_refused(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("sap-iq.json")
    with pytest.raises(ValueError):
        render_report([r], [s, s], tmp_path / "r.pdf")
    with pytest.raises(ValueError):
        render_report([], [], tmp_path / "r.pdf")


def test_roles_the_engine_prices_but_does_not_lay_out_are_listed(tmp_path: Path, catalog: HardwareCatalog) -> None:
    data = sample_json("retail-dw-gen5.json")
    data["targets"] = {"min_load_tb_per_hour": 150, "max_capex": 500000}
    s = scenario_from(data)
    r = size(s, catalog)
    assert r.design.etl_hosts > 0  # the load target needs gpfdist ETL hosts
    out = tmp_path / "etl.pdf"
    render_report([r], [s], out, growth=[None])
    text = flat(pdf_text(out))
    assert "ETL host" in text and "Subtotal ETL host" in text
    assert any(c.status != "met" for c in r.target_checks)
    assert "unreachable" in text or "missed" in text  # the engine's verdicts show in the targets and estimates tables
    assert f"{r.totals.capex:,.2f} {r.totals.currency}" in text


@pytest.mark.parametrize("count", [12, 20])
def test_reports_of_many_options_paginate_the_comparison(count: int, tmp_path: Path, sized: Sized) -> None:
    """12 and 20 options (every sample kind, mixed) render; each option group gets its own table and chart."""
    from app.export.pdf_compare import GROUP, group_title, option_groups, option_letter

    base = [sized(p.name) for p in SCENARIO_FILES]
    pairs = [base[i % len(base)] for i in range(count)]
    scenarios = [s.model_copy(update={"name": f"{s.name} / {i + 1}"}) for i, (s, _) in enumerate(pairs)]
    results = [dataclasses.replace(r, scenario_name=s.name) for s, (_, r) in zip(scenarios, pairs, strict=True)]
    out = tmp_path / "many.pdf"
    render_report(results, scenarios, out, cards=[])
    reader = PdfReader(str(out))
    text = flat(long_pdf_text(out))
    groups = option_groups([r.design.kind for r in results])
    assert all(len(g) <= GROUP for g in groups) and len(groups) >= 2
    for group in groups:
        assert group_title(group, results[group[0]].design.kind) in text
        assert len({results[i].design.kind for i in group}) == 1  # one workload a table
    for i, s in enumerate(scenarios):
        assert f"Option {option_letter(i)}: {s.name}" in text
    # every page fits A4: nothing overflowed into a page reportlab had to stretch
    assert all(round(float(p.mediabox.height)) == 842 for p in reader.pages)


def test_parts_are_named_with_their_vendor_part_numbers(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    """The design and the BOM show parts by name and vendor part number; the catalog id only in small print."""
    _, _, r, text = single
    words = flat(text)
    numbered = {ln.part_id: ln for ln in r.bom if ln.part_number}
    assert numbered
    for line in numbered.values():
        assert f"P/N {line.part_number}" in words, line.part_id
    drive = numbered[r.design.drive_id]
    assert f"Data drive {drive.description} (P/N {drive.part_number})" in words
    assert f"id {drive.part_id}" in words  # the small print under the BOM line


CAPEX_CASES = [("retail-dw-gen5.json", None), ("sap-iq.json", None), ("sap-iq.json", {"Dell": 15.0}),
               ("pg-consolidation.json", {"Lenovo": 10.0}), ("gp-oltp.json", {"*": 5.0})]


@pytest.mark.parametrize(("name", "discounts"), CAPEX_CASES)
def test_the_summary_says_what_the_capex_is_made_of_and_whether_it_is_list(
    catalog: HardwareCatalog, name: str, discounts: dict[str, float] | None
) -> None:
    """The executive summary called the whole one-time cost 'the hardware' 'at list prices': an SAP IQ design's
    544,000 USD of perpetual licences were hardware, and a discounted total was called a list price."""
    from app.export.fonts import report_fonts
    from app.export.pdf_blocks import Ctx, Numbering
    from app.export.pdf_sections import capex_split, recommendation
    from app.export.pdf_styles import make_styles
    from models.money import cents, total
    from models.scenario import Commercial

    s = scenario_from(sample_json(name))
    if discounts:
        s = s.model_copy(update={"commercial": Commercial(discounts_pct=discounts)})
    r = size(s, catalog)
    hardware, licences, at_list = capex_split(r)
    perpetual = total(ln.extended_price for ln in r.bom if ln.kind == "licence" and not ln.recurring)
    assert licences == perpetual and total((hardware, licences)) == r.totals.capex
    assert at_list == total(cents((ln.list_unit_price if ln.list_unit_price is not None else ln.unit_price) * ln.qty)
                            for ln in r.bom if not ln.recurring)
    text = flat(re.sub(r"<[^>]+>", "", recommendation(Ctx(make_styles(report_fonts()), Numbering()), r, s)))
    cur = r.totals.currency
    capex = f"{r.totals.capex:,.2f} {cur}"
    assert capex in text
    discounted = at_list > r.totals.capex
    assert ("net of discounts" in text) == discounted
    if discounted:
        assert f"{at_list:,.2f} {cur} at list prices" in text
    if licences:
        assert f"{hardware:,.2f} {cur} hardware and {licences:,.2f} {cur} perpetual licences" in text
        assert "The hardware costs" not in text


def test_a_vendor_restriction_reads_in_the_inputs_and_excluded_ids_stay_internal(
        tmp_path: Path, catalog: HardwareCatalog) -> None:
    """The customer's "HPE only" is an input the report states in their words; the catalog ids of excluded parts
    are internal and never printed."""
    data = sample_json("retail-dw-dual-socket-sas.json")
    data["platform"].update(server_id=None, vendors=["HPE"], excluded_parts=["samsung-pm1743-3840gb-e3s"])
    s = scenario_from(data)
    out = tmp_path / "r.pdf"
    render_report([size(s, catalog)], [s], out)
    words = flat(pdf_text(out))
    assert "Server vendors HPE" in words
    assert "samsung-pm1743-3840gb-e3s" not in words and "chosen by refarch Server vendors" not in words
    assert_customer_text(words)


def test_cover_and_summary_put_the_cost_of_ownership_up_front(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    """Capex alone hid the subscriptions (4.14 M USD a year against 2.79 M USD capex on this sample): the cover and
    the summary give capex, the first year and the TCO over the stated horizon, as the totals and TCO rows hold."""
    path, s, r, _ = single
    pages = [flat(pg.extract_text() or "") for pg in PdfReader(str(path)).pages]
    cover, summary = pages[0], pages[1]
    t, cur = r.totals, r.totals.currency
    first = r.tco[0].total
    assert first > t.capex and t.tco > first  # a licensed design: the subscriptions weigh
    assert t.tco_years == s.commercial.tco_years
    for page in (cover, summary):
        assert f"{t.capex:,.0f} {cur}" in page
        assert "First year" in page and f"{first:,.0f} {cur}" in page
        assert f"{t.tco_years}-year TCO" in page and f"{t.tco:,.0f} {cur}" in page
    assert f"over the {t.tco_years}-year planning horizon it costs {t.tco:,.0f} {cur} to own" in summary
    assert f"{t.recurring_per_year:,.2f} {cur} a year" in summary


def test_the_money_chart_says_it_sums_the_first_year(single: tuple[Path, Scenario, SizingResult, str]) -> None:
    _, _, r, text = single
    words = flat(text)
    assert f"First-year BOM: one-time + a year of subscriptions and support ({r.totals.currency})" in words
    assert "Where the first year's money goes" in words


def test_the_options_table_on_the_cover_gives_each_options_cost_of_ownership(
        multi: tuple[Path, list[SizingResult], str]) -> None:
    path, results, _ = multi
    cover = flat(PdfReader(str(path)).pages[0].extract_text() or "")
    years = {r.totals.tco_years for r in results}
    assert len(years) == 1 and f"{years.pop()}-year TCO" in cover and "First year" in cover
    for r in results:
        assert f"{r.tco[0].total:,.0f} {r.totals.currency}" in cover
        assert f"{r.totals.tco:,.0f} {r.totals.currency}" in cover


def test_the_database_table_shows_what_each_vm_carries_and_what_binds(tmp_path: Path, sized: Sized) -> None:
    s, r = sized("pg-consolidation.json")
    out = tmp_path / "pg.pdf"
    render_report([r], [s], out, cards=[])
    words = flat(pdf_text(out))
    assert "Its VM carries (TPS, P10-P90)" in words
    crm = next(d for v in r.vms for d in v.disks if d.database == "crm")
    assert crm.tps_p10 is not None and crm.tps_p90 is not None and crm.tps_p10 < crm.tps_p90
    assert f"{crm.tps_p10:,.0f}-{crm.tps_p90:,.0f} (CPU)" in words

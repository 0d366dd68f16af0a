"""The seed hardware catalog (resources/seed/catalog.json) is well-formed and covers the studies.

The file is data that presales architects size against, so these tests check the contract of the
"Catalog file format" in docs/DESIGN.md, that it maps onto the `models.hardware` value objects,
that every system of the five studies is present with the figures the studies state, and that
every price says where it comes from.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from importlib.resources import files
from typing import Any

import pytest

from models.hardware import (
    BAY_ACCEPTS,
    DRIVE_INTERFACES,
    PART_KINDS,
    Accessory,
    Cable,
    Controller,
    Cpu,
    Dimm,
    Drive,
    HardwareCatalog,
    Licence,
    Nic,
    Pdu,
    Rack,
    Server,
    Support,
    Switch,
)

Entry = dict[str, Any]

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
STUDY_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")

COMMON = ("id", "kind", "vendor", "model", "part_number", "price", "currency", "price_as_of", "source")
COLUMNS: dict[str, tuple[str, ...]] = {
    "cpu": ("cores", "threads", "base_ghz", "tdp_w"),
    "server": (
        "form_factor",
        "rack_u",
        "sockets",
        "cpu_id",
        "numa_nodes_per_socket",
        "memory_gib",
        "dimm_slots",
        "data_bays",
        "data_bay_form_factor",
        "os_drives",
        "psu_w",
        "idle_w",
        "max_w",
        "pcie_slots",
        "memory_type",
        "pcie_gen",
        "drive_link_gbps",
    ),
    "drive": (
        "interface",
        "form_factor",
        "capacity_tb",
        "seq_read_mb_s",
        "seq_write_mb_s",
        "random_read_iops",
        "random_write_iops",
        "watts",
        "link_gbps",
    ),
    "nic": ("ports", "speed_gbps", "watts", "pcie_gen", "pcie_lanes"),
    "dimm": ("size_gib", "speed_mt_s", "memory_type"),
    "switch": ("ports", "speed_gbps", "uplink_ports", "uplink_speed_gbps", "rack_u", "watts"),
    "cable": ("medium", "speed_gbps", "reach_m", "watts"),
    "rack": ("rack_u", "max_kw"),
    "pdu": ("outlets", "max_kw", "rack_u"),
    "licence": ("metric", "term", "applies_to", "min_cores_per_cpu", "min_units", "vsan_gib_per_core"),
    "support": ("basis", "pct_of_hardware", "applies_to"),
    "controller": ("interfaces", "raid_levels", "max_drives", "applies_to", "watts", "servers"),
    "accessory": ("use", "applies_to", "rack_u", "amps"),
}
OPTIONAL = {"price_basis"}  # absent: from the source's words
# Counts that may legitimately be zero (e.g. ESXi booted from SD/USB, no OS drives; a zero-U PDU;
# a passive cable's watts; a licence without minimums).
MAY_BE_ZERO = {"os_drives", "uplink_ports", "watts", "rack_u", "min_cores_per_cpu", "min_units", "pct_of_hardware",
               "vsan_gib_per_core", "amps"}
# Revision 0005/0006 columns: null means unknown (not read from a spec sheet), never a guess.
MAY_BE_UNKNOWN = {"pcie_slots", "memory_type", "vsan_gib_per_core", "pcie_gen", "drive_link_gbps", "link_gbps",
                  "pcie_lanes"}
# Free software and support priced as a share of hardware have no unit price.
PRICE_MAY_BE_ZERO = {"licence", "support"}
# A part with no public list price carries none (0, to be quoted), and its source says so.
NO_PUBLIC_PRICE = "no public list price"
BAY_FORM_FACTORS = {"LFF", "SFF", "U.2", "U.3", "E3.S", "E1.S"}
DRIVE_FORM_FACTORS = BAY_FORM_FACTORS | {"M.2"}  # M.2: boot devices, which no data bay takes

# Every server, CPU, drive, NIC (and the DIMMs) that the five studies name, by catalog id.
STUDY_PARTS: dict[str, str] = {
    # 000 Greenplum on vSphere 5.5, Test Bed Configuration
    "hpe-dl380e-gen8-2x-e5-2470": "server",
    "intel-xeon-e5-2470": "cpu",
    "hpe-500gb-sata-7k2-sff": "drive",
    "hpe-1tb-sata-7k2-sff": "drive",
    "hpe-530sfp-plus-2x10gbe": "nic",
    "ddr3-rdimm-8gib-1333": "dimm",
    # 001 vFabric Postgres 9.2, Tables 1 and 2
    "dell-r820-4x-e5-4640": "server",
    "intel-xeon-e5-4640": "cpu",
    "emc-vnx-600gb-sas-15k-lff": "drive",
    "hpe-ml350-g6-2x-e5620": "server",
    "intel-xeon-e5620": "cpu",
    "intel-ssd-520-240gb": "drive",
    "hpe-146gb-sas-15k-sff": "drive",
    # 002 Greenplum RA on Samsung PCIe Gen5 NVMe: reference platform, DCA, Table 3 baseline
    "supermicro-asg-1115s-ne316r-1x-epyc-9454p": "server",
    "amd-epyc-9454p": "cpu",
    "samsung-pm1743-3840gb-e3s": "drive",
    "samsung-pm1743-7680gb-e3s": "drive",
    "samsung-pm1743-15360gb-e3s": "drive",
    "samsung-pm9a3-3840gb-u2": "drive",
    "mellanox-connectx-5-2x100gbe": "nic",
    "emc-dca-v3-segment-2x-e5-2680-v3": "server",
    "intel-xeon-e5-2680-v3": "cpu",
    "emc-dca-1200gb-sas-10k-sff": "drive",
    "dell-r750-2x-gold-6342-24sas": "server",
    "intel-xeon-gold-6342": "cpu",
    "dell-2400gb-sas-10k-sff": "drive",
    # 003 SAP IQ DQP on vSphere + Virtual SAN, Tables 4 and 5
    "dell-r720xd-2x-e5-2690": "server",
    "intel-xeon-e5-2690": "cpu",
    "dell-900gb-sas-10k-sff": "drive",
    "dell-200gb-sas-ssd-sff": "drive",
    "broadcom-57810-2x10gbe": "nic",
    "ddr3-rdimm-16gib-1333": "dimm",
    # 004 Greenplum 6 OLTP on GCP names no concrete machine specs, so it adds no parts.
}

GEN5_REFERENCE_SERVER = "supermicro-asg-1115s-ne316r-1x-epyc-9454p"
GEN4_BASELINE_SERVER = "dell-r750-2x-gold-6342-24sas"


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    text = (files("resources") / "seed" / "catalog.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, list)
    assert all(isinstance(e, dict) for e in data)
    return data


@pytest.fixture(scope="module")
def by_id(entries: list[Entry]) -> dict[str, Entry]:
    return {e["id"]: e for e in entries}


def _of_kind(entries: list[Entry], kind: str) -> list[Entry]:
    return [e for e in entries if e["kind"] == kind]


def _cores_total(server: Entry, by_id: dict[str, Entry]) -> int:
    return server["sockets"] * by_id[server["cpu_id"]]["cores"]


def test_catalog_is_large_enough_and_covers_every_kind(entries: list[Entry]) -> None:
    assert len(entries) >= 40
    counts = Counter(e["kind"] for e in entries)
    assert set(counts) == set(PART_KINDS), counts


def test_ids_are_unique_slugs(entries: list[Entry]) -> None:
    ids = [e["id"] for e in entries]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes}"
    bad = [i for i in ids if not isinstance(i, str) or not SLUG.fullmatch(i)]
    assert not bad, f"ids that are not lowercase slugs: {bad}"


def test_every_entry_has_exactly_the_columns_of_its_kind(entries: list[Entry]) -> None:
    problems = []
    for e in entries:
        kind = e.get("kind")
        if kind not in COLUMNS:
            problems.append(f"{e.get('id')}: unknown kind {kind!r}")
            continue
        expected = set(COMMON) | set(COLUMNS[kind])
        if set(e) - OPTIONAL != expected:
            problems.append(f"{e['id']}: missing {expected - set(e)}, extra {set(e) - expected}")
    assert not problems, "\n".join(problems)


def test_common_fields_are_valid(entries: list[Entry]) -> None:
    problems = []
    for e in entries:
        if not (isinstance(e["vendor"], str) and e["vendor"].strip()):
            problems.append(f"{e['id']}: empty vendor")
        if not (isinstance(e["model"], str) and e["model"].strip()):
            problems.append(f"{e['id']}: empty model")
        if not re.fullmatch(r"[A-Z]{3}", e["currency"]):
            problems.append(f"{e['id']}: currency {e['currency']!r}")
        try:
            as_of = date.fromisoformat(e["price_as_of"])
        except (TypeError, ValueError):
            problems.append(f"{e['id']}: price_as_of {e['price_as_of']!r} is not YYYY-MM-DD")
        else:
            if as_of.year < 2000:
                problems.append(f"{e['id']}: price_as_of {as_of} is implausible")
    assert not problems, "\n".join(problems)


def test_numeric_fields_are_positive(entries: list[Entry]) -> None:
    problems = []
    for e in entries:
        numeric = ["price", *(c for c in COLUMNS[e["kind"]] if c not in {"cpu_id"})]
        for col in numeric:
            value = e[col]
            if isinstance(value, str) or (value is None and col in MAY_BE_UNKNOWN):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                problems.append(f"{e['id']}.{col} = {value!r} is not a number")
            elif value < 0 or (value == 0 and col not in MAY_BE_ZERO
                               and not (col == "price" and (e["kind"] in PRICE_MAY_BE_ZERO
                                                            or NO_PUBLIC_PRICE in e["source"]))):
                problems.append(f"{e['id']}.{col} = {value!r} is not positive")
    assert not problems, "\n".join(problems)


def test_counts_are_integers(entries: list[Entry]) -> None:
    integer_cols = {
        "cores",
        "threads",
        "rack_u",
        "sockets",
        "numa_nodes_per_socket",
        "memory_gib",
        "dimm_slots",
        "data_bays",
        "os_drives",
        "ports",
        "size_gib",
        "speed_mt_s",
        "uplink_ports",
        "outlets",
        "max_drives",
        "min_cores_per_cpu",
        "min_units",
    }
    bad = [
        f"{e['id']}.{c}"
        for e in entries
        for c in COLUMNS[e["kind"]]
        if c in integer_cols and (isinstance(e[c], bool) or not isinstance(e[c], int))
    ]
    assert not bad, bad


def test_servers_reference_existing_cpus(entries: list[Entry], by_id: dict[str, Entry]) -> None:
    problems = [
        f"{s['id']}: cpu_id {s['cpu_id']!r}"
        for s in _of_kind(entries, "server")
        if s["cpu_id"] not in by_id or by_id[s["cpu_id"]]["kind"] != "cpu"
    ]
    assert not problems, problems


def test_form_factors_and_interfaces_are_in_the_allowed_sets(entries: list[Entry]) -> None:
    problems = []
    for s in _of_kind(entries, "server"):
        if s["data_bay_form_factor"] not in BAY_FORM_FACTORS:
            problems.append(f"{s['id']}: bay form factor {s['data_bay_form_factor']!r}")
    for d in _of_kind(entries, "drive"):
        if d["form_factor"] not in DRIVE_FORM_FACTORS:
            problems.append(f"{d['id']}: drive form factor {d['form_factor']!r}")
        if d["interface"] not in DRIVE_INTERFACES:
            problems.append(f"{d['id']}: interface {d['interface']!r}")
    assert not problems, problems


def test_nvme_form_factors_carry_nvme_drives(entries: list[Entry]) -> None:
    nvme_only = {"U.2", "E3.S", "E1.S"}
    bad = [
        d["id"]
        for d in _of_kind(entries, "drive")
        if d["form_factor"] in nvme_only and not d["interface"].startswith("NVMe")
    ]
    assert not bad, bad


def test_every_server_has_a_drive_that_fits_its_bays(entries: list[Entry]) -> None:
    drive_ffs = {d["form_factor"] for d in _of_kind(entries, "drive")}
    homeless = [
        s["id"]
        for s in _of_kind(entries, "server")
        if not (BAY_ACCEPTS.get(s["data_bay_form_factor"], frozenset()) & drive_ffs)
    ]
    assert not homeless, f"servers with no fitting drive in the catalog: {homeless}"


def test_server_figures_are_physically_consistent(entries: list[Entry], by_id: dict[str, Entry]) -> None:
    problems = []
    for s in _of_kind(entries, "server"):
        sid = s["id"]
        if not s["idle_w"] < s["max_w"] <= s["psu_w"]:
            problems.append(f"{sid}: idle {s['idle_w']} / max {s['max_w']} / psu {s['psu_w']}")
        # The CPUs alone draw their TDP at full load, so max_w below that is impossible.
        if s["max_w"] < s["sockets"] * by_id[s["cpu_id"]]["tdp_w"]:
            problems.append(f"{sid}: max_w below the CPUs' TDP")
        if s["memory_gib"] > s["dimm_slots"] * 256:
            problems.append(f"{sid}: {s['memory_gib']} GiB cannot fit {s['dimm_slots']} slots")
        if s["numa_nodes_per_socket"] not in (1, 2, 4):
            problems.append(f"{sid}: numa_nodes_per_socket {s['numa_nodes_per_socket']}")
        cpu = by_id[s["cpu_id"]]
        # AMD "P" parts are single-socket only.
        if cpu["vendor"] == "AMD" and cpu["model"].endswith("P") and s["sockets"] != 1:
            problems.append(f"{sid}: {cpu['model']} in a {s['sockets']}-socket server")
    assert not problems, "\n".join(problems)


def test_cpu_figures_are_consistent(entries: list[Entry]) -> None:
    bad = [c["id"] for c in _of_kind(entries, "cpu") if c["threads"] not in (c["cores"], 2 * c["cores"])]
    assert not bad, bad


def test_drive_random_write_does_not_exceed_read_for_ssds(entries: list[Entry]) -> None:
    # Flash reads faster than it writes at random; a reversal usually means swapped columns.
    # (Intel 520 quotes its compressible-data write figure, so SATA is left out.)
    bad = [
        d["id"]
        for d in _of_kind(entries, "drive")
        if d["interface"] != "SATA"
        and d["random_read_iops"] > 10_000
        and d["random_write_iops"] > d["random_read_iops"]
    ]
    assert not bad, bad


def test_sources_are_given_and_prices_are_attributed(entries: list[Entry]) -> None:
    problems = []
    for e in entries:
        source = e["source"]
        if not (isinstance(source, str) and source.strip()):
            problems.append(f"{e['id']}: empty source")
            continue
        if not STUDY_FILE.search(source) and not re.search(r"estimate|datasheet|no public list price", source, re.I):
            problems.append(f"{e['id']}: price neither from a study nor marked estimate/datasheet")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("part_id", "kind"), sorted(STUDY_PARTS.items()))
def test_study_part_is_present(by_id: dict[str, Entry], part_id: str, kind: str) -> None:
    assert part_id in by_id, f"study part {part_id} missing"
    assert by_id[part_id]["kind"] == kind
    assert STUDY_FILE.search(by_id[part_id]["source"]), f"{part_id} does not cite its study"


@pytest.mark.parametrize(
    ("server_id", "sockets", "cores_total", "memory_gib"),
    [
        ("hpe-dl380e-gen8-2x-e5-2470", 2, 16, 96),  # 000: 2x E5-2470, 96GB
        ("dell-r820-4x-e5-4640", 4, 32, 256),  # 001 Table 1: 32 cores in total, 256GB
        ("hpe-ml350-g6-2x-e5620", 2, 8, 12),  # 001 Table 2: 8 cores in total, 12GB
        ("dell-r720xd-2x-e5-2690", 2, 16, 384),  # 003 Table 4: 2x E5-2690, 384GB
        (GEN5_REFERENCE_SERVER, 1, 48, 512),  # 002: single 48-core EPYC 9454P, 512GB
    ],
)
def test_study_servers_match_the_stated_configuration(
    by_id: dict[str, Entry], server_id: str, sockets: int, cores_total: int, memory_gib: int
) -> None:
    s = by_id[server_id]
    assert (s["sockets"], _cores_total(s, by_id), s["memory_gib"]) == (sockets, cores_total, memory_gib)


def test_gen5_reference_platform_matches_study_002(by_id: dict[str, Entry]) -> None:
    s = by_id[GEN5_REFERENCE_SERVER]
    assert s["cpu_id"] == "amd-epyc-9454p"
    assert (s["data_bays"], s["data_bay_form_factor"]) == (16, "E3.S")  # Figure 4
    assert (s["dimm_slots"], s["psu_w"], s["rack_u"]) == (24, 1600, 1)  # Figure 4
    assert s["numa_nodes_per_socket"] == 2  # BIOS setup: NPS set to 2


def test_gen4_baseline_matches_table_3_of_study_002(by_id: dict[str, Entry]) -> None:
    baseline, reference = by_id[GEN4_BASELINE_SERVER], by_id[GEN5_REFERENCE_SERVER]
    assert baseline["sockets"] == 2
    assert _cores_total(baseline, by_id) == _cores_total(reference, by_id)  # same total cores
    assert baseline["memory_gib"] == reference["memory_gib"]
    assert baseline["data_bays"] >= 24
    sas = by_id["dell-2400gb-sas-10k-sff"]
    assert sas["interface"] == "SAS"
    assert sas["form_factor"] in BAY_ACCEPTS[baseline["data_bay_form_factor"]]


def test_dca_is_dual_socket_with_24_spinning_disks(by_id: dict[str, Entry]) -> None:
    dca = by_id["emc-dca-v3-segment-2x-e5-2680-v3"]
    disk = by_id["emc-dca-1200gb-sas-10k-sff"]
    assert dca["sockets"] == 2 and dca["data_bays"] >= 24
    assert disk["interface"] in ("SAS", "SATA")
    assert disk["form_factor"] in BAY_ACCEPTS[dca["data_bay_form_factor"]]


@pytest.mark.parametrize(
    ("drive_id", "figures"),
    [
        # 002 Table 1: PM1743 Gen5 and PM9A3 Gen4 (MB/s seq read/write, random read/write IOPS)
        ("samsung-pm1743-3840gb-e3s", (14_000, 6_000, 2_500_000, 280_000)),
        ("samsung-pm9a3-3840gb-u2", (6_700, 4_100, 1_000_000, 180_000)),
    ],
)
def test_study_002_drive_figures(by_id: dict[str, Entry], drive_id: str, figures: tuple[int, ...]) -> None:
    d = by_id[drive_id]
    got = (d["seq_read_mb_s"], d["seq_write_mb_s"], d["random_read_iops"], d["random_write_iops"])
    assert got == figures


def test_study_002_drive_capacities_and_nic(by_id: dict[str, Entry]) -> None:
    capacities = sorted(by_id[i]["capacity_tb"] for i in STUDY_PARTS if i.startswith("samsung-pm1743-"))
    assert capacities == [3.84, 7.68, 15.36]
    # Eight 3.84TB drives give "over 30TB" raw per server.
    assert 8 * by_id["samsung-pm1743-3840gb-e3s"]["capacity_tb"] > 30
    nic = by_id["mellanox-connectx-5-2x100gbe"]
    assert 2 * nic["ports"] * nic["speed_gbps"] == 400  # two cards, 400Gb aggregate


def test_seed_loads_into_the_domain_value_objects(entries: list[Entry]) -> None:
    classes = {"cpu": Cpu, "drive": Drive, "nic": Nic, "dimm": Dimm, "switch": Switch, "cable": Cable, "rack": Rack,
               "pdu": Pdu, "licence": Licence, "support": Support, "controller": Controller, "accessory": Accessory}
    cpus: dict[str, Cpu] = {}
    parts: list[Cpu | Server | Drive | Nic | Dimm] = []

    def fields(e: Entry) -> dict[str, Any]:
        return {k: v for k, v in e.items() if k != "kind"} | {"price_as_of": date.fromisoformat(e["price_as_of"])}

    for e in _of_kind(entries, "cpu"):
        cpus[e["id"]] = Cpu(**fields(e))
    for e in entries:
        if e["kind"] == "server":
            f = fields(e)
            cpu = cpus[f.pop("cpu_id")]
            parts.append(Server(**f, cpu=cpu))
        elif e["kind"] == "cpu":
            parts.append(cpus[e["id"]])
        else:
            parts.append(classes[e["kind"]](**fields(e)))

    catalog = HardwareCatalog.of(parts)
    assert len(catalog) == len(entries)
    for server in catalog.servers:
        assert any(server.accepts(d) for d in catalog.drives), server.id


def test_part_numbers_are_vendor_skus_with_provenance_or_empty(entries: list[Entry]) -> None:
    """A part number is what procurement orders by: one token, never shared by two parts, and said where it
    comes from; an unknown one stays empty rather than guessed."""
    numbers = [e["part_number"] for e in entries if e["part_number"]]
    assert numbers, "the seed names no vendor part number at all"
    dupes = [n for n, k in Counter(numbers).items() if k > 1]
    assert not dupes, f"part numbers on two parts: {dupes}"
    problems = []
    for e in entries:
        number = e["part_number"]
        if not isinstance(number, str):
            problems.append(f"{e['id']}: part_number must be text, got {number!r}")
        elif number and (number != number.strip() or " " in number):
            problems.append(f"{e['id']}: part number {number!r} is not one token")
        elif number and "part number:" not in e["source"]:
            problems.append(f"{e['id']}: part number {number} without its source ('part number: ...')")
    assert not problems, "\n".join(problems)


def test_memory_generations_are_sourced_and_dimms_match_their_servers(entries: list[Entry]) -> None:
    """A server's DRAM generation comes from its vendor's spec sheet (said in `source`); a DIMM's is the one its
    model names; every server with a known generation has a DIMM of that generation in the seed, so memory above
    its base can be bought; PCIe slot counts are either sourced or null (unknown)."""
    problems = []
    dimm_types = {e["memory_type"] for e in entries if e["kind"] == "dimm"}
    for e in entries:
        if e["kind"] == "dimm":
            named = [t for t in ("DDR3", "DDR4", "DDR5") if t in e["model"]]
            if named != [e["memory_type"]]:
                problems.append(f"{e['id']}: memory_type {e['memory_type']!r}, model names {named}")
        elif e["kind"] == "server":
            if e["memory_type"] is not None and "memory type:" not in e["source"]:
                problems.append(f"{e['id']}: memory type {e['memory_type']} without its source")
            if e["memory_type"] is not None and e["memory_type"] not in dimm_types:
                problems.append(f"{e['id']}: no {e['memory_type']} DIMM in the seed")
            if e["pcie_slots"] is not None and "PCIe slots:" not in e["source"]:
                problems.append(f"{e['id']}: PCIe slots {e['pcie_slots']} without its source")
    assert not problems, "\n".join(problems)


# Where each seed PCIe slot count was read (the `PCIe slots:` part of `source` names it): a study, a vendor
# document, or a public device-type dataset that cites or copies the vendor's spec sheet or QuickSpecs.
SOURCED_PCIE_SLOTS = {
    "supermicro-asg-1115s-ne316r-1x-epyc-9454p": (2, "002_feb9b45e1f157a35.txt"),
    "lenovo-sr635-v3-10x-u3-1x-epyc-9354p": (3, "pubs.lenovo.com/sr635-v3/pcie_slots_adapters"),
    "lenovo-sr655-v3-12x-lff-1x-epyc-9124": (6, "Lenovo ThinkSystem SR655 V3 User Guide"),
    "lenovo-sr655-v3-24x-u3-1x-epyc-9554p": (6, "Lenovo ThinkSystem SR655 V3 User Guide"),
    "dell-r760-24x-u3-2x-xeon-gold-6530": (8, "device-types/Dell/PowerEdge-R760.yaml"),
    "hpe-dl380-gen11-24x-u3-2x-xeon-platinum-8580": (8, "hpe.com/psnow/doc/a50004307enw"),
    "hpe-dl385-gen11-24x-u3-2x-epyc-9654": (8, "hpe.com/psnow/doc/a50004300enw"),
    "hpe-dl380e-gen8-2x-e5-2470": (6, "hpe.com/psnow/doc/c04128166"),
}


def test_every_pcie_slot_count_in_the_seed_is_one_read_from_its_source(entries: list[Entry]) -> None:
    """The seed's slot counts are exactly the sourced ones, each with its provenance (document and where in it, or
    the dataset's repository, path and commit); every other server is null (unknown), never a guess."""
    servers = {e["id"]: e for e in entries if e["kind"] == "server"}
    counted = {sid: e["pcie_slots"] for sid, e in servers.items() if e["pcie_slots"] is not None}
    assert counted == {sid: n for sid, (n, _) in SOURCED_PCIE_SLOTS.items()}
    for sid, (_, where) in SOURCED_PCIE_SLOTS.items():
        provenance = servers[sid]["source"].split("PCIe slots:", 1)[1]
        assert where in provenance, sid
        if "devicetype-library" in provenance:  # a community dataset: said so, pinned to a commit
            assert "community dataset" in provenance and re.search(r"commit [0-9a-f]{40}", provenance), sid
    for sid, e in servers.items():
        if e["pcie_slots"] is None:
            assert "PCIe slots: unknown" in e["source"], sid


def test_every_vsphere_edition_with_a_vsan_entitlement_cites_it(entries: list[Entry]) -> None:
    """vSAN runs only on an edition that includes it: the entitlement per core is read from Broadcom, never
    guessed (0: the edition includes none; null: not recorded, and a design on vSAN asks to confirm)."""
    problems = []
    for e in entries:
        if e["kind"] != "licence":
            continue
        if e["applies_to"] != "vsphere" and e["vsan_gib_per_core"] is not None:
            problems.append(f"{e['id']}: a vSAN entitlement on a {e['applies_to']} licence")
        if e["applies_to"] == "vsphere" and e["vsan_gib_per_core"] is not None and "vSAN" not in e["source"]:
            problems.append(f"{e['id']}: vSAN {e['vsan_gib_per_core']} GiB per core without its source")
    assert not problems, "\n".join(problems)


def test_every_controller_says_which_servers_it_is_made_for_and_where_that_comes_from(entries: list[Entry]) -> None:
    """A vendor's controller fits its platform's servers only (revision 0012): each seed controller lists them, or
    "*" for a standard adapter, or leaves them empty, and its source says which and from where."""
    for e in (e for e in entries if e["kind"] == "controller"):
        assert "; servers: " in e["source"], e["id"]
        if e["servers"] == "*":
            assert e["applies_to"] == "*", e["id"]

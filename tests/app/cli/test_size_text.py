"""`refarch size` as text: the design names only the roles and parts it has, warnings by their titles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app.cli.main import main
from models.release_words import role_label
from models.vocabulary import KINDS, raid_label
from models.warning_codes import WARNING_TITLES

SAMPLES = Path(__file__).resolve().parents[3] / "resources" / "samples"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('cat') / 'catalog.sqlite'}"


def _size(capsys: pytest.CaptureFixture[str], db: str, path: Path) -> tuple[str, dict]:
    assert main(["--db", db, "size", str(path)]) == 0
    text = capsys.readouterr().out
    assert main(["--db", db, "size", str(path), "--format", "json"]) == 0
    return text, json.loads(capsys.readouterr().out)


def _fact(text: str, label: str) -> str | None:
    m = re.search(rf"^  {re.escape(label)}\s+(.+)$", text, re.M)
    return m.group(1) if m else None


def _bare_metal_iq(tmp_path: Path) -> Path:
    s = json.loads((SAMPLES / "sap-iq.json").read_text())
    s["platform"].update({"deployment": "bare-metal", "server_id": None, "drive_id": None, "nic_id": None})
    path = tmp_path / "iq-bare-metal.json"
    path.write_text(json.dumps(s))
    return path


@pytest.mark.parametrize("name", ["sap-iq.json", "pg-consolidation.json", "gp-oltp.json"])
def test_the_hosts_line_names_only_the_roles_the_design_has(capsys: pytest.CaptureFixture[str], db: str,
                                                            name: str) -> None:
    text, r = _size(capsys, db, SAMPLES / name)
    d = r["design"]
    hosts = _fact(text, "Hosts")
    assert hosts is not None and " 0 " not in f" {hosts} ", hosts  # before: "4: 4 IQ nodes + 0 coordinator + 0 ETL"
    counts = [int(n) for n in re.findall(r"(\d+) [A-Za-z]", hosts)]
    assert sum(counts) == d["total_hosts"]
    assert f"{d['segment_hosts']} {KINDS[d['kind']].workers(d['segment_hosts'])}" in hosts
    # the coordinator in the release's word: Greenplum 6 calls it the master (models.release_words.role_label)
    coordinator = role_label("coordinator", d.get("greenplum_version"))
    assert (coordinator in hosts) == bool(d["coordinator_hosts"]) and ("ETL" in hosts) == bool(d["etl_hosts"])


def test_bare_metal_sap_iq_on_a_san_says_where_the_dbspaces_are_and_counts_no_vms(
        capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    text, r = _size(capsys, db, _bare_metal_iq(tmp_path))
    d = r["design"]
    assert (d["deployment"], d["data_drives_per_host"]) == ("bare-metal", 0)
    # before: "0 x none (external SAN)" and "VMs per host 0"
    assert _fact(text, "Data drives per host") == f"none: dbspaces on the {raid_label(d['raid'])}"
    assert _fact(text, "VMs per host") is None
    assert _fact(text, "DQP mode") in ("Network transfer (private interconnect)",
                                       "Storage transfer (shared temp store)")


def test_warnings_read_by_their_titles_with_the_code_kept(capsys: pytest.CaptureFixture[str], db: str) -> None:
    text, r = _size(capsys, db, SAMPLES / "sap-iq.json")
    assert r["warnings"]
    for w in r["warnings"]:
        assert f"  ! {WARNING_TITLES[w['code']]} [{w['code']}]: " in text

"""`refarch config` as a user runs it: the same numbers as `refarch size`, bad input exit 2, folders guarded."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from app.cli.main import main
from app.export.config import Naming, NamingError, build_config, parse_naming
from tests.app.export.config.conftest import ConfigOf
from tests.app.export.conftest import SCENARIO_FILES

SAMPLES = Path(__file__).resolve().parents[4] / "resources" / "samples"
COMMENTED_SUFFIXES = (".conf", ".sql", ".cfg", "gpinitsystem_config")


def test_resource_groups_come_with_their_cgroup_hierarchy(config_of: ConfigOf) -> None:
    _, bundle = config_of("retail-dw-gen5.json")
    assert "gpconfig -c gp_resource_manager -v group" in bundle.get("greenplum/gpconfig.sh").text
    text = bundle.get("os/cgconfig-gpdb.conf").text
    body = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    assert body[0] == "group gpdb {" and body[-1] == "}" and all(c + " { }" in text for c in ("cpu", "memory"))
    assert text.count("{") == text.count("}")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'catalog.sqlite'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _values_in_files(out: Path, group: dict) -> dict[str, str]:
    """Each setting of a design group as the generated file states it."""
    product, target = group["product"], group["target"]
    if product == "greenplum":
        text = (out / "greenplum" / "gpconfig.sh").read_text()
        if target == "coordinator":  # -m VALUE beside the segments' value, or a coordinator-only parameter
            found = dict(re.findall(r"^gpconfig -c (\S+) -v \S+ -m '?([^'\s]+)'?$", text, re.M))
            return found | dict(re.findall(r"^gpconfig -c (\S+) -v '?([^'\s]+)'? --coordinatoronly$", text, re.M))
        return dict(re.findall(r"^gpconfig -c (\S+) -v '?([^'\s]+)'?(?: -m \S+)?$", text, re.M))
    if product == "greenplum-not-set":  # left at the default: the gpconfig line commented out
        text = (out / "greenplum" / "gpconfig.sh").read_text()
        return dict(re.findall(r"^# gpconfig -c (\S+) -v '?([^'\s]+)'?$", text, re.M))
    if product == "linux-block":
        text = (out / "os" / "data-disks.sh").read_text()
        names = re.search(r'then echo (\S+) > .*; else echo (\S+) >', text) or re.search(r"echo (\S+)() > ", text)
        assert names is not None
        media = re.search(r"Data drive media: (\w+)", text.replace("\n  # ", " "))
        return {"media": media.group(1) if media else "", "scheduler": names.group(1),
                "scheduler_el7": names.group(2) or names.group(1)}
    if product == "greenplum-init":
        text = (out / "greenplum" / "gpinitsystem.sh").read_text()
        found = dict(re.findall(r"--(mirror)-mode=(\S+)", text))
        block = re.search(r"block of (\d+) segment hosts", text)
        return found | ({"mirror_block_hosts": block.group(1)} if block else {})
    if product == "greenplum-resource-group":
        text = (out / "greenplum" / "resource_groups.sql").read_text()
        found = {k.lower(): v for k, v in re.findall(rf"^ALTER RESOURCE GROUP {target} SET (\w+) (\S+);$", text, re.M)}
        for attrs in re.findall(rf"^CREATE RESOURCE GROUP {target} WITH \((.*)\);$", text, re.M):
            found |= {k.strip().lower(): v for k, v in (a.split("=") for a in attrs.split(","))}
        return found
    if product == "postgresql":
        text = (out / "postgresql" / f"{target}.conf").read_text()
        return {k: v.strip("'") for k, v in re.findall(r"^(\w+) = (\S+)$", text, re.M)}
    if product == "sap-iq-server":
        text = next((out / "sap-iq").glob("*.cfg")).read_text()
        return dict(re.findall(r"^-(\w+) (\S+)$", text, re.M))
    if product == "vsan-policy":
        doc = json.loads((out / "vsphere" / "vms.json").read_text())
        rules = next(p["rules"] for p in doc["storage_policies"] if p["name"] == target)
        return {k: str(v) for k, v in rules.items()}
    if product == "linux-sysctl":
        text = (out / "os" / "sysctl.conf").read_text()
        return dict(re.findall(r"^([a-z0-9_.]+) = (.+)$", text, re.M))
    raise AssertionError(f"no reader for {product}")


@pytest.mark.parametrize("name", ["retail-dw-gen5.json", "study-000-vsphere.json", "pg-consolidation.json",
                                  "sap-iq.json"])
def test_every_design_setting_of_size_is_in_the_files(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str,
                                                      name: str) -> None:
    code, out, _ = run(capsys, "--db", db, "size", str(SAMPLES / name), "--format", "json")
    assert code == 0
    groups = json.loads(out)["design"]["settings"]
    assert groups
    target = tmp_path / "out"
    code, out, err = run(capsys, "--db", db, "config", str(SAMPLES / name), "-o", str(target))
    assert code == 0, err
    assert (target / "README.txt").is_file() and str(target / "README.txt") in out
    for g in groups:
        found = _values_in_files(target, g)
        for s in g["settings"]:
            key = "mirror" if s["name"] == "mirror_mode" else s["name"].lstrip("-")
            value = found[key].removesuffix(s["unit"]) if s["unit"] and key in found else found.get(key)
            assert value == str(s["value"]), (g["product"], g["target"], s["name"])


def test_same_input_same_bytes(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str) -> None:
    scenario = str(SAMPLES / "study-000-vsphere.json")
    for out in ("a", "b"):
        assert run(capsys, "--db", db, "config", scenario, "-o", str(tmp_path / out))[0] == 0
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())
    assert files_a == files_b
    for rel in files_a:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_non_empty_folder_is_refused_without_force(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   db: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    scenario = str(SAMPLES / "sap-iq.json")
    code, _, err = run(capsys, "--db", db, "config", scenario, "-o", str(out))
    assert code == 2 and "--force" in err
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]
    code, _, _ = run(capsys, "--db", db, "config", scenario, "-o", str(out), "--force")
    assert code == 0 and (out / "sap-iq" / "multiplex_options.sql").is_file() and (out / "keep.txt").is_file()
    assert not list(out.rglob(".*.tmp"))  # atomic writes leave no temporary files


def test_a_file_where_the_folder_should_be_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                    db: str) -> None:
    (tmp_path / "out").write_text("x")
    code, _, err = run(capsys, "--db", db, "config", str(SAMPLES / "sap-iq.json"), "-o", str(tmp_path / "out"))
    assert code == 2 and "not a folder" in err


def test_a_scenario_that_cannot_be_sized_exits_2_and_writes_nothing(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path, db: str) -> None:
    data = json.loads((SAMPLES / "retail-dw-gen5.json").read_text())
    data["platform"]["server_id"] = "no-such-server"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    code, _, err = run(capsys, "--db", db, "config", str(bad), "-o", str(tmp_path / "out"))
    assert code == 2 and "no-such-server" in err
    assert not (tmp_path / "out").exists()
    (tmp_path / "broken.json").write_text("{not json")
    code, _, err = run(capsys, "--db", db, "config", str(tmp_path / "broken.json"), "-o", str(tmp_path / "out"))
    assert code == 2 and "JSON" in err


@pytest.mark.parametrize(("item", "expected"), [
    ("segment_host=gp{x}", "unknown placeholder"),
    ("segment_host=gp-seg", "several hosts"),
    ("colour=red", "unknown key"),
    ("data_mount=data{d}", "absolute path"),
    ("segment_host", "KEY=PATTERN"),
])
def test_bad_naming_patterns_exit_2_naming_the_key(capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str,
                                                    item: str, expected: str) -> None:
    code, _, err = run(capsys, "--db", db, "config", str(SAMPLES / "retail-dw-gen5.json"), "-o",
                       str(tmp_path / "out"), "--name", item)
    assert code == 2 and expected in err
    assert not any((tmp_path / "out").rglob("*")) if (tmp_path / "out").exists() else True


def test_naming_patterns_rename_hosts_and_directories(config_of: ConfigOf) -> None:
    result, _ = config_of("study-000-vsphere.json")
    naming = parse_naming(["segment_host=gp-{host}-{vm}", "data_mount=/gpdata/d{d:02d}", "interface={hostname}-if{i}"])
    bundle = build_config(result, naming)
    hosts = bundle.get("greenplum/hostfile_gpinitsystem").text
    assert "gp-1-1-if1" in hosts and "gp-3-2-if2" in hosts and "sdw" not in hosts
    assert "/gpdata/d01/primary" in bundle.get("greenplum/gpinitsystem_config").text
    assert '"name": "gp-2-1"' in bundle.get("vsphere/vms.json").text


def test_naming_defaults_are_valid() -> None:
    assert Naming().render("segment_host", n=3, host=1, vm=1) == "sdw3"
    with pytest.raises(NamingError):
        Naming(coordinator_host="{n}")


@pytest.mark.parametrize("name", [p.name for p in SCENARIO_FILES])
def test_every_setting_line_is_preceded_by_its_reason_and_source(name: str, config_of: ConfigOf) -> None:
    _, bundle = config_of(name)
    checked = 0
    for f in bundle.files:
        if not f.path.endswith(COMMENTED_SUFFIXES):
            continue
        mark = "--" if f.path.endswith(".sql") else "#"
        lines = [ln for ln in f.text.splitlines() if ln.strip()]
        for prev, ln in itertools.pairwise(lines):
            if not ln.startswith(mark):
                assert prev.startswith(mark), f"{f.path}: {ln!r} has no comment above it"
                checked += 1
        assert "[source: " in f.text, f.path
    assert checked > 0
    for f in bundle.files:  # customer-facing files cite the studies by title, never by file name
        assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", f.text), f.path


@pytest.mark.parametrize("mode", [None, "storage-transfer", "network-transfer"])
def test_the_dqp_mode_written_is_the_designs_and_says_when_the_scenario_chose_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, db: str, mode: str | None) -> None:
    data = json.loads((SAMPLES / "sap-iq.json").read_text())
    if mode:
        data["workload"]["dqp_mode"] = mode
    f = tmp_path / "iq.json"
    f.write_text(json.dumps(data))
    out = tmp_path / "cfg"
    code, _, _ = run(capsys, "--db", db, "config", str(f), "-o", str(out))
    assert code == 0
    text = (out / "sap-iq" / "multiplex_options.sql").read_text()
    expected = "OFF" if mode == "storage-transfer" else "ON"  # the sample's 6 streams: network-transfer recommended
    assert f"ALTER LS POLICY root DQP_ENABLED_OVER_NETWORK={expected};" in text
    flat = " ".join(line.removeprefix("-- ") for line in text.splitlines())  # comments wrap at a width
    assert ("As specified in the scenario." in flat) is (mode is not None)

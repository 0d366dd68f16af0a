"""Property-based fuzzing of every kind of file refarch reads: a hostile or broken file is exit 2 (or a clean
success), never a traceback, a hang or "internal error".

Each file kind gets >= 2,000 mutated files (hypothesis, derandomized so CI is repeatable) through the reader the
CLI and the GUI use; a smaller run pushes schema-valid mutants through `size`, `growth` and `sensitivity`, where
the engine itself must turn absurd values into exit 2. Mutations: a leaf replaced by a hostile value (huge
integers, NaN/Infinity, markup, wrong types), keys removed or added, duplicated keys, truncation, stray bytes,
deep nesting, and for CSVs formula cells, ragged rows and non-numbers.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli.errors import CliError
from app.cli.main import main
from catalog.errors import CatalogFileError
from catalog.files import read_file
from catalog.validation import validate_rows
from models.scenario import ScenarioFileError, load_project

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "resources" / "samples"
READER_EXAMPLES = 2_000  # per file kind (the floor); readers cost well under a millisecond each
ENGINE_EXAMPLES = 60  # each one sizes a design (tens of ms); the readers above carry the volume

CATALOG_EACH = READER_EXAMPLES // 2  # the catalog kind: half JSON, half CSV (2,000 together)
FUZZ = settings(max_examples=READER_EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

HOSTILE_VALUES = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(["<b>x</b><img src='/etc/passwd'>", "=cmd|' /C calc'!A0", "@SUM(1)", "\x00", "", " ", "-1",
                     "1e999", "NaN", "9" * 400, "vsphere", "bare-metal", "greenplum-oltp", "raid10"]),
    st.booleans(),
    st.none(),
    st.lists(st.integers(min_value=-5, max_value=5), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)
TOKENS = ["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "[" * 200, "]", "}", "{", ",", ":", '"', "\\u0000",
          "\ufeff", "\x00", "\xff", "null", "-0", "1.7976931348623157e309"]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, (*prefix, i))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


def _delete(doc: Any, path: tuple[Any, ...]) -> Any:
    if not path:
        return doc
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    del parent[path[-1]]
    return doc


@st.composite
def mutated_json(draw: st.DrawFn, base: Any) -> bytes:
    """`base` with 1-3 structural mutations, then maybe a text-level one."""
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "scale"]))
        if action == "replace":
            doc = _set(doc, path, draw(HOSTILE_VALUES))
        elif action == "delete":
            with contextlib.suppress(KeyError, IndexError, TypeError):
                doc = _delete(doc, path)
        elif action == "add":
            target = doc
            for key in path:
                target = target[key]
            if isinstance(target, dict):
                target[draw(st.text(max_size=12))] = draw(HOSTILE_VALUES)
            elif isinstance(target, list):
                target.append(draw(HOSTILE_VALUES))
        else:  # scale a number: the engine's range checks, not only the schema's
            target = doc
            for key in path:
                target = target[key]
            if isinstance(target, int | float) and not isinstance(target, bool):
                factor = draw(st.sampled_from([0, -1, 0.001, 0.5, 2, 10, 1000, 10**6]))
                doc = _set(doc, path, type(target)(target * factor) if factor else 0)
    text = json.dumps(doc, allow_nan=True)
    edit = draw(st.sampled_from(["none", "none", "token", "truncate", "dup-key", "bytes"]))
    if edit == "token":
        at = draw(st.integers(min_value=0, max_value=len(text)))
        text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
    elif edit == "truncate":
        text = text[: draw(st.integers(min_value=0, max_value=max(len(text) - 1, 0)))]
    elif edit == "dup-key" and '"' in text:
        key_at = text.find('": ')
        start = text.rfind('"', 0, key_at)
        if key_at > 0 and start >= 0:
            key = text[start:key_at + 1]
            text = text.replace("{" + key, "{" + key + ": 1, " + key, 1)
    data = text.encode("utf-8", "surrogatepass")
    if edit == "bytes":
        at = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data


@st.composite
def mutated_csv(draw: st.DrawFn, lines: list[list[str]]) -> bytes:
    rows = [list(r) for r in lines]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        r = draw(st.integers(min_value=0, max_value=len(rows) - 1))
        action = draw(st.sampled_from(["cell", "cell", "drop-cell", "add-cell", "drop-row", "dup-row"]))
        if action == "cell" and rows[r]:
            c = draw(st.integers(min_value=0, max_value=len(rows[r]) - 1))
            rows[r][c] = draw(st.one_of(st.text(max_size=20), st.sampled_from(
                ["inf", "-inf", "nan", "1e999", "9" * 5000, "-1", "0", "=1+1", "@SUM(1)", "\"", "\r", "1,5", "0x10"])))
        elif action == "drop-cell" and rows[r]:
            rows[r].pop()
        elif action == "add-cell":
            rows[r].append(draw(st.text(max_size=8)))
        elif action == "drop-row" and len(rows) > 1:
            rows.pop(r)
        else:
            rows.append(list(rows[r]))
    buf = io.StringIO()
    import csv

    csv.writer(buf, lineterminator=draw(st.sampled_from(["\n", "\r\n", "\r"]))).writerows(rows)
    data = buf.getvalue().encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        at = draw(st.integers(min_value=0, max_value=len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=3)) + data[at:]
    return data


SCENARIO = json.loads((SAMPLES / "retail-dw-gen5.json").read_text(encoding="utf-8"))
SCENARIOS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.json"))
             if not p.name.endswith(".refarch.json")]
PROJECT = json.loads((SAMPLES / "sample.refarch.json").read_text(encoding="utf-8"))
CATALOG_ROWS = json.loads((ROOT / "tests" / "catalog" / "fixtures" / "seed_small.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A RAM-backed folder where there is one: rewriting a file on ext4 costs milliseconds (it flushes on truncate),
    which would make 10,000 examples cost minutes instead of seconds."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        folder = Path(tempfile.mkdtemp(prefix="refarch-fuzz-", dir=shm))
        yield folder
        shutil.rmtree(folder, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp("fuzz")


@FUZZ
@given(data=st.data())
def test_scenario_files_are_read_or_refused(scratch: Path, data: st.DataObject) -> None:
    from app.cli.scenario_files import read_inputs

    path = scratch / "scenario.json"
    path.write_bytes(data.draw(mutated_json(data.draw(st.sampled_from(SCENARIOS)))))
    with contextlib.suppress(CliError):  # CliError is exit 2 with the problems listed
        read_inputs([str(path)])


@FUZZ
@given(data=st.data())
def test_project_files_are_read_or_refused(scratch: Path, data: st.DataObject) -> None:
    path = scratch / "project.refarch.json"
    path.write_bytes(data.draw(mutated_json(PROJECT)))
    with contextlib.suppress(ScenarioFileError):  # the GUI shows these problems; the CLI exits 2
        load_project(path)


@settings(FUZZ, max_examples=CATALOG_EACH)
@given(data=st.data())
def test_catalog_json_files_are_read_or_refused(scratch: Path, data: st.DataObject) -> None:
    path = scratch / "rows.json"
    path.write_bytes(data.draw(mutated_json(CATALOG_ROWS)))
    try:
        rows = read_file(path)
    except CatalogFileError:
        return
    validate_rows(rows, {}, replace=False)  # problems come back as data, never as an exception


CATALOG_CSV = [list(CATALOG_ROWS[0].keys())] + [[str(r.get(k, "")) for k in CATALOG_ROWS[0]] for r in CATALOG_ROWS]


@settings(FUZZ, max_examples=CATALOG_EACH)
@given(data=st.data())
def test_catalog_csv_files_are_read_or_refused(scratch: Path, data: st.DataObject) -> None:
    path = scratch / "rows.csv"
    path.write_bytes(data.draw(mutated_csv(CATALOG_CSV)))
    try:
        rows = read_file(path)
    except CatalogFileError:
        return
    validate_rows(rows, {}, replace=False)


USL_CSV = [["clients", "throughput"], ["1", "1000"], ["2", "1900"], ["4", "3500"], ["8", "6000"], ["16", "8800"],
           ["32", "9900"]]


@FUZZ
@given(data=st.data())
def test_usl_csv_files_are_read_or_refused(scratch: Path, data: st.DataObject) -> None:
    from app.cli.commands.fit_usl import read_points

    path = scratch / "usl.csv"
    path.write_bytes(data.draw(mutated_csv(USL_CSV)))
    with contextlib.suppress(CliError):
        read_points(path)


@pytest.fixture(scope="module")
def catalog_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzzdb') / 'catalog.sqlite'}"
    assert main(["--db", url, "catalog", "list", "--kind", "cpu"]) == 0  # seeded once
    return url


@settings(max_examples=ENGINE_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data(), command=st.sampled_from(["size", "growth", "sensitivity"]))
def test_mutated_scenarios_through_the_engine_exit_0_or_2(scratch: Path, catalog_db: str, data: st.DataObject,
                                                          command: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = scratch / "engine.json"
    path.write_bytes(data.draw(mutated_json(data.draw(st.sampled_from(SCENARIOS)))))
    capsys.readouterr()
    code = main(["--db", catalog_db, command, str(path)])
    err = capsys.readouterr().err
    assert code in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err

"""The hardened reader: every hostile file ends as named problems, never a hang, a memory blow-up or a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import file_input
from models.file_input import FileInputError, load_json, parse_json, read_text
from models.problems import Problem


def _paths(exc: pytest.ExceptionInfo[FileInputError]) -> dict[str, str]:
    return {p.path: p.message for p in exc.value.problems}


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "scenario.json"
    os.mkfifo(fifo)  # no writer: a plain open() would wait forever
    with pytest.raises(FileInputError, match="pipe"):
        read_text(fifo, max_bytes=100)


def test_devices_and_directories_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FileInputError, match="not a regular file"):
        read_text("/dev/zero", max_bytes=100)  # st_size is 0: a size check alone would read forever
    with pytest.raises(FileInputError, match="directory"):
        read_text(tmp_path, max_bytes=100)
    with pytest.raises(FileInputError, match="no such file"):
        read_text(tmp_path / "missing", max_bytes=100)


def test_the_size_limit_is_on_what_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    with pytest.raises(FileInputError, match="limit"):
        read_text(path, max_bytes=100)
    path.write_bytes(b"\xef\xbb\xbf[1]")  # a spreadsheet's BOM is fine and dropped
    assert load_json(path, max_bytes=100) == [1]


@pytest.mark.parametrize("depth", [file_input.MAX_DEPTH + 1, 100_000])
def test_deep_nesting_is_refused(depth: int) -> None:
    with pytest.raises(FileInputError, match="nested deeper"):
        parse_json("[" * depth + "]" * depth)


def test_nesting_up_to_the_limit_is_read() -> None:
    depth = file_input.MAX_DEPTH
    assert parse_json("[" * depth + "]" * depth) is not None


def test_duplicate_keys_are_refused_with_their_path() -> None:
    with pytest.raises(FileInputError) as exc:
        parse_json('[{"id": "a", "kind": "nic", "id": "b"}]')
    assert _paths(exc) == {"[0].id": "this key appears more than once in the object"}


def test_big_integers_and_non_finite_numbers_name_the_field() -> None:
    with pytest.raises(FileInputError) as exc:
        parse_json('{"workload": {"data_tb": ' + "9" * 5000 + '}, "targets": {"min_tps": Infinity, "x": NaN,'
                   ' "y": -Infinity, "z": 1e999}}')
    found = _paths(exc)
    assert set(found) == {"workload.data_tb", "targets.min_tps", "targets.x", "targets.y", "targets.z"}
    assert "5000-digit" in found["workload.data_tb"]


def test_ordinary_numbers_survive() -> None:
    assert parse_json('{"a": 123456789012345, "b": -1.5e10, "c": 0}') == {"a": 123456789012345, "b": -1.5e10,
                                                                         "c": 0}


def test_saving_refuses_what_loading_would_refuse() -> None:
    text = file_input.dump_json_checked({"notes": "x" * 50}, max_bytes=1000, what="project", name="p")
    assert parse_json(text) == {"notes": "x" * 50}
    with pytest.raises(FileInputError, match="limit for a project"):
        file_input.dump_json_checked({"notes": "x" * 2000}, max_bytes=1000, what="project", name="p")
    with pytest.raises(FileInputError, match="cannot be saved"):
        file_input.dump_json_checked({"x": float("nan")}, max_bytes=1000, what="project", name="p")


def test_a_binary_file_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_bytes(b"a,b\n\x00\x01")
    with pytest.raises(FileInputError, match="NUL"):
        read_text(path, max_bytes=100)


_leaves = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(-1e6, 1e6) | st.text(max_size=3)
_trees = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
    st.sampled_from(["a", "b", "c d", "é"]), inner, max_size=3), max_leaves=12)


@settings(max_examples=15, deadline=None)
@given(_trees, st.sampled_from(["", "dup", "inf", "big", "deep"]))
def test_a_file_without_problems_reads_as_the_walk_with_paths_reads_it(tree: object, spoil: str) -> None:
    """Clean files come out as `_walk` gives them; one with a duplicate key, a non-finite or oversized number or
    nesting too deep falls to `_walk`, which names it."""
    text = json.dumps({"x": tree})
    text = {"": text, "dup": text[:-1] + ', "x": 1}', "inf": text[:-1] + ', "y": Infinity}',
            "big": text[:-1] + ', "y": ' + "9" * 5000 + "}",
            "deep": text[:-1] + ', "y": ' + "[" * file_input.MAX_DEPTH + "]" * file_input.MAX_DEPTH + "}"}[spoil]
    data = json.loads(text, object_pairs_hook=file_input._Object, parse_int=file_input._parse_int,
                      parse_float=file_input._parse_float, parse_constant=file_input._parse_constant)
    problems: list[Problem] = []
    walked = file_input._walk(data, "", 0, problems)
    if spoil:
        assert problems
        with pytest.raises(FileInputError):
            parse_json(text)
    else:
        assert not problems and parse_json(text) == walked == {"x": tree}

"""The compiled dataclass methods cache (`app.cli.dataclass_code`): the classes it builds are the ones
`dataclasses` builds without it, a second process compiles nothing, and a bad cache file only means compiling."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli import dataclass_code

ROOT = Path(__file__).resolve().parents[3]
METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def _classes() -> list[type]:
    """Dataclasses of every shape the methods' texts depend on: frozen, slots, defaults, factories, ordering,
    a field without `init`, a `ClassVar`, and an `InitVar`."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Part:
        part_id: str
        price: float = 0.0
        tags: tuple[str, ...] = ()

    @dataclasses.dataclass(order=True)
    class Line:
        qty: int
        items: list[int] = dataclasses.field(default_factory=list)
        total: float = dataclasses.field(init=False, default=0.0)
        scale: dataclasses.InitVar[int] = 1

        def __post_init__(self, scale: int) -> None:
            self.total = float(self.qty * scale)

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Options:
        hosts: int
        label: str = "x"

    return [Part, Line, Options]


def _signature(cls: type) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in METHODS:
        fn = vars(cls).get(name)
        code = getattr(fn, "__code__", None)
        if code is not None:
            out[name] = (code, fn.__defaults__, fn.__kwdefaults__, fn.__annotations__, fn.__qualname__)
    return out


@pytest.fixture
def cache_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "code"
    dataclass_code.uninstall()


def test_classes_built_through_the_cache_are_the_classes_built_without_it(cache_dir: Path) -> None:
    plain = [_signature(c) for c in _classes()]
    assert dataclass_code.install(cache_dir)
    compiled = [_signature(c) for c in _classes()]  # compiled in this process, then kept
    cache = dataclass_code._installed
    assert cache is not None and cache.compiled > 0
    cache.save()
    dataclass_code.uninstall()
    assert dataclass_code.install(cache_dir)
    cached = [_signature(c) for c in _classes()]  # from the file
    cache = dataclass_code._installed
    assert cache is not None and cache.compiled == 0 and cache.used
    assert compiled == plain
    assert cached == plain
    part, line, options = _classes()
    assert repr(line(2, scale=3)).endswith("Line(qty=2, items=[], total=6.0)")
    assert part("a", 1.0) == part("a", 1.0) and hash(part("a")) == hash(part("a"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        part("a").price = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        options(3)  # type: ignore[misc]


@pytest.mark.parametrize("content", [b"", b"not marshal", b"\x00\x00\r\n" + b"x" * 20, "magic-ok-but-damaged"])
def test_a_damaged_or_foreign_cache_file_means_compiling_and_is_replaced(cache_dir: Path, content: Any) -> None:
    if content == "magic-ok-but-damaged":
        content = dataclass_code._HEADER + b"\xff\x00garbage"
    cache_dir.mkdir(parents=True)
    path = cache_dir / dataclass_code.FILE_NAME
    path.write_bytes(content)
    plain = [_signature(c) for c in _classes()]
    assert dataclass_code.install(cache_dir)
    assert [_signature(c) for c in _classes()] == plain
    cache = dataclass_code._installed
    assert cache is not None and cache.compiled > 0
    cache.save()
    assert path.read_bytes().startswith(dataclass_code._HEADER) and len(path.read_bytes()) > 100


def test_install_without_a_directory_changes_nothing() -> None:
    assert not dataclass_code.install(None)
    assert "exec" not in vars(dataclasses)


def test_a_second_refarch_process_compiles_nothing(tmp_path: Path) -> None:
    """The first `refarch --help` writes the file at exit; the second finds every text and does not write it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFARCH_CODE_CACHE": str(tmp_path / "code"),
           "REFARCH_FIT_CACHE": str(tmp_path / "fits"), "REFARCH_CATALOG_CACHE": str(tmp_path / "catalogs")}
    path = tmp_path / "code" / dataclass_code.FILE_NAME

    def help_run() -> None:
        subprocess.run([sys.executable, "-m", "app.cli.main", "--help"], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=120)

    help_run()
    first = path.stat().st_mtime_ns
    os.utime(path, ns=(first - 10**9, first - 10**9))  # a rewrite would move the time again
    help_run()
    assert path.stat().st_mtime_ns == first - 10**9

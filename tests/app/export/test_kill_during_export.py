"""50 kills -9 during each kind of export: the file is always the previous one, byte for byte, or the new one
complete; and the temporary files the killed writers leave are removed on the next start.

Each write runs in a forked child (everything it needs is computed once, before the fork), which tells the
test when the atomic write begins; the test kills it at a random moment within the measured write time.
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import random
import signal
import struct
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.export import atomic
from app.export.atomic import TEMP_SUFFIX, atomic_write_text, remove_stale_temps
from catalog.files import render
from models.scenario import Project, load_scenario

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork (POSIX)")
KILLS = 50
ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "resources" / "samples" / "retail-dw-gen5.json"


class _Writer:
    """A forked child that prepares a write up to its atomic part once, then forks a fresh copy of itself there
    for every attempt: each attempt costs a fork and the write itself, not the rendering before it.

    The child replaces `atomic._sweep_folder` (the first step of `atomic_write`, before the temporary file is
    named) with a loop that, per "go" from the test, forks an attempt, tells the test the attempt's pid, and waits
    for it to finish or be killed. Each attempt names its own temporary file (the name carries its pid): forking
    after the name was chosen would make every attempt after a kill fail on the file the killed one left.
    """

    def __init__(self, write: Callable[[], None]) -> None:
        self.seconds = 0.0
        self.cmd_r, self.cmd_w = os.pipe()
        self.sig_r, self.sig_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            self._child(write)
        os.close(self.cmd_r)
        os.close(self.sig_w)

    def _child(self, write: Callable[[], None]) -> None:
        os.close(self.cmd_w)
        os.close(self.sig_r)
        real_sweep = atomic._sweep_folder

        def zygote(parent: Path, target_name: str) -> None:
            while os.read(self.cmd_r, 1) == b"g":
                attempt = os.fork()
                if attempt == 0:  # the attempt carries on with the write
                    atomic._sweep_folder = real_sweep  # type: ignore[assignment]
                    os.write(self.sig_w, struct.pack("q", os.getpid()))
                    return real_sweep(parent, target_name)
                _, status = os.waitpid(attempt, 0)
                os.write(self.sig_w, struct.pack("q", status))
            os._exit(0)

        atomic._sweep_folder = zygote  # type: ignore[assignment]
        try:
            write()
        except BaseException:
            os._exit(1)
        os._exit(0)

    def attempt(self, kill_after: float | None) -> bool:
        """One write; killed `kill_after` s after it began (None: let it finish). True if it finished cleanly.

        `self.seconds` is how long the last unkilled write ran from its start (the pid read) to its end: the fork
        before it is left out, since in a big test process (after the GUI tests) the fork alone can take longer
        than the write, and a window measured with it put every kill after the rename."""
        os.write(self.cmd_w, b"g")
        (pid,) = struct.unpack("q", os.read(self.sig_r, 8))
        started = time.monotonic()
        if kill_after is None:
            (status,) = struct.unpack("q", os.read(self.sig_r, 8))
            self.seconds = time.monotonic() - started
            return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        time.sleep(kill_after)  # the point of the test: a kill at a random moment of the write
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        (status,) = struct.unpack("q", os.read(self.sig_r, 8))
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0

    def close(self) -> None:
        os.write(self.cmd_w, b"q")
        os.close(self.cmd_w)
        os.close(self.sig_r)
        os.waitpid(self.pid, 0)


def _kill_many(target: Path, writes: list[Callable[[], None]], complete: Callable[[bytes, int], bool]) -> int:
    """Kill writes of two versions at random moments; return how many kills found the new version complete.

    Each kill is a write of the version the file does not hold, so a changed file means the new version landed.
    The kill moment is uniform over 1.5 times the measured write time (re-measured every 10 kills, as the machine's
    load changes it), so kills land before, during and after the rename; both outcomes must be seen, or the kill
    moments did not cover the write.
    """
    writers = [_Writer(w) for w in writes]

    def kill_one(i: int, delay: float) -> bool:
        """One write of the version the file does not hold, killed `delay` s after it began: True if it landed."""
        old = target.read_bytes()
        which = 1 if complete(old, 0) else 0  # write the other version
        writers[which].attempt(delay)
        now = target.read_bytes()
        assert now == old or complete(now, which), f"kill {i}: neither the old file nor a complete new one"
        return now != old

    try:
        assert writers[0].attempt(None), "the export itself fails"
        rng = random.Random(14)
        landed_new = window = 0.0
        for i in range(KILLS):
            if i % 10 == 0:
                writer = writers[(i // 10) % 2]
                assert writer.attempt(None)
                window = writer.seconds
            landed_new += kill_one(i, rng.uniform(0, window * 1.5))
        kills = KILLS
        # On a loaded machine the test wakes late from its sleep, and every kill can land after the rename (or, with
        # a slow fork, before it): then kill at once, or after twice the write, until the missing phase is seen.
        while landed_new in (0, kills) and kills < 2 * KILLS:
            landed_new += kill_one(kills, 0.0 if landed_new else window * 2)
            kills += 1
        assert 0 < landed_new < kills, f"{landed_new} of {kills} kills found the new file: the kills missed a phase"
        return int(landed_new)
    finally:
        for w in writers:
            w.close()


def _no_temporaries_after_restart(folder: Path) -> None:
    remove_stale_temps()  # what the next start of refarch does
    assert [p.name for p in folder.iterdir() if p.name.endswith(TEMP_SUFFIX)] == []


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REFARCH_DATA_DIR", str(tmp_path / "data"))
    out = tmp_path / "out"
    out.mkdir()
    return out


def _catalog_rows(price: float) -> list[dict[str, object]]:
    return [{"id": f"nic-{i:05d}", "kind": "nic", "vendor": "Acme", "model": f"Dual 25 {i}", "price": price,
             "currency": "USD", "price_as_of": "2025-01-01", "source": "estimate", "ports": 2,
             "speed_gbps": 25.0, "watts": 12.0} for i in range(20_000)]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_catalog_export(folder: Path, fmt: str) -> None:
    target = folder / f"catalog.{fmt}"
    texts = [render(_catalog_rows(100.0), fmt), render(_catalog_rows(200.0), fmt)]  # type: ignore[arg-type]
    expected = [t.encode("utf-8") for t in texts]
    writes = [lambda t=t: atomic_write_text(target, t) for t in texts]  # what `catalog export -o` and the GUI do
    _kill_many(target, writes, lambda data, which: data == expected[which])
    _no_temporaries_after_restart(folder)


def test_project_save_and_autosave(folder: Path) -> None:
    from app.services import project_files as files

    scenario = load_scenario(SAMPLE)
    # 180 scenarios: writing, not forking, is most of an attempt (with 60, an idle machine's kills all came late)
    projects = [Project(name=name, scenarios=[scenario.model_copy(update={"name": f"{name} {i}", "notes": name * 4000})
                                              for i in range(180)]) for name in ("A", "B")]
    target = folder / "deal.refarch.json"
    expected = [files.project_text(p).encode("utf-8") for p in projects]
    writes = [lambda p=p: files.save_project(p, target) for p in projects]
    _kill_many(target, writes, lambda data, which: data == expected[which])
    _no_temporaries_after_restart(folder)


@pytest.fixture(scope="module")
def sized() -> tuple[object, object]:
    from catalog.seed import seed_catalog
    from models.sizing.engine import size

    scenario = load_scenario(SAMPLE)
    return scenario, size(scenario, seed_catalog())


def test_bom_csv(folder: Path, sized: tuple[object, object]) -> None:
    from app.export.bom import bom_csv_text, bom_table, write_bom_csv

    _, result = sized
    # enough rows that writing the file, not forking and exiting, is most of an attempt: on an idle machine 40
    # tables' write was so short that 50 of 50 kills came after the rename
    tables = [[bom_table(result, customer)] * 160 for customer in ("A", "B")]  # type: ignore[arg-type]
    target = folder / "bom.csv"
    expected = [bom_csv_text(t).encode("utf-8-sig") for t in tables]
    writes = [lambda t=t: write_bom_csv(t, target) for t in tables]
    _kill_many(target, writes, lambda data, which: data == expected[which])
    _no_temporaries_after_restart(folder)


def test_bom_xlsx(folder: Path, sized: tuple[object, object]) -> None:
    from openpyxl import load_workbook

    from app.export.bom import bom_table, write_bom_xlsx

    _, result = sized
    tables = [[bom_table(result, customer)] * 8 for customer in ("A", "B")]  # type: ignore[arg-type]
    target = folder / "bom.xlsx"

    # the answer depends on the bytes alone: parsing a workbook costs half a write, and the file a kill leaves
    # is, more often than not, one parsed a moment before (the last kill's result is this one's starting file)
    @functools.cache
    def complete(data: bytes, which: int) -> bool:
        sheet = load_workbook(io.BytesIO(data)).worksheets[0]
        return any(row[1] == ("A", "B")[which] for row in sheet.iter_rows(values_only=True))

    writes = [lambda t=t: write_bom_xlsx(t, target) for t in tables]
    _kill_many(target, writes, complete)
    _no_temporaries_after_restart(folder)


def test_pdf_report(folder: Path, sized: tuple[object, object]) -> None:
    from pypdf import PdfReader

    from app.export.report import render_report

    scenario, result = sized
    titles = ["Report A", "Report B"]
    target = folder / "report.pdf"

    def complete(data: bytes, which: int) -> bool:
        reader = PdfReader(io.BytesIO(data))
        return len(reader.pages) > 0 and reader.metadata.title == titles[which]

    writes = [lambda t=t: render_report([result], [scenario], target, cards=[], title=t)  # type: ignore[list-item]
              for t in titles]
    _kill_many(target, writes, complete)
    _no_temporaries_after_restart(folder)


def test_configuration_files(folder: Path, sized: tuple[object, object]) -> None:
    """A bundle is many files written as one folder: after a kill the folder is wholly its old or its new version
    (staged beside and exchanged in), never a mix."""
    import dataclasses

    from app.export.config.build import build_config
    from app.export.config.writer import write_bundle

    _, result = sized
    bundles = [build_config(dataclasses.replace(result, scenario_name=name))  # type: ignore[type-var]
               for name in ("Config A", "Config B")]
    expected = [{f.path: f.text.encode("utf-8") for f in b.files} for b in bundles]
    assert expected[0] != expected[1]
    out = folder / "config"
    # _kill_many watches the last file written that differs between the versions; every file is checked below
    target = out / [f.path for f in bundles[0].files if expected[0][f.path] != expected[1][f.path]][-1]
    writes = [lambda b=b: write_bundle(b, out, force=True) for b in bundles]

    def complete(data: bytes, which: int) -> bool:
        files_now = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()
                     and not p.name.endswith(TEMP_SUFFIX)}
        versions = [all(files_now.get(name) == body for name, body in e.items()) for e in expected]
        assert any(versions), "the folder mixes files of the two versions"
        scripts = [f.path for f in bundles[0].files if f.executable and f.path in files_now]
        assert all(os.access(out / name, os.X_OK) for name in scripts), "a script was left without its x bit"
        assert data == expected[which if versions[which] else 1 - which][str(target.relative_to(out))]
        return versions[which]

    _kill_many(target, writes, complete)
    _no_temporaries_after_restart(out)


def test_every_kind_uses_the_atomic_writer() -> None:
    """The kinds above are all there is: every writer in app/ goes through app.export.atomic."""
    import re

    direct = []
    for path in (ROOT / "app").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            if re.search(r"""\.open\(\s*["']w|open\([^)]*["']w[b+]?["']|\.write_text\(|\.write_bytes\(""", line) \
                    and path.name != "atomic.py" and "tmp" not in line:
                direct.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert direct == [], "files written without app.export.atomic:\n" + "\n".join(direct)
    assert atomic.atomic_write is not None

"""The window's Measurements page over a temporary catalog: import (all or none, the bad line named), show a
profile as `measure show` does, delete; and the scenario form's field naming the profiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.gui.measurements_page import MeasurementsPage
from app.services.catalog_source import CatalogSource

FIXTURES = Path(__file__).resolve().parents[2] / "models" / "measurements" / "fixtures"


@pytest.fixture
def source(tmp_path: Path):  # type: ignore[no-untyped-def]
    src = CatalogSource.open(f"sqlite:///{tmp_path / 'catalog.sqlite'}")
    yield src
    src.close()


@pytest.fixture
def page(qtbot, source: CatalogSource) -> MeasurementsPage:  # type: ignore[no-untyped-def]
    p = MeasurementsPage(source)
    qtbot.addWidget(p)
    p.resize(1200, 760)
    return p


def test_import_shows_the_profile_and_delete_removes_it(page: MeasurementsPage, source: CatalogSource,
                                                        tmp_path: Path) -> None:
    files = [str(FIXTURES / "gpcheckperf_dsN_D.txt"), str(FIXTURES / "pgbench_tpcb_sweep.txt")]
    server = source.snapshot.servers[0].id
    page.ask_import = lambda *_: (files, "lab-gen5", server)
    page.import_button.click()
    assert [page.profiles.item(i).text() for i in range(page.profiles.count())] == ["lab-gen5"]
    text = page.details.toPlainText()
    assert f"measurement profile lab-gen5 (server {server})" in text
    assert "disk_read" in text and "sdw3 -> sdw4" in text and "USL: lambda" in text
    assert "Created lab-gen5" in page.message.text()
    page.delete_selected()
    assert page.profiles.count() == 0 and "No profiles yet" in page.details.toPlainText()
    if shot := __import__("os").environ.get("REFARCH_SCREENSHOT_DIR"):  # on demand: look at the page
        page.ask_import = lambda *_: (files, "lab-gen5", server)
        page.import_button.click()
        page.grab().save(str(Path(shot) / "measurements-page.png"))


def test_a_bad_file_stores_nothing_and_names_its_line(page: MeasurementsPage) -> None:
    bad = [str(FIXTURES / "hammerdb_sweep.csv"), str(FIXTURES / "pgbench_truncated.txt")]
    assert not page.import_files(bad, "lab", None)
    assert page.profiles.count() == 0
    assert "nothing was stored" in page.message.text() and "line 51" in page.message.text()


def test_the_form_edits_the_profile_names_of_a_scenario(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.editing.fields import PLATFORM_FIELDS
    from app.gui.field_widgets import FieldEditor

    spec = next(s for s in PLATFORM_FIELDS if s.path == ("platform", "measurements"))
    editor = FieldEditor(spec)
    qtbot.addWidget(editor.container)
    seen: list[object] = []
    editor.edited.connect(lambda _path, value: seen.append(value))
    editor.show_value(["lab-gen5", "tpcb-lab"])
    assert editor.widget.text() == "lab-gen5, tpcb-lab"  # type: ignore[attr-defined]
    editor.widget.setText("lab-gen5, ,x")  # type: ignore[attr-defined]
    editor.widget.textEdited.emit("lab-gen5, ,x")  # type: ignore[attr-defined]
    assert seen == [["lab-gen5", "x"]] and editor.value() == ["lab-gen5", "x"]


def test_the_estimates_tab_shows_measured_against_modelled(qtbot, seed) -> None:  # type: ignore[no-untyped-def]
    import json
    from datetime import UTC, datetime

    from app.gui.results_view import ResultsView, Status
    from models.measurements.detect import parse_measurement
    from models.measurements.profile import MeasurementProfile, ProfileFile
    from models.scenario import parse_scenario
    from models.sizing.engine import size

    name = "gpcheckperf_slow_disks_10gbe.txt"
    now = datetime(2026, 11, 29, tzinfo=UTC)
    prof = MeasurementProfile("slow", None, now, (ProfileFile(
        name, now, parse_measurement((FIXTURES / name).read_text(encoding="utf-8"), name)),))
    samples = Path(__file__).resolve().parents[3] / "resources" / "samples"
    doc = json.loads((samples / "retail-dw-gen5.json").read_text(encoding="utf-8"))
    doc["platform"]["measurements"] = ["slow"]
    scenario = parse_scenario(doc)
    result = size(scenario, seed, profiles={"slow": prof})
    view = ResultsView()
    qtbot.addWidget(view)
    view.show_result(result, scenario, Status())
    text = view.calibration.text()
    assert not view.calibration.isHidden() and "Measured vs modelled" in text and "Sized on slow" in text
    assert "Disk read" in text and "below 0.9 x" in text
    plain = size(parse_scenario(json.loads((samples / "retail-dw-gen5.json").read_text(encoding="utf-8"))), seed)
    view.show_result(plain, scenario, Status())
    assert view.calibration.isHidden()


def test_the_measured_hosts_drives_go_with_the_import(page: MeasurementsPage, source: CatalogSource) -> None:
    """The window's import says the measured hosts' data drives as `measure import --drives --drive` does, and a
    count beyond the server's bays is refused, nothing stored, in words without a command-line option."""
    files = [str(FIXTURES / "gpcheckperf_dsN_D.txt")]
    server = source.snapshot.servers[0]
    drive = source.snapshot.drives[0].id
    page.ask_import = lambda *_: (files, "lab", server.id, (server.data_bays + 1, drive))
    page.import_button.click()
    assert page.profiles.count() == 0 and "data drives per measured host: must be 1-" in page.message.text()
    assert "--" not in page.message.text()
    page.ask_import = lambda *_: (files, "lab", server.id, (2, drive))
    page.import_button.click()
    assert f"data drives per host: 2 x {drive}" in page.details.toPlainText()
    store = source.store
    assert store is not None and store.measurement_profile("lab").data_drives == 2


def test_the_import_dialog_asks_for_the_drives(qtbot) -> None:  # type: ignore[no-untyped-def]
    from app.gui.measurements_page import ImportDialog

    d = ImportDialog(None, ["a.txt"], [("s1", "Server 1")], "lab", [("d1", "Drive 1")])
    qtbot.addWidget(d)
    assert d.drives.value() == 0 and d.drives.specialValueText() == "(not said)"
    assert [d.drive.itemData(i) for i in range(d.drive.count())] == [None, "d1"]

"""The rack elevation: every label drawn inside its slot, the part named by its model, not cut mid-word."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from reportlab.graphics.shapes import Rect, String

from app.export.fonts import report_fonts, string_width
from app.export.rack_drawing import FILLS, rack_drawings, slot_label
from models.scenario import Scenario
from models.sizing.result import SizingResult
from tests.app.export.conftest import SCENARIO_FILES


@pytest.mark.parametrize("name", [p.name for p in SCENARIO_FILES])
@pytest.mark.parametrize("width", [481.0, 300.0])  # the report's frame, and a narrow one that forces shortening
def test_every_slot_label_stays_in_its_box(sized: Callable[[str], tuple[Scenario, SizingResult]], name: str,
                                           width: float) -> None:
    _, r = sized(name)
    fonts = report_fonts()
    labels = 0
    for drawing in rack_drawings(r.racks, width, fonts):
        boxes = [i for i in drawing.contents if isinstance(i, Rect) and i.fillColor in FILLS.values()]
        for item in drawing.contents:
            if not isinstance(item, String):
                continue
            box = next((b for b in boxes if b.x <= item.x <= b.x + b.width and b.y <= item.y <= b.y + b.height), None)
            if box is None:  # a rack's title, U numbers, the legend
                continue
            right = item.x + string_width(item.text, item.fontName, item.fontSize, fonts)
            assert right <= box.x + box.width, (name, item.text, right, box.x + box.width)
            assert item.y + item.fontSize * 0.8 <= box.y + box.height, (name, item.text)  # cap height inside
            if width > 400:  # the report's width: the model number is never cut (it was "PowerSwitch S4148F-…")
                assert not item.text.endswith("…"), (name, item.text)
            labels += 1
    assert labels >= sum(len(rack.slots) for rack in r.racks) - sum(1 for rack in r.racks for s in rack.slots
                                                                     if s.kind == "pdu")


def test_a_long_label_keeps_its_model_number_in_whole_words() -> None:
    fonts = report_fonts()
    label = "PowerSwitch S4148F-ON 48x10GbE + 4x100GbE"
    lines, size = slot_label("leaf switch", label, 95.0, 4.8, fonts)
    assert lines == ["leaf switch: PowerSwitch S4148F-ON"] and size <= 4.8
    lines, _ = slot_label("leaf switch", label, 300.0, 4.8, fonts)
    assert lines == [f"leaf switch: {label}"]  # room: the whole label
    lines, size = slot_label("database host", "ThinkSystem SR655 V3 (12x 3.5in)", 95.0, 11.2, fonts)
    assert lines == ["database host", "ThinkSystem SR655 V3 (12x 3.5in)"]  # a 2U slot: the role above the part
    assert all(string_width(t, fonts.regular, size, fonts) <= 95.0 for t in lines)

"""`pdf_blocks.fitting_size` bisects the font sizes a step-down loop would try and lands on the same one."""

from __future__ import annotations

import random

from app.export.fonts import report_fonts, string_width
from app.export.pdf_blocks import fitting_size


def _stepping(s: str, font: str, width: float, max_size: float, min_size: float) -> float:
    fonts = report_fonts()
    size = max_size
    while size > min_size and string_width(s, font, size, fonts) > width:
        size -= 0.2
    return size


def test_same_size_as_stepping_down_one_step_at_a_time() -> None:
    fonts = report_fonts()
    rng = random.Random(7)
    for _ in range(400):
        s = "".join(rng.choice("abcXYZ 0123-_/·東") for _ in range(rng.randint(0, 60)))
        width, max_size, min_size = rng.uniform(5, 300), rng.choice([7.5, 8.0, 6.4]), rng.choice([5.2, 4.5, 6.0])
        for font in (fonts.regular, fonts.bold):
            assert fitting_size(s, font, width, fonts, max_size, min_size) == _stepping(s, font, width, max_size,
                                                                                       min_size), (s, width)

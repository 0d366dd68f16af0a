"""reportlab runs with its C accelerator (`rl-accel`, a dependency): pure-Python string widths and number
formatting were a sixth of a report's layout, and the PDF is the same byte for byte either way."""

from __future__ import annotations

import types


def test_reportlab_measures_and_formats_in_c() -> None:
    from reportlab.lib import rl_accel

    for name in ("fp_str", "instanceStringWidthTTF", "escapePDF", "sameFrag"):
        assert isinstance(getattr(rl_accel, name), types.BuiltinFunctionType), name

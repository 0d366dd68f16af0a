"""The charts' colours, without matplotlib: the GUI's figures and the PDF's vector charts paint with these."""

INK = "#1f2933"
WHITE = "#ffffff"
MUTED = "#616e7c"
GRID = "#e4e7eb"
GRID_LIGHT = "#eef0f2"  # grid lines behind bars and curves
ACCENT = "#1f6feb"  # the scenario's own line / bars
BAND = "#9ec5fe"  # the P10-P90 band
GOOD = "#2f9e44"
BAD = "#d9480f"
TARGET = "#c92a2a"
SERIES = ("#1f6feb", "#f08c00", "#2f9e44", "#ae3ec9", "#0c8599", "#e8590c", "#5c7cfa", "#868e96",
          "#a61e4d", "#5f3dc4", "#087f5b", "#fcc419")  # twelve: a BOM has up to eleven part kinds

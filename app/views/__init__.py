"""What a design and a comparison show, as typed rows (key, label, value, unit, source), built once from a
`SizingResult` for every renderer: the CLI text, the window, the PDF (and any later document format). Qt-free and
below `app.export` in the layers, so the exports, the use cases, the window and the CLI all read the same rows."""

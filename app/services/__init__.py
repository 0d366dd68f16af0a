"""The use cases, once: what the window's actions and the CLI's commands both call.

- `sizing`: size a scenario, the estimate-vs-hosts curve (`Curve`)
- `report`: size-for-report (design, growth plan and curve under one error policy), the PDF and the BOM files
- `config_export`: the deployment configuration files of a design
- `optimize`, `whatif` (growth, sensitivity), `compare` (the comparison table)
- `project_files`: a project on disk: atomic save, autosave and crash recovery, the dialogs' start folder
- `catalog_source`: the catalog the window sizes against (its snapshot; the store opened when first needed)

Every use case takes the `models.tasks` pair (`progress`, `cancelled`), raises `models.tasks.Cancelled`
when stopped and `app.services.errors.ServiceError` (a message and `(path, message)` problems) when the
input cannot be used or the output cannot be written; anything else is a bug. No Qt here (import-linter),
and the heavy libraries (the engine, reportlab, matplotlib) load inside the functions that need them, so
`refarch size` and the window's start stay fast.
"""

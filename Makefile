# Two commands on a fresh machine: `make run` (launch the app) and `make test` (the whole suite).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench

$(STAMP): pyproject.toml
	bash scripts/system-deps.sh
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/refarch

# The suite runs on up to 4 worker processes (pytest-xdist; one per core, CI has 2), each module's tests on one
# worker so a module's shared fixtures are built once. The doctests of models, app and catalog run too (the
# window's modules import Qt: offscreen). The alembic migration scripts are left out: they run only inside
# alembic's own context, which importing them lacks.
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/ruff check .
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/mypy
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n auto --maxprocesses 4 --dist loadscope
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q --doctest-modules models app catalog \
		--ignore=catalog/migrations

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/refarch bench

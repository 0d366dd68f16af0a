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

# The doctests of models, app and catalog run too (the window's modules import Qt: offscreen). The alembic
# migration scripts are left out: they run only inside alembic's own context, which importing them lacks.
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/ruff check .
	QT_QPA_PLATFORM=offscreen $(BIN)/lint-imports
	$(BIN)/mypy
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q --doctest-modules models app catalog \
		--ignore=catalog/migrations

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/refarch bench

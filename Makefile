# Both targets bootstrap their own environment: a small tool venv holding uv,
# then `uv sync --frozen` builds .venv exactly from uv.lock.
PYTHON ?= python3
TOOLS  := .tools
UV     := $(TOOLS)/bin/uv
VENV   := .venv
STAMP  := $(VENV)/.synced
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

.PHONY: run test lint typecheck pytest bench clean

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check "uv==0.13.9"

$(STAMP): $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --quiet --python $(PYTHON)
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/apokalypse play

test: lint typecheck pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP)
	$(VENV)/bin/pytest --cov --cov-report=term:skip-covered

bench: $(STAMP)
	$(VENV)/bin/apokalypse bench

clean:
	rm -rf $(VENV) $(TOOLS)

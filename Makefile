# Both targets bootstrap their own environment: a small tool venv holding uv,
# then `uv sync --frozen` builds .venv exactly from uv.lock.
PYTHON ?= python3
TOOLS  := .tools
UV     := $(TOOLS)/bin/uv
VENV   := .venv
STAMP  := $(VENV)/.synced
# The browser pages' build stamp (inside the build: deleting the build deletes it too) and what
# the build depends on (the `web` target below).
WEB_STAMP   := src/apokalypse/web/dist/.built
WEB_SOURCES := web/package-lock.json $(wildcard web/*.json web/*.ts web/*.html web/scripts/*) \
               $(shell find web/src -path web/src/wire -prune -o -type f -print 2>/dev/null) \
               $(wildcard schema/*)
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

.PHONY: run play test lint typecheck pytest bench clean web

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check "uv==0.13.9"

$(STAMP): $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --quiet --python $(PYTHON)
	touch $(STAMP)

# The web app on http://127.0.0.1:8000 over an embedded SQLite file (apokalypse.sqlite3).
run: $(STAMP) $(WEB_STAMP)
	$(VENV)/bin/apokalypse serve

# The game in the terminal.
play: $(STAMP)
	$(VENV)/bin/apokalypse play

test: lint typecheck pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/ruff format --check src tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy

pytest: $(STAMP) $(WEB_STAMP)
	$(VENV)/bin/pytest --cov --cov-report=term:skip-covered

# The browser pages (web/, TypeScript + Preact built by Vite into src/apokalypse/web/dist): npm ci
# and the build run again only when the lock file, the sources, the configs or the wire schemas
# changed (the stamp WEB_STAMP).
web: $(WEB_STAMP)

$(WEB_STAMP): $(WEB_SOURCES)
	cd web && npm ci --no-audit --no-fund && npm run build
	touch $(WEB_STAMP)

bench: $(STAMP)
	$(VENV)/bin/apokalypse bench

clean:
	rm -rf $(VENV) $(TOOLS)

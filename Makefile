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
               $(wildcard web/sw/* web/public/* web/public/icons/*) \
               $(wildcard schema/*)
# The compiled build of the rules (mypyc, scripts/build_compiled.py) and what it is made from: the
# rules and engine sources, the build script and the package's build chooser, the locked mypy. It
# lives in build/mypyc, never in src/; the package loads it only while its manifest's hashes match
# the sources (src/apokalypse/_build.py). No C compiler: the script says so and the pure-Python
# rules run (the manifest is then never made, and the next make asks again, at no cost).
COMPILED_STAMP   := build/mypyc/manifest.json
COMPILED_SOURCES := $(shell find src/apokalypse/engine src/apokalypse/games -name '*.py' 2>/dev/null) \
                    scripts/build_compiled.py src/apokalypse/_build.py uv.lock
# The tests run again on the other build: the rules, their determinism and the recorded games.
# Not the players' strength nor the terminal sessions: the bots are pure Python in both builds, and
# those tests are about a quarter of the run's time (the searching player's strength, 90 s traced).
RULES_TESTS := tests/apokalypse tests/apokerlypse tests/test_determinism.py tests/test_golden.py \
               tests/test_old_records.py tests/test_record_digest.py tests/test_conformance.py \
               tests/test_ismcts.py tests/test_builds.py tests/rl/test_features.py \
               $(foreach g,apokalypse apokerlypse,--ignore=tests/$(g)/test_bots.py \
                                                  --ignore=tests/$(g)/test_cli_play.py) \
               --deselect tests/test_ismcts.py::test_it_beats_the_random_player_at_two_player_apokerlypse
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

.PHONY: run play test lint typecheck pytest bench clean web compiled cards-reference docs

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check "uv==0.13.9"

$(STAMP): $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --all-extras --quiet --python $(PYTHON)
	touch $(STAMP)

# The web app on http://127.0.0.1:8000 over an embedded SQLite file (apokalypse.sqlite3).
run: $(STAMP) $(WEB_STAMP) $(COMPILED_STAMP)
	$(VENV)/bin/apokalypse serve

# The documentation site (docs/, mkdocs.yml) on http://127.0.0.1:8001, built again as a page
# changes (make test builds it strictly: tests/test_docs_site.py).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8001

# The game in the terminal.
play: $(STAMP) $(COMPILED_STAMP)
	$(VENV)/bin/apokalypse play

# The checks that need no test run go side by side (their output each in one piece), with the
# browser pages' and the compiled rules' builds; then the tests.
test:
	$(MAKE) --jobs=4 --output-sync=target lint typecheck web compiled
	$(MAKE) pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests scripts
	$(VENV)/bin/ruff format --check src tests scripts

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# Every test on the compiled build, and at the same time the rules tests again on the pure-Python
# one; coverage is measured in both and reported together (scripts/pytest_both_builds.sh). Without
# a compiled build: every test, pure, with coverage. Each run spreads its tests over pytest-xdist
# workers; PYTEST_WORKERS and PURE_WORKERS set how many.
PYTEST_WORKERS ?= 3
PURE_WORKERS   ?= 1
pytest: $(STAMP) $(WEB_STAMP) $(COMPILED_STAMP)
	@if [ -f $(COMPILED_STAMP) ]; then \
	    scripts/pytest_both_builds.sh $(VENV) $(PYTEST_WORKERS) $(PURE_WORKERS) $(RULES_TESTS); \
	else \
	    echo "pytest: no compiled build, every test on the pure-Python build"; \
	    APOKALYPSE_BUILD=pure $(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist loadgroup \
	        --cov --cov-report=term:skip-covered; \
	fi

# The browser pages (web/, TypeScript + Preact built by Vite into src/apokalypse/web/dist): npm ci
# and the build run again only when the lock file, the sources, the configs or the wire schemas
# changed (the stamp WEB_STAMP).
web: $(WEB_STAMP)

$(WEB_STAMP): $(WEB_SOURCES)
	cd web && npm ci --no-audit --no-fund && npm run build
	touch $(WEB_STAMP)

# The rules reference's list of Apokerlypse's cards and abilities, generated from the default
# content (tests/apokerlypse/test_reference.py fails when it is stale).
cards-reference: $(STAMP)
	$(VENV)/bin/python -m apokalypse.i18n.apokerlypse.reference standard-2 docs/rules/apokerlypse-cards.md

bench: $(STAMP) $(COMPILED_STAMP)
	$(VENV)/bin/apokalypse bench

# MYPYC_OPT_LEVEL (default 2) and BUILD_JOBS (default: the cores) tune the build.
compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(COMPILED_SOURCES)
	$(VENV)/bin/python scripts/build_compiled.py

clean:
	rm -rf $(VENV) $(TOOLS) build

#!/usr/bin/env bash
# make pytest: every test on the compiled build of the rules (the build `make run` serves), and at
# the same time the rules tests on the pure-Python build. The two runs go at once because they fill
# each other's gaps: the compiled run waits on servers, browsers and subprocesses, the pure run
# computes. Each run spreads its tests over workers (pytest-xdist); the compiled run's output is
# live, the pure run's comes when both are done.
#
# Coverage is measured in both and reported as one figure: compiled code cannot be traced, so the
# rules' lines are counted in the pure run, and everything else (players, server, lab, terminal)
# in the compiled run, where the tests that reach it run. The rules tests alone reach less than
# half of the package.
#
# usage: scripts/pytest_both_builds.sh VENV COMPILED_WORKERS PURE_WORKERS RULES_TESTS…
set -u
venv=$1 compiled_workers=$2 pure_workers=$3
shift 3
log=build/pytest-pure.log
mkdir -p build
rm -f build/.coverage build/.coverage.*

echo "pytest: the rules tests on the pure-Python build ($pure_workers workers," \
     "in the background: $log)"
COVERAGE_FILE=build/.coverage.pure APOKALYPSE_BUILD=pure "$venv/bin/pytest" -n "$pure_workers" \
    --dist loadgroup --cov --cov-report= --cov-fail-under=0 "$@" >"$log" 2>&1 &
pure=$!
# Stop the background run too when this one is interrupted.
trap 'kill "$pure" 2>/dev/null; exit 130' INT TERM

echo "pytest: every test on the compiled build ($compiled_workers workers)"
COVERAGE_FILE=build/.coverage.compiled APOKALYPSE_BUILD=compiled "$venv/bin/pytest" \
    -n "$compiled_workers" --dist loadgroup --cov --cov-report= --cov-fail-under=0
compiled_status=$?

wait "$pure"
pure_status=$?
echo
echo "pytest: the rules tests on the pure-Python build ($log):"
cat "$log"
if [ "$compiled_status" -ne 0 ] || [ "$pure_status" -ne 0 ]; then
    echo "pytest: failed (compiled build: exit $compiled_status, pure-Python build: exit $pure_status)"
    exit 1
fi

echo
echo "pytest: coverage of both runs together (fails below [tool.coverage.report] fail_under)"
export COVERAGE_FILE=build/.coverage
"$venv/bin/coverage" combine --quiet build/.coverage.compiled build/.coverage.pure &&
    "$venv/bin/coverage" report --skip-covered

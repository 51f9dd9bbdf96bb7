#!/usr/bin/env bash
# The whole test suite, on a fresh machine: makes its own virtual environment (.venv),
# installs the kit with its test extras, checks the code with ruff (lint and format, as
# configured in pyproject.toml), installs the distribution's Chromium for the browser tests
# when it can, and runs pytest. The end-to-end tests fetch the pinned Claude Code client from
# the npm registry into .test-cache/ the first time they run.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k encoding -x`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python=${PYTHON:-python3}
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
    echo "tests/run.sh: creating $venv" >&2
    "$python" -m venv "$venv"
fi
# Quiet, but not silent on failure; skip the network round-trip when nothing changed.
stamp="$venv/.installed-$(cat pyproject.toml | cksum | cut -d' ' -f1)"
if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[test]"
    touch "$stamp"
fi
# The view's browser tests drive the distribution's Chromium through Playwright (no browser is
# downloaded): install it where we can (root with apt). Under CI=true those tests fail without it.
if [ -z "${SESSION_KIT_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "tests/run.sh: installing chromium (apt-get) for the browser tests" >&2
        { apt-get install -y -qq chromium || { apt-get update -qq && apt-get install -y -qq chromium; }; } >/dev/null 2>&1 ||
            echo "tests/run.sh: could not install chromium; the browser tests will skip (fail under CI=true)" >&2
    else
        echo "tests/run.sh: no chromium (install the distribution's package); the browser tests will skip (fail under CI=true)" >&2
    fi
fi
"$venv/bin/ruff" check --quiet src tests benchmarks
"$venv/bin/ruff" format --check --quiet src tests benchmarks
exec "$venv/bin/python" -m pytest "$@"

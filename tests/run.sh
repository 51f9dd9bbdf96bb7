#!/usr/bin/env bash
# The whole test suite, on a fresh machine: makes its own virtual environment, installs the
# kit with its test extras (and the `team` extra: psycopg 3; the `mcp` extra: the MCP SDK), checks the code with ruff (lint
# and format, as configured in pyproject.toml), installs the distribution's Chromium for the
# browser tests and its PostgreSQL server for the team tests when it can, and runs pytest. The
# end-to-end tests fetch the pinned Claude Code client from the npm registry the first time
# they run.
# Extra arguments go to pytest, e.g. `bash tests/run.sh -k encoding -x`.
#
# Nothing big is kept in the checkout, so a plugin or marketplace copy of it stays small: the
# environment is in the user cache (${XDG_CACHE_HOME:-~/.cache}/claude-session-kit/dev/
# <checkout>-<hash>/venv, or $SESSION_KIT_DEV_VENV), with a link to it named .venv in the
# checkout (`.venv/bin/python ...`; the client leaves links out of a plugin's copy), the
# bytecode and the test tools' caches beside it, and the client in ${XDG_CACHE_HOME:-~/.cache}/claude-session-kit/test-cache (tests/e2e/client.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python=${PYTHON:-python3}
cache_home=${XDG_CACHE_HOME:-$HOME/.cache}/claude-session-kit
venv=${SESSION_KIT_DEV_VENV:-$cache_home/dev/$(basename "$root")-$(printf '%s' "$root" | cksum | cut -d' ' -f1)/venv}
if [ -L "$root/.venv" ] || [ ! -e "$root/.venv" ]; then
    ln -sfn "$venv" "$root/.venv"
else
    echo "tests/run.sh: $root/.venv is an environment an older run left in the checkout; remove it" \
        "(rm -rf .venv): a marketplace copy of the checkout would carry it. Using $venv" >&2
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "tests/run.sh: creating $venv" >&2
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv"
fi
# Quiet, but not silent on failure; skip the network round-trip when nothing changed.
stamp="$venv/.installed-$(cat pyproject.toml | cksum | cut -d' ' -f1)"
if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e ".[test,team,mcp]"
    touch "$stamp"
fi
# As root with apt, the two system packages below (and only what they depend on: no
# Recommends, which for chromium are ~100 desktop packages), with apt's progress on stderr.
apt_install() {
    echo "tests/run.sh: installing $1 (apt-get, without recommended packages) for $2" >&2
    apt-get install -y --no-install-recommends "$1" >&2 ||
        { apt-get update && apt-get install -y --no-install-recommends "$1"; } >&2
}
# The view's browser tests drive the distribution's Chromium through Playwright (no browser is
# downloaded): install it where we can (root with apt). Under CI=true those tests fail without it.
if [ -z "${SESSION_KIT_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt_install chromium "the browser tests" ||
            echo "tests/run.sh: could not install chromium; the browser tests will skip (fail under CI=true)" >&2
    else
        echo "tests/run.sh: no chromium (install the distribution's package); the browser tests will skip (fail under CI=true)" >&2
    fi
fi
# The team tests (`sync`, `--team`) start a PostgreSQL server of their own (initdb + pg_ctl in a
# temporary folder, tests/support/postgres.py): install the distribution's server where it is missing
# (root with apt). Under CI=true those tests fail without it.
pg_server() {
    local dir
    for dir in "${SESSION_KIT_POSTGRES:-}" "$(pg_config --bindir 2>/dev/null || true)" /usr/lib/postgresql/*/bin; do
        [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && return 0
    done
    command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}
if ! pg_server; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt_install postgresql "the team tests" ||
            echo "tests/run.sh: could not install postgresql; the team tests will skip (fail under CI=true)" >&2
    else
        echo "tests/run.sh: no PostgreSQL server (install the distribution's postgresql package); the team tests will skip (fail under CI=true)" >&2
    fi
fi
# What a run leaves (Python's bytecode, Hypothesis's examples, pytest's and ruff's caches) goes
# to the user cache too, beside the environment, not into the checkout.
caches=$cache_home/dev/$(basename "$root")-$(printf '%s' "$root" | cksum | cut -d' ' -f1)
# Bytecode only where Python writes it: with PYTHONDONTWRITEBYTECODE set nothing lands in the
# checkout, and a prefix would make every process compile the standard library and the site
# packages from source again (their own bytecode is not read under a prefix: 5x slower starts).
if [ -z "${PYTHONDONTWRITEBYTECODE:-}" ]; then
    export PYTHONPYCACHEPREFIX=${PYTHONPYCACHEPREFIX:-$caches/pycache}
fi
export HYPOTHESIS_STORAGE_DIRECTORY=${HYPOTHESIS_STORAGE_DIRECTORY:-$caches/hypothesis}
export RUFF_CACHE_DIR=${RUFF_CACHE_DIR:-$caches/ruff}
"$venv/bin/ruff" check --quiet src tests benchmarks
"$venv/bin/ruff" format --check --quiet src tests benchmarks
# The redactor's rule and recall suites run twice: through the compiled pass (hyperscan, for
# every text: tests/conftest.py) and through `re` alone; both must give the same results.
if [ $# -eq 0 ]; then
    SESSION_KIT_REDACT_ENGINE=re "$venv/bin/python" -m pytest -q -o cache_dir="$caches/pytest" \
        tests/test_redact.py tests/test_redact_before_cut.py tests/test_redact_heldout.py \
        tests/test_redact_placeholders.py tests/test_find_secrets.py tests/test_secret_contexts.py \
        tests/redaction tests/real/test_redaction.py
fi
exec "$venv/bin/python" -m pytest -o cache_dir="$caches/pytest" "$@"

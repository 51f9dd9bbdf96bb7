#!/usr/bin/env bash
# Install claude-session-kit for this user: the CLI, then its hooks and slash commands into
# Claude Code (`session-kit install`), then check it all with `session-kit doctor`.
#
#   ./install.sh              install (or upgrade); again at any time: it is idempotent
#   ./install.sh --uninstall  take the hooks and commands out, then remove what it installed
#                             (the kit's state dir, with your sessions' scratch and archive, stays)
#   ./install.sh --with team  also an optional extra (team: `sync` and `--team`, PostgreSQL;
#                             parquet: `export --format parquet`; comma-separated for both),
#                             kept by every later ./install.sh
#
# Like pipx and uv: the kit lives in its own virtual environment
# ($SESSION_KIT_VENV, default ${XDG_DATA_HOME:-~/.local/share}/claude-session-kit/venv) and a
# launcher goes to ${SESSION_KIT_BIN:-~/.local/bin}/session-kit. Claude Code's root is
# $CLAUDE_CONFIG_DIR, else ~/.claude; extra arguments go to `session-kit install`. For one
# project only, run it from that project's folder:
#   cd ~/code/myproject && ~/src/claude-session-kit/install.sh --scope local
# (the hooks go to that project's .claude/settings.local.json, the slash commands to your own
# ~/.claude/commands: Claude Code has no per-person commands folder in a project, and a
# repository commits its .claude/commands/; the project scope is refused: its settings file is committed, the hooks' paths are yours
# alone; share the kit with a team as a plugin instead).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data_home=${XDG_DATA_HOME:-$HOME/.local/share}
venv=${SESSION_KIT_VENV:-$data_home/claude-session-kit/venv}
bindir=${SESSION_KIT_BIN:-$HOME/.local/bin}
launcher="$bindir/session-kit"
python=${PYTHON:-python3}

say() { printf 'install.sh: %s\n' "$*" >&2; }

uninstall() {
    state=
    if [ -x "$venv/bin/session-kit" ]; then
        "$venv/bin/session-kit" uninstall "$@" || say "warning: session-kit uninstall failed; hooks may remain in settings.json"
        state=$("$venv/bin/python" -c 'from session_kit.state.root import state_root; print(state_root())' 2>/dev/null) || state=
    fi
    if [ -L "$launcher" ] && [ "$(readlink "$launcher")" = "$venv/bin/session-kit" ]; then
        rm -f "$launcher"
        say "removed $launcher"
    elif [ -e "$launcher" ]; then
        say "left $launcher alone: it is not this kit's launcher"
    fi
    if [ -d "$venv" ]; then
        rm -rf "$venv"
        say "removed $venv"
    fi
    rmdir "$data_home/claude-session-kit" 2>/dev/null || true  # when empty: the plugin's environment may be there
    if [ -n "$state" ] && [ -d "$state" ] && ! rmdir "$state" 2>/dev/null; then
        say "kept $state: your sessions' scratch dirs, working memory, archive and index (delete it to drop them)"
    fi
    say "uninstalled"
}

case "${1:-}" in
    --uninstall) shift; uninstall "$@"; exit 0 ;;
    # the header comment, up to the first line that is not one
    -h|--help) sed -n '2,$p' "$0" | sed '/^[^#]/,$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
esac

# --with EXTRA[,EXTRA]: the optional extras, added to those an earlier run installed (written
# into the environment, so a reinstall keeps them).
extras_file="$venv/.session-kit-extras"
extras=$(cat "$extras_file" 2>/dev/null || true)
args=()
while [ $# -gt 0 ]; do
    case "$1" in
        --with) [ $# -ge 2 ] || { say "--with needs an extra: team or parquet"; exit 2; }
                extras="$extras,$2"; shift 2 ;;
        --with=*) extras="$extras,${1#--with=}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
set -- ${args[@]+"${args[@]}"}
extras=$(printf '%s' "$extras" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)
for extra in ${extras//,/ }; do
    case "$extra" in
        team|parquet|mcp) ;;  # mcp: always installed, accepted for the hints' sake
        *) say "unknown extra '$extra' (the kit has: team, parquet, mcp)"; exit 2 ;;
    esac
done

# A project scope writes into the current folder's .claude/: from the kit's own checkout that
# would install the kit into itself. The project scope itself is refused (as `session-kit
# install` refuses it), here before anything is installed.
for arg in "$@"; do
    case "$arg" in
        project|--scope=project)
            say "--scope project is refused: .claude/settings.json is the file teams commit, and the kit's hooks name this machine's paths; use --scope local or load the kit as a plugin (see the README)"
            exit 2 ;;
    esac
    case "$arg" in
        local|project|--scope=local|--scope=project)
            if [ "$(pwd -P)" = "$(cd "$here" && pwd -P)" ]; then
                say "run it from your project's folder: cd /path/to/project && $here/install.sh $*"
                exit 2
            fi ;;
    esac
done

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    say "needs Python 3.10 or newer as '$python' (set PYTHON=/path/to/python3)"
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    say "creating $venv"
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv"
fi
say "installing the kit${extras:+ with $extras} into $venv"
# pip builds in the checkout (build/, src/*.egg-info): what this run left there goes again, or
# the plugin copy the client makes of the checkout carries it.
leftovers=$(cd "$here" && ls -d build src/*.egg-info 2>/dev/null || true)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$here[mcp${extras:+,$extras}]"
for made in $(cd "$here" && ls -d build src/*.egg-info 2>/dev/null || true); do
    case " $(printf '%s ' $leftovers)" in *" $made "*) ;; *) rm -rf "${here:?}/$made" ;; esac
done
printf '%s\n' "$extras" > "$extras_file"
printf '%s\n' "$here" > "$venv/.session-kit-source"  # the route an extra's hint names (session_kit.extras)

mkdir -p "$bindir"
if [ -e "$launcher" ] && ! { [ -L "$launcher" ] && [ "$(readlink "$launcher")" = "$venv/bin/session-kit" ]; }; then
    say "left $launcher alone: something else is there (run $venv/bin/session-kit directly)"
else
    ln -sfn "$venv/bin/session-kit" "$launcher"
    say "launcher: $launcher"
fi
case ":$PATH:" in
    *":$bindir:"*) ;;
    *) say "warning: $bindir is not on your PATH; add it, e.g. export PATH=\"$bindir:\$PATH\"" ;;
esac

"$venv/bin/session-kit" install "$@"
"$venv/bin/session-kit" doctor

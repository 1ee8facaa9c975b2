#!/usr/bin/env bash
# The README's test command (`npm run test:all`): installs what the tests need when it is
# missing, then typechecks, lints and runs the whole jest suite. Ends with the line
#   tests: N passed, N failed
# computed from jest's JSON results. Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
out="$root/.ci/out"
mkdir -p "$out"

log() { printf '\n== %s\n' "$*"; }

# --- system packages --------------------------------------------------------------------------
# better-sqlite3 compiles from source here (no prebuilt download): it needs python3, make, g++.
need_pkgs=()
command -v python3 >/dev/null || need_pkgs+=(python3)
command -v make >/dev/null || need_pkgs+=(make)
command -v g++ >/dev/null || need_pkgs+=(g++)
# Boxes: bubblewrap isolates them; nsenter (util-linux) joins one; cp and du take snapshots.
command -v bwrap >/dev/null || need_pkgs+=(bubblewrap)
command -v nsenter >/dev/null || need_pkgs+=(util-linux)
# The desktop: a display, input, screenshots, a real window for tests, recordings, narration.
command -v Xvfb >/dev/null || need_pkgs+=(xvfb)
command -v xdotool >/dev/null || need_pkgs+=(xdotool)
command -v xwd >/dev/null || need_pkgs+=(x11-apps)
command -v xdpyinfo >/dev/null || need_pkgs+=(x11-utils)
command -v xterm >/dev/null || need_pkgs+=(xterm)
command -v ffmpeg >/dev/null || need_pkgs+=(ffmpeg)
# The live desktop view: one x11vnc per person watching, on the box's display.
command -v x11vnc >/dev/null || need_pkgs+=(x11vnc)
command -v espeak-ng >/dev/null || need_pkgs+=(espeak-ng)
# The sandbox accessibility tree: a session bus, the AT-SPI bus and pyatspi in the box, GTK apps.
command -v dbus-launch >/dev/null || need_pkgs+=(dbus-x11)
[ -x /usr/libexec/at-spi-bus-launcher ] || need_pkgs+=(at-spi2-core)
/usr/bin/python3 -c 'import gi, pyatspi' 2>/dev/null || need_pkgs+=(python3-gi python3-pyatspi)
[ -f /usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib ] || need_pkgs+=(gir1.2-gtk-3.0)
# Repositories: real git and `git http-backend` (the forge double); egress: curl inside boxes.
command -v git >/dev/null || need_pkgs+=(git)
command -v curl >/dev/null || need_pkgs+=(curl)
[ -x /usr/lib/git-core/git-http-backend ] || need_pkgs+=(git)
# Jobs: the BullMQ tests start their own redis-server processes on free ports.
command -v redis-server >/dev/null || need_pkgs+=(redis-server)
[ -d /usr/share/fonts/truetype/dejavu ] || need_pkgs+=(fonts-dejavu-core)
# The web UI's browser tests: Debian's Chromium, driven by playwright-core (never a downloaded browser).
[ -x /usr/bin/chromium ] || need_pkgs+=(chromium)
# The terminal MCP's tests: a real OpenSSH sshd on a loopback port (and ssh-keygen for its keys).
[ -x /usr/sbin/sshd ] || need_pkgs+=(openssh-server)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  log "installing system packages: ${need_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
fi

# --- node modules -----------------------------------------------------------------------------
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  log "npm ci"
  npm ci --no-audit --no-fund || { echo "tests: 0 passed, 1 failed"; exit 1; }
  touch "$stamp"
fi

status=0
log "typecheck"
npm run -s typecheck || status=1
log "build (what npm start runs)"
npm run -s build >/dev/null || { echo "build failed"; status=1; }
log "lint"
npm run -s lint || status=1

# A login shell killed while pyenv rehashes (a ~/.bashrc that runs `pyenv init`) leaves pyenv's
# lock behind, and every later login shell (a Terminal's bash -l, an sshd session) then waits
# 60 s for it. Sessionboxer does not use pyenv; a lock no running rehash holds is stale (its
# holder is the rehash itself, so a live one is always found). The suite's own tests end login
# shells early (a closed Terminal, an SSH session), so the lock is swept while jest runs too.
lock="$HOME/.pyenv/shims/.pyenv-shim"
sweep_lock() { if [ -e "$lock" ] && ! pgrep -f pyenv-rehash >/dev/null; then rm -f "$lock"; fi; }
sweep_lock
sweeper=""
if [ -d "$HOME/.pyenv" ]; then
  (while sleep 2; do sweep_lock; done) &
  sweeper=$!
fi

log "jest"
rm -f "$out/jest.json"
npx jest --ci --json --outputFile="$out/jest.json" "$@" || status=1
[ -n "$sweeper" ] && kill "$sweeper" 2>/dev/null
if [ -z "${EVENTSTORE_URL:-}" ]; then
  echo "note: the EventStoreDB contract suite (*.esdb.ts) was not collected: EVENTSTORE_URL is not set"
fi

if [ ! -s "$out/jest.json" ]; then
  echo "tests: 0 passed, 1 failed"
  exit 1
fi
node -e '
const r = require(process.argv[1]);
const skipped = r.numPendingTests + r.numTodoTests;
const failed = r.numFailedTests + (r.numRuntimeErrorTestSuites || 0);
let line = `tests: ${r.numPassedTests} passed, ${failed} failed`;
if (skipped) line += `, ${skipped} skipped`;
console.log(line);
process.exit(failed > 0 || r.numPassedTests === 0 ? 1 : 0);
' "$out/jest.json" || status=1
exit $status

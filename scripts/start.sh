#!/usr/bin/env bash
# npm start: the desktop app where an Electron binary can run; otherwise browser mode, said in one
# line. npm run web (--browser) always starts browser mode. Either way the renderer is built first.
# Arguments after the mode go to the app (browser mode: --port, --data, --no-open, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=node_modules/.bin

browser_mode() {
  "$bin_dir/electron-vite" build --logLevel warn
  node scripts/build-web.mjs
  # exec: no wrapper process between npm and the host, so signals reach it once and directly.
  exec node out/web/cli.js "$@"
}

if [ "${1:-}" = "--browser" ]; then
  shift
  browser_mode "$@"
fi

# Why Electron cannot run here, or nothing when it can.
electron_blocker() {
  local rel
  rel=$(cat node_modules/electron/path.txt 2>/dev/null || true)
  if [ -z "$rel" ] || [ ! -x "node_modules/electron/dist/$rel" ]; then
    echo "no Electron binary installed"
  elif [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "no display"
  elif ! ELECTRON_RUN_AS_NODE=1 timeout 20 "node_modules/electron/dist/$rel" --version >/dev/null 2>&1; then
    echo "the Electron binary does not start"
  fi
}

blocker=$(electron_blocker)
if [ -z "$blocker" ]; then
  exec "$bin_dir/electron-vite" preview "$@"
fi
echo "Electron cannot run here ($blocker); starting browser mode instead."
browser_mode "$@"

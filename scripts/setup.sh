#!/usr/bin/env bash
# Installs what OrderDesk needs on a fresh Debian machine: system packages (keytar's libsecret, a
# keyring and D-Bus for the keychain tests, a toolchain for native modules, Chromium for browser mode's
# end-to-end test), the npm dependencies, and Electron's binary (the desktop app) where it can be
# fetched.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
# npm ci does not fetch Electron's binary (its postinstall has no time bound): the step at the end does.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1

apt_packages=(libsecret-1-dev gnome-keyring dbus python3 make g++ chromium)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

# Electron's binary, fetched once (node_modules/electron/install.js) in bounded time. Where it cannot
# be fetched (no network, a blocked host: the build machines) it is said in one line and setup carries
# on: npm start then runs browser mode, and tsc and electron-vite still check the Electron code.
electron_installed() {
  local rel
  rel=$(cat node_modules/electron/path.txt 2>/dev/null || true)
  [ -n "$rel" ] && [ -x "node_modules/electron/dist/$rel" ]
}
if ! electron_installed; then
  electron_log=$(mktemp)
  if ! (unset ELECTRON_SKIP_BINARY_DOWNLOAD && timeout "${ELECTRON_FETCH_TIMEOUT:-300}" node node_modules/electron/install.js) >"$electron_log" 2>&1 || ! electron_installed; then
    # The first line that is not a stack frame says why (e.g. "TypeError: fetch failed"); 124: timed out.
    why=$(grep -v '^[[:space:]]*at ' "$electron_log" | grep -m1 . | cut -c1-160 || true)
    echo "setup: Electron's binary was not fetched (${why:-timed out or no answer}); npm start will run browser mode"
  fi
  rm -f "$electron_log"
fi

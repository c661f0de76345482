#!/usr/bin/env bash
# Installs what OrderDesk needs on a fresh Debian machine: system packages (keytar's libsecret, a
# keyring and D-Bus for the keychain tests, a toolchain for native modules, Chromium for browser mode's
# end-to-end test) and the npm dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
# Electron's binary cannot be downloaded on these machines; Electron code is checked by tsc and electron-vite.
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

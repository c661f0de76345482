#!/usr/bin/env bash
# with-keyring.sh COMMAND [ARG...]
#
# Runs COMMAND against a real but throw-away Secret Service, so keytar/libsecret can be tested on a
# headless machine: a private D-Bus session bus (dbus-run-session), a fresh keyring directory
# (XDG_DATA_HOME) and runtime directory, and gnome-keyring-daemon with only its secrets component,
# unlocked with a random password. The caller's own bus and keyring are never touched. Everything
# is removed when COMMAND ends; COMMAND's exit status is returned.
#
# Needs the Debian packages dbus and gnome-keyring (and libsecret-1-dev to build keytar).
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: with-keyring.sh COMMAND [ARG...]" >&2
  exit 64
fi

missing=()
for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "with-keyring: missing ${missing[*]}; install the Debian packages: apt-get install dbus gnome-keyring" >&2
  exit 69
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/orderdesk-keyring.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/data/keyrings" "$scratch/runtime"
chmod 700 "$scratch/runtime"
export WITH_KEYRING_SCRATCH="$scratch"
export WITH_KEYRING_PASSWORD
WITH_KEYRING_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')

# Not exec: the trap above must run after the session ends.
set +e
dbus-run-session -- bash -c '
  set -euo pipefail
  export XDG_DATA_HOME="$WITH_KEYRING_SCRATCH/data"
  export XDG_RUNTIME_DIR="$WITH_KEYRING_SCRATCH/runtime"
  # --unlock reads the password on stdin and creates the login keyring with it.
  printf "%s" "$WITH_KEYRING_PASSWORD" |
    gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>"$WITH_KEYRING_SCRATCH/daemon.log" || {
    echo "with-keyring: gnome-keyring-daemon failed to start:" >&2
    cat "$WITH_KEYRING_SCRATCH/daemon.log" >&2
    exit 70
  }
  unset WITH_KEYRING_PASSWORD
  # Wait until the Secret Service name is on the bus, so the first keytar call cannot race it.
  for _ in $(seq 1 50); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"; then
      exec "$@"
    fi
    sleep 0.1
  done
  echo "with-keyring: org.freedesktop.secrets did not appear on the session bus" >&2
  exit 70
' with-keyring "$@"
status=$?
set -e
exit "$status"

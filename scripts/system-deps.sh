#!/usr/bin/env bash
# The Debian libraries Qt (PySide6) needs to open a window or render offscreen.
# Installs the missing ones when run as root on Debian/Ubuntu; otherwise prints the command.
set -euo pipefail
command -v dpkg >/dev/null 2>&1 || exit 0  # not Debian: the platform's own Qt prerequisites apply
PACKAGES=(libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 libxcb-cursor0
  libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0 libxcb-shape0
  libxcb-xinerama0 libxcb-xkb1 fonts-dejavu-core)
missing=()
for pkg in "${PACKAGES[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
((${#missing[@]})) || exit 0
if [[ "$(id -u)" == 0 ]]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "refarch needs these system libraries for its window: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi

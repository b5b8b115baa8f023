#!/usr/bin/env bash
# Installs the Debian packages the project needs, only when something is missing.
set -euo pipefail

need=()
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
python3 -c 'import sqlite3' 2>/dev/null || need+=(libsqlite3-0)
# Card-reader tests put the reader emulators behind socat pseudo-terminal pairs.
command -v socat >/dev/null || need+=(socat)
# Streaming: tests start real mosquitto brokers and drive the display page in Chromium.
{ command -v mosquitto || [ -x /usr/sbin/mosquitto ]; } >/dev/null || need+=(mosquitto)
command -v mosquitto_sub >/dev/null || need+=(mosquitto-clients)
command -v chromium >/dev/null || need+=(chromium)
# OpenCV's wheel links against libGL and GLib; the board's type is DejaVu Sans.
ldconfig -p 2>/dev/null | grep -q 'libGL.so.1' || need+=(libgl1)
ldconfig -p 2>/dev/null | grep -q 'libglib-2.0.so.0' || need+=(libglib2.0-0)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
# Kivy (the touchscreen app) reads touch devices through libmtdev.
ldconfig -p 2>/dev/null | grep -q 'libmtdev.so.1' || need+=(libmtdev1)
# One end-to-end test clicks through the app in a real window on a virtual X screen.
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
# The printing tests render the board and counter PDFs back to pixels with pdftoppm.
command -v pdftoppm >/dev/null || need+=(poppler-utils)
command -v shellcheck >/dev/null || need+=(shellcheck)
# The companion speaks with espeak-ng; the voice tests measure the speech with sox.
command -v espeak-ng >/dev/null || need+=(espeak-ng)
command -v sox >/dev/null || need+=(sox)
# MnemoGame checks secret words against an English word list and WordNet's noun and verb
# indexes (companion/games/mnemo/dictionary.py).
[ -f /usr/share/dict/american-english ] || need+=(wamerican)
[ -f /usr/share/wordnet/index.verb ] || need+=(wordnet-base)

if ((${#need[@]} == 0)); then
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  apt_get=(apt-get)
elif command -v sudo >/dev/null; then
  apt_get=(sudo apt-get)
else
  echo "Please install these Debian packages first: ${need[*]}" >&2
  exit 1
fi
"${apt_get[@]}" update -qq
DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq "${need[@]}"

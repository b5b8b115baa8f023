#!/usr/bin/env bash
# shellcheck disable=SC2317  # the steps are functions that step() calls by name
# Installs and runs the tabletop companion in an emulated Raspberry Pi (Debian bookworm
# arm64 under qemu), on any Debian amd64 machine, as root. See docs/pi.md.
#
#   sudo scripts/pi-check.sh [--dry-run] [--rebuild] [--keep-going]
#
# The steps, each timed, a line each (name, seconds, ok or FAILED):
#   host-tools    apt-get installs debootstrap and qemu-user-static when missing;
#   binfmt        registers qemu-aarch64 with binfmt_misc (fix-binary flag) when it is not;
#   rootfs        builds a Debian bookworm arm64 root filesystem once, with debootstrap,
#                 in build/pi-rootfs/ (kept; an unfinished one is built again from nothing);
#   checkout      copies the checkout (its git files, as a clone has them) to
#                 /home/pi/tabletop-companion and makes the user pi, with sudo;
#   install       runs `sudo scripts/install-pi.sh` there as pi, as on a fresh Pi;
#   version       companion --version;
#   tests         the fast tests (engines, clock, card readers on pseudo-terminals, store);
#   simulate      companion run --simulate --no-app --quadrants 1, a whole game;
#   app-check     companion app --check, with no display (SDL's offscreen driver);
#   display-page  companion display on a loopback port, the page fetched from this machine.
#
# Logs: build/pi-check/STEP.log. The first step that fails ends the run with its log's end
# (--keep-going runs the steps after it too). The emulated steps run under nice.
#
# Options:
#   --dry-run     list the steps and change nothing (no root needed)
#   --rebuild     build the root filesystem again from nothing
#   --keep-going  go on after a step fails; the exit code is still 1
#   --from STEP   skip the steps before STEP (the root filesystem and the install kept)
set -euo pipefail

PROG="pi-check.sh"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
BUILD="$REPO/build"
ROOTFS="$BUILD/pi-rootfs"
ROOTFS_DONE="$BUILD/pi-rootfs.complete"
LOGS="$BUILD/pi-check"
SUITE="bookworm"
MIRROR="${PI_CHECK_MIRROR:-http://deb.debian.org/debian}"
# What Raspberry Pi OS has before the user types anything: python3, sudo, git.
BASE_PACKAGES="python3,git,ca-certificates,systemd,udev,curl,procps"
PI_HOME="/home/pi"
CHECKOUT="$PI_HOME/tabletop-companion"
VENV="/opt/tabletop-companion/venv"
DISPLAY_PORT=18080
NICE=(nice -n 15)
# qemu's magic for 64-bit little-endian ARM executables (ELF class 2, machine 0xb7).
QEMU_BINFMT=':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F'
BINFMT_DIR="/proc/sys/fs/binfmt_misc"

STEPS=(host-tools binfmt rootfs checkout install version tests simulate app-check display-page)

usage_error() {
  printf '%s: %s (see --help)\n' "$PROG" "$*" >&2
  exit 2
}
die() {
  printf '%s: %s\n' "$PROG" "$*" >&2
  exit 1
}
usage() { sed -n '3,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

dry_run=0
rebuild=0
keep_going=0
from=""
while (($# > 0)); do
  case "$1" in
    --dry-run | -n) dry_run=1 ;;
    --rebuild) rebuild=1 ;;
    --keep-going) keep_going=1 ;;
    --from | --from=*)
      if [[ "$1" == --from ]]; then
        (($# > 1)) || usage_error "--from needs a step"
        from="$2"
        shift
      else
        from="${1#--from=}"
      fi
      [[ " ${STEPS[*]} " == *" $from "* ]] || usage_error "no such step: $from"
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) usage_error "unknown option: $1" ;;
  esac
  shift
done

if ((dry_run)); then
  printf '%s: would run these steps, logs in %s:\n' "$PROG" "$LOGS"
  printf '  %s\n' "${STEPS[@]}"
  exit 0
fi
[[ "$(id -u)" -eq 0 ]] || die "needs root (debootstrap, chroot, mounts): run it with sudo"

mkdir -p "$LOGS"
failed=0

# ------------------------------------------------------------------------------ mounts
mounted=()

# Everything mounted under the root filesystem, deepest first (from /proc/self/mounts).
mounts_under() {
  awk -v root="$ROOTFS/" 'index($2 "/", root) == 1 { print $2 }' /proc/self/mounts | sort -r
}

unmount_all() {
  local point
  for point in $(mounts_under); do
    umount -R "$point" 2>/dev/null || umount -R -l "$point" 2>/dev/null || true
  done
  mounted=()
}

mount_chroot() {
  local dir
  for dir in proc sys dev; do
    mkdir -p "$ROOTFS/$dir"
    if ! mountpoint -q "$ROOTFS/$dir"; then
      # rbind: /dev brings /dev/pts with it, for the readers' pseudo-terminals; rslave: an
      # unmount in here never reaches the machine's own.
      mount --rbind "/$dir" "$ROOTFS/$dir"
      mount --make-rslave "$ROOTFS/$dir"
      mounted+=("$dir")
    fi
  done
}

# What the chroot takes from this machine: its name servers, and its own certificate
# authorities.
network() {
  cp -L /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
  # This machine's own certificate authorities (a network that inspects TLS): pip, curl and
  # apt in the chroot trust what the machine trusts.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$ROOTFS/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
    chroot "$ROOTFS" update-ca-certificates >/dev/null
  fi
}

cleanup() {
  # A step cut short (Ctrl-C): its subshell and what it started on this side.
  if [[ -n "${step_pid:-}" ]]; then
    pkill -P "$step_pid" 2>/dev/null || true
    kill "$step_pid" 2>/dev/null || true
  fi
  # Whatever the chroot left running (a broker, a server) would keep /dev busy.
  local proc
  for proc in /proc/[0-9]*; do
    if [[ "$(readlink "$proc/root" 2>/dev/null)" == "$ROOTFS" ]]; then
      kill "${proc#/proc/}" 2>/dev/null || true
    fi
  done
  [[ -d "$ROOTFS" ]] && unmount_all
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------------------ steps

# step NAME COMMAND...: runs COMMAND with its output in LOGS/NAME.log and says how long it took.
# COMMAND runs in a subshell of its own with errexit on: its first failing command ends it
# (in the shell's own `cmd || ...` errexit would be off for the whole of COMMAND).
step_pid=""
step() {
  local name="$1" log="$LOGS/$1.log" start end status=0
  shift
  if [[ -n "$from" && "$from" != "$name" ]]; then
    printf '%-13s %8s    skipped (--from %s)\n' "$name" "-" "$from"
    return 0
  fi
  from=""
  start="$(date +%s.%N)"
  (
    set -e
    "$@"
  ) >"$log" 2>&1 &
  step_pid=$!
  wait "$step_pid" || status=$?
  step_pid=""
  end="$(date +%s.%N)"
  local seconds
  seconds="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
  if ((status == 0)); then
    printf '%-13s %8s s  ok\n' "$name" "$seconds"
    return 0
  fi
  printf '%-13s %8s s  FAILED (exit %d; %s)\n' "$name" "$seconds" "$status" "$log"
  tail -n 40 "$log" | sed 's/^/    /'
  failed=1
  ((keep_going)) || exit 1
}

# Runs a shell command inside the root filesystem as pi, from the checkout, under nice.
as_pi() {
  mount_chroot
  "${NICE[@]}" chroot "$ROOTFS" /usr/sbin/runuser -u pi -- /usr/bin/env -i \
    HOME="$PI_HOME" USER=pi LANG=C.UTF-8 PATH="$VENV/bin:/usr/local/bin:/usr/bin:/bin" \
    /bin/bash -c "cd $CHECKOUT && $1"
}

# The same as root (what `sudo` would be on the Pi).
as_root() {
  mount_chroot
  "${NICE[@]}" chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd $CHECKOUT && $1"
}

host_tools() {
  local missing=()
  command -v debootstrap >/dev/null || missing+=(debootstrap)
  [[ -x /usr/bin/qemu-aarch64-static ]] || missing+=(qemu-user-static)
  if ((${#missing[@]} == 0)); then
    echo "already there: debootstrap, qemu-user-static"
    return 0
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

binfmt() {
  if [[ ! -e "$BINFMT_DIR/register" ]]; then
    mount -t binfmt_misc binfmt_misc "$BINFMT_DIR" ||
      { echo "cannot mount binfmt_misc on $BINFMT_DIR"; return 1; }
  fi
  local entry="$BINFMT_DIR/qemu-aarch64"
  if [[ ! -e "$entry" ]] && command -v update-binfmts >/dev/null; then
    update-binfmts --import qemu-aarch64 || true
  fi
  if [[ ! -e "$entry" ]]; then
    printf '%s' "$QEMU_BINFMT" >"$BINFMT_DIR/register" ||
      { echo "cannot register qemu-aarch64 with binfmt_misc"; return 1; }
  fi
  cat "$entry"
  # Without the fix-binary flag the interpreter is looked for inside the chroot.
  grep -q '^flags:.*F' "$entry" || cp /usr/bin/qemu-aarch64-static "$ROOTFS/usr/bin/" 2>/dev/null || true
  grep -q '^enabled' "$entry" || { echo "qemu-aarch64 is registered but disabled"; return 1; }
}

rootfs() {
  if ((rebuild)); then rm -f "$ROOTFS_DONE"; fi
  if [[ -f "$ROOTFS_DONE" && -x "$ROOTFS/bin/bash" ]]; then
    echo "kept: $ROOTFS (built $(cat "$ROOTFS_DONE"))"
    return 0
  fi
  if [[ -e "$ROOTFS" ]]; then
    echo "removing an unfinished root filesystem"
    unmount_all
    [[ -z "$(mounts_under)" ]] || { echo "still mounted under $ROOTFS"; return 1; }
    rm -rf --one-file-system "$ROOTFS"
  fi
  debootstrap --arch=arm64 --include="$BASE_PACKAGES" "$SUITE" "$ROOTFS" "$MIRROR"
  date -u +%Y-%m-%dT%H:%M:%SZ >"$ROOTFS_DONE"
}

checkout() {
  mount_chroot
  network
  if ! chroot "$ROOTFS" id pi >/dev/null 2>&1; then
    chroot "$ROOTFS" useradd --create-home --shell /bin/bash pi
  fi
  # What a clone holds: the files git knows, as they are in the working tree.
  rm -rf "$ROOTFS$CHECKOUT"
  mkdir -p "$ROOTFS$CHECKOUT"
  (cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 cp --parents --no-dereference -t "$ROOTFS$CHECKOUT")
  chroot "$ROOTFS" chown -R pi:pi "$CHECKOUT"
  ls "$ROOTFS$CHECKOUT"
}

install() {
  echo "skipped in a chroot: systemctl daemon-reload, udevadm reload and trigger (no init, no udev: --no-reload)"
  echo "skipped off a Pi: python3-picamera2, rpicam-apps (the Raspberry Pi archive's, for a Pi's camera)"
  # sudo cannot be used: qemu-user runs it without its setuid bit. Run as root, with what
  # sudo would have set, install-pi.sh installs for pi as after `sudo scripts/install-pi.sh`.
  echo "instead of sudo (no setuid under qemu-user): root with SUDO_USER=pi"
  as_root "SUDO_USER=pi scripts/install-pi.sh --no-reload"
  # The test extra, for the tests step, as `sudo $VENV/bin/pip install` would.
  as_root "$VENV/bin/python -m pip install --quiet '.[test]'"
}

# The command, and gpiozero's pin library for the Pi (lgpio; the pins themselves need a Pi).
version() {
  as_pi "companion --version"
  as_pi "python -c 'import gpiozero, lgpio; from importlib.metadata import version as v; \
print(\"gpiozero\", v(\"gpiozero\"), \"lgpio\", v(\"lgpio\"))'"
}

# The tests that need no display, no browser, no camera pictures rendered at length: the
# engines, the clock, the card readers through pseudo-terminals, the store.
FAST_TESTS="tests/memwars tests/mem tests/clock tests/cardreader tests/test_store.py"
# Left out: test_ptypair_leftovers.py finds socat by its command line, which under qemu-user
# begins with the emulator's name instead; test_listen_prints_button_events listens for
# 0.4 s only, too short for emulated code at times.
tests() {
  as_pi "python -m pytest -q -x -p no:cacheprovider $FAST_TESTS \
--ignore=tests/cardreader/test_ptypair_leftovers.py \
--deselect=tests/cardreader/test_reader_cmd.py::test_listen_prints_button_events"
}

simulate() { as_pi "timeout 1800 companion run --simulate --no-app --quadrants 1 --local"; }

# The video back-ends of the SDL that Kivy's wheel brings: the units need kmsdrm (Lite,
# straight on the display) and x11 (the desktop, through Xwayland: the wheel has no Wayland
# back-end); the check runs on offscreen.
SDL_DRIVERS_PY='
import ctypes, glob, os, kivy
libs = os.path.join(os.path.dirname(kivy.__file__), os.pardir, "Kivy.libs", "libSDL2-2*")
sdl = ctypes.CDLL(sorted(glob.glob(libs))[0])
sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
found = [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())]
print("SDL video drivers:", " ".join(found))
missing = {"kmsdrm", "x11", "offscreen"} - {name.lower() for name in found}
raise SystemExit(f"missing: {sorted(missing)}" if missing else 0)
'

# Kivy through SDL with no display: the offscreen video driver, no audio, no input devices.
app_check() {
  printf '%s' "$SDL_DRIVERS_PY" >"$ROOTFS/tmp/sdl-drivers.py"
  as_pi "python /tmp/sdl-drivers.py"
  as_pi "SDL_VIDEODRIVER=offscreen SDL_AUDIODRIVER=dummy KIVY_WINDOW=sdl2 KIVY_NO_ARGS=1 \
timeout 900 companion app --check --no-stream"
}

display_page() {
  local url="http://127.0.0.1:$DISPLAY_PORT/" i
  local server_pid
  as_pi "exec companion display --port $DISPLAY_PORT" >"$LOGS/display-server.log" 2>&1 &
  server_pid=$!
  for ((i = 0; i < 180; i++)); do
    if curl -fsS --max-time 5 "$url" -o "$LOGS/display-page.html"; then
      grep -i '<html' "$LOGS/display-page.html" >/dev/null || { echo "not a page"; return 1; }
      curl -fsS --max-time 5 "${url}config.json"
      echo
      echo "fetched $url from outside the chroot after ${i} s"
      break
    fi
    kill -0 "$server_pid" 2>/dev/null || { cat "$LOGS/display-server.log"; return 1; }
    sleep 1
  done
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  cat "$LOGS/display-server.log"
  ((i < 180)) || { echo "no page at $url after 180 s"; return 1; }
}

printf '%-13s %10s  %s\n' "step" "time" "result"
step host-tools host_tools
step binfmt binfmt
step rootfs rootfs
step checkout checkout
step install install
step version version
step tests tests
step simulate simulate
step app-check app_check
step display-page display_page
exit "$failed"

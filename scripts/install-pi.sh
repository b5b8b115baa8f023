#!/usr/bin/env bash
# Installs the tabletop companion on a Raspberry Pi (Raspberry Pi OS Bookworm, 64-bit) so
# that it starts full screen at boot. See docs/pi.md.
#
#   sudo scripts/install-pi.sh [--user NAME] [--session desktop|kms] [--venv DIR]
#                              [--no-apt] [--no-venv] [--no-reload] [--dry-run] [--prefix DIR]
#   sudo scripts/install-pi.sh --uninstall
#
# Safe to run again: each step checks first and does only what is missing. What it does:
#   1. apt-get installs the Debian packages the app needs (and the camera stack on a Pi);
#   2. makes a virtual environment (--system-site-packages, so apt's picamera2 imports)
#      and pip-installs the project from the checkout this script sits in;
#   3. adds the user to the gpio, dialout, video and input groups;
#   4. writes the systemd unit tabletop-companion.service (from scripts/pi/) and enables it;
#   5. writes the udev rule 99-tabletop-companion.rules (from scripts/pi/): stable names
#      /dev/companion-reader and /dev/companion-pico for the card readers;
#   6. lets the user give a thread the lowest real-time priority (limits.d, rtprio 1), so
#      `companion clock` stamps key presses when they happen on a busy machine.
#
# --prefix DIR writes every file under DIR instead of / and leaves the running system
# alone (no daemon-reload, no udev reload; groups through `usermod --prefix`, the unit
# enabled through `systemctl --root`): for trying it out and for the tests.
#
# --no-reload installs into / but leaves the running service manager and udev alone (no
# daemon-reload, no udev reload or trigger, nothing started or stopped): for a root
# filesystem with no init running, a chroot or an image being built (scripts/pi-check.sh).
set -euo pipefail

# The command the unit runs, from the virtual environment's bin/ directory.
APP_COMMAND="companion app --fullscreen --gpio"

UNIT_NAME="tabletop-companion.service"
RULES_NAME="99-tabletop-companion.rules"
DEFAULT_VENV="/opt/tabletop-companion/venv"
GROUPS_WANTED=(gpio dialout video input)
MARKER=".installed-by-tabletop-companion"

PROG="install-pi.sh"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$SCRIPT_DIR/.." && pwd)"
TEMPLATES="$SCRIPT_DIR/pi"
PYTHON="${PYTHON:-python3}"
# Where the board's model is read from; the tests point it at a file of their own.
PI_MODEL_FILE="${INSTALL_PI_MODEL_FILE:-/proc/device-tree/model}"

say() { printf '%s: %s\n' "$PROG" "$*"; }
die() {
  printf '%s: %s\n' "$PROG" "$*" >&2
  exit 1
}
usage_error() {
  printf '%s: %s (see --help)\n' "$PROG" "$*" >&2
  exit 2
}
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

prefix=""
user=""
session=""
venv="$DEFAULT_VENV"
do_apt=1
do_venv=1
dry_run=0
reload=1
uninstall=0

while (($# > 0)); do
  case "$1" in
    --prefix | --user | --session | --venv)
      if (($# < 2)) || [[ -z "$2" ]]; then usage_error "$1 needs a value"; fi
      case "$1" in
        --prefix) prefix="${2%/}" ;;
        --user) user="$2" ;;
        --session) session="$2" ;;
        --venv) venv="$2" ;;
      esac
      shift 2
      ;;
    --prefix=* | --user=* | --session=* | --venv=*)
      value="${1#*=}"
      [[ -n "$value" ]] || usage_error "${1%%=*} needs a value"
      case "$1" in
        --prefix=*) prefix="${value%/}" ;;
        --user=*) user="$value" ;;
        --session=*) session="$value" ;;
        --venv=*) venv="$value" ;;
      esac
      shift
      ;;
    --no-apt) do_apt=0 && shift ;;
    --no-venv) do_venv=0 && shift ;;
    --no-reload) reload=0 && shift ;;
    --dry-run | -n) dry_run=1 && shift ;;
    --uninstall) uninstall=1 && shift ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) usage_error "unknown option: $1" ;;
  esac
done

case "$session" in
  "" | desktop | kms) ;;
  *) usage_error "--session must be desktop or kms, not: $session" ;;
esac
[[ "$venv" == /* ]] || usage_error "--venv must be an absolute path: $venv"
if [[ -n "$prefix" ]]; then
  [[ -d "$prefix" ]] || usage_error "--prefix is not a directory: $prefix"
  prefix="$(cd "$prefix" && pwd)"
  [[ "$prefix" != "/" ]] || prefix=""
fi

ROOT="$prefix"                  # "" means the running system
UNIT_PATH="/etc/systemd/system/$UNIT_NAME"
RULES_PATH="/etc/udev/rules.d/$RULES_NAME"
LIMITS_PATH="/etc/security/limits.d/tabletop-companion.conf"
APP_DIR="$(dirname "$venv")"
changed=0

# Runs a command, or only says it in a dry run.
run() {
  if ((dry_run)); then
    say "would run: $*"
  else
    say "running: $*"
    "$@"
  fi
}

# Writes CONTENT to the file PATH (under the prefix) unless it already holds exactly that.
put_file() {
  local path="$1" content="$2" mode="$3" target="$ROOT$1"
  if [[ -f "$target" ]] && [[ "$(cat "$target")" == "$content" ]]; then
    say "unchanged: $path"
    return 0
  fi
  changed=1
  if ((dry_run)); then
    say "would write: $path"
    return 0
  fi
  mkdir -p "$(dirname "$target")"
  local tmp
  tmp="$(mktemp "$(dirname "$target")/.$(basename "$target").XXXXXX")"
  printf '%s\n' "$content" >"$tmp"
  chmod "$mode" "$tmp"
  mv -f "$tmp" "$target"
  say "wrote: $path"
}

remove_path() {
  local path="$1" target="$ROOT$1"
  if [[ ! -e "$target" && ! -L "$target" ]]; then
    say "already gone: $path"
    return 0
  fi
  changed=1
  if ((dry_run)); then
    say "would remove: $path"
  else
    rm -rf -- "$target"
    say "removed: $path"
  fi
}

# The user's passwd entry: from the prefix's /etc/passwd, else the system's.
passwd_entry() {
  if [[ -n "$ROOT" ]]; then
    [[ -f "$ROOT/etc/passwd" ]] && awk -F: -v u="$1" '$1 == u { print; exit }' "$ROOT/etc/passwd"
  else
    getent passwd "$1"
  fi
}

group_line() {
  if [[ -n "$ROOT" ]]; then
    [[ -f "$ROOT/etc/group" ]] && awk -F: -v g="$1" '$1 == g { print; exit }' "$ROOT/etc/group"
  else
    getent group "$1"
  fi
}

# Replaces the @NAME@ placeholders of a template; values never hold a newline.
render() {
  local text
  text="$(cat "$1")"
  text="${text//@USER@/$user}"
  text="${text//@GROUP@/$group}"
  text="${text//@HOME@/$home}"
  text="${text//@UID@/$uid}"
  text="${text//@EXEC@/$exec_line}"
  text="${text//@REPO@/$REPO}"
  printf '%s' "$text"
}

systemctl_cmd() {
  if [[ -n "$ROOT" ]]; then
    run systemctl --root="$ROOT" "$@"
  else
    run systemctl "$@"
  fi
}

# Whether to tell the running service manager and udev about new files: only on the running
# system, and not with --no-reload (where none is running).
live_system() { [[ -z "$ROOT" ]] && ((reload)); }

# Says a reload step left out by --no-reload.
skipped_reload() {
  if [[ -z "$ROOT" ]] && ((!reload)); then say "skipped (--no-reload): $*"; fi
}

# Whether apt can install PACKAGE: a version to install, not "(none)".
has_candidate() {
  local candidate
  candidate="$(apt-cache policy "$1" 2>/dev/null | awk '$1 == "Candidate:" { print $2; exit }')"
  [[ -n "$candidate" && "$candidate" != "(none)" ]]
}

need_root() {
  if [[ -z "$ROOT" ]] && ((!dry_run)) && [[ "$(id -u)" -ne 0 ]]; then
    die "needs root to write /etc and /opt: run it with sudo (or try --dry-run)"
  fi
}

# ---------------------------------------------------------------------------- uninstall
if ((uninstall)); then
  need_root
  say "removing the tabletop companion${ROOT:+ from $ROOT}"
  if [[ -e "$ROOT$UNIT_PATH" ]]; then
    if live_system; then
      systemctl_cmd disable --now "$UNIT_NAME" || say "could not stop or disable $UNIT_NAME"
    else
      systemctl_cmd disable "$UNIT_NAME" || say "could not disable $UNIT_NAME"
    fi
  fi
  remove_path "$UNIT_PATH"
  remove_path "$RULES_PATH"
  remove_path "$LIMITS_PATH"
  if [[ -f "$ROOT$venv/$MARKER" ]]; then
    remove_path "$venv"
    # The default's parent directory too, once it is empty.
    if [[ "$venv" == "$DEFAULT_VENV" && -d "$ROOT$APP_DIR" ]] &&
      [[ -z "$(ls -A "$ROOT$APP_DIR")" ]]; then
      remove_path "$APP_DIR"
    fi
  elif [[ -e "$ROOT$venv" ]]; then
    say "left alone: $venv (not made by this script)"
  fi
  if live_system && ((changed)); then
    run systemctl daemon-reload
    run udevadm control --reload-rules
  elif ((changed)); then
    skipped_reload "systemctl daemon-reload, udevadm control --reload-rules"
  fi
  say "left as they are: the Debian packages, the user's groups and the user's games and configuration"
  say "done"
  exit 0
fi

# ---------------------------------------------------------------------------- install
need_root

if [[ -z "$user" ]]; then
  if [[ -n "${SUDO_USER:-}" && "${SUDO_USER}" != "root" ]]; then
    user="$SUDO_USER"
  elif [[ "$(id -u)" -ne 0 ]]; then
    user="$(id -un)"
  else
    usage_error "which user runs the companion? give --user NAME"
  fi
fi
entry="$(passwd_entry "$user" || true)"
[[ -n "$entry" ]] || die "no such user: $user${ROOT:+ (in $ROOT/etc/passwd)}"
IFS=: read -r _ _ uid gid _ home _ <<<"$entry"
group="$(group_line "$gid" || true)"
group="${group%%:*}"
if [[ -z "$group" ]]; then
  # /etc/group names groups, not numbers: look the primary group up by its id.
  if [[ -n "$ROOT" ]]; then
    group="$(awk -F: -v g="$gid" '$3 == g { print $1; exit }' "$ROOT/etc/group" 2>/dev/null || true)"
  else
    group="$(getent group "$gid" | cut -d: -f1 || true)"
  fi
fi
[[ -n "$group" ]] || group="$user"

is_pi=0
if [[ -r "$PI_MODEL_FILE" ]] && tr -d '\0' <"$PI_MODEL_FILE" | grep -q "Raspberry Pi"; then
  is_pi=1
fi

if [[ -z "$session" ]]; then
  # A display manager means Raspberry Pi OS with desktop; none means Lite.
  if [[ -e "$ROOT/etc/systemd/system/display-manager.service" ||
    -L "$ROOT/etc/systemd/system/display-manager.service" ]]; then
    session=desktop
  else
    session=kms
  fi
fi

exec_line="$venv/bin/$APP_COMMAND"
say "installing for user $user (uid $uid, home $home), $session session${ROOT:+, under $ROOT}"
((is_pi)) || say "not a Raspberry Pi: the camera packages are left out"

# 1. Debian packages.
if ((do_apt)); then
  packages=(python3-venv python3-pip libmtdev1 libgl1 libglib2.0-0 mosquitto mosquitto-clients
    socat fonts-dejavu-core poppler-utils espeak-ng alsa-utils wamerican wordnet-base)
  # The SDL in Kivy's wheel opens these at run time, and no package depends on them: its
  # kmsdrm back-end (the KMS session, straight on the display) needs all four.
  packages+=(libdrm2 libgbm1 libegl1 libgles2)
  # Raspberry Pi OS Bookworm calls the browser chromium-browser; Debian calls it chromium,
  # and knows chromium-browser as a name with nothing to install (`apt-cache show` still
  # succeeds for it): ask for an installable version.
  if has_candidate chromium-browser; then
    packages+=(chromium-browser)
  else
    packages+=(chromium)
  fi
  if ((is_pi)); then
    packages+=(python3-picamera2 rpicam-apps)
  fi
  missing=()
  for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]} == 0)); then
    say "Debian packages: all there"
  else
    changed=1
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  fi
else
  say "skipped: Debian packages (--no-apt)"
fi

# 2. The virtual environment and the project in it.
if ((do_venv)); then
  stamp="$ROOT$venv/.companion-source"
  source_id=""
  if command -v git >/dev/null && git -C "$REPO" rev-parse HEAD >/dev/null 2>&1 &&
    [[ -z "$(git -C "$REPO" status --porcelain 2>/dev/null)" ]]; then
    source_id="$REPO $(git -C "$REPO" rev-parse HEAD)"
  fi
  if [[ -x "$ROOT$venv/bin/python" ]]; then
    say "unchanged: virtual environment $venv"
  else
    changed=1
    if ((dry_run)); then
      say "would make: virtual environment $venv"
    else
      run "$PYTHON" -m venv --system-site-packages "$ROOT$venv"
      : >"$ROOT$venv/$MARKER"
    fi
  fi
  if [[ -n "$source_id" && -f "$stamp" && "$(cat "$stamp")" == "$source_id" ]]; then
    say "unchanged: the project in $venv (installed from this commit)"
  else
    changed=1
    run "$ROOT$venv/bin/python" -m pip install --quiet "$REPO"
    if ((!dry_run)); then
      if [[ -n "$source_id" ]]; then printf '%s\n' "$source_id" >"$stamp"; else rm -f "$stamp"; fi
    fi
  fi
else
  say "skipped: virtual environment (--no-venv)"
fi

# 3. Groups: GPIO pins, serial ports, the camera and display, the touchscreen.
for wanted in "${GROUPS_WANTED[@]}"; do
  line="$(group_line "$wanted" || true)"
  if [[ -z "$line" ]]; then
    say "no group $wanted on this system: skipped"
    continue
  fi
  members=",${line##*:},"
  if [[ "$members" == *",$user,"* || "$gid" == "$(cut -d: -f3 <<<"$line")" ]]; then
    say "unchanged: $user is in $wanted"
    continue
  fi
  changed=1
  if [[ -n "$ROOT" ]]; then
    run usermod --prefix "$ROOT" -a -G "$wanted" "$user"
  else
    run usermod -a -G "$wanted" "$user"
  fi
done

# 4. The systemd unit.
if [[ "$session" == desktop ]]; then
  template="$TEMPLATES/tabletop-companion.service"
else
  template="$TEMPLATES/tabletop-companion-kms.service"
fi
unit_before="$changed"
unit_existed=0
[[ -e "$ROOT$UNIT_PATH" ]] && unit_existed=1
changed=0
put_file "$UNIT_PATH" "$(render "$template")" 644
unit_changed="$changed"
changed=$((unit_before || unit_changed))
if live_system && ((unit_changed)); then
  run systemctl daemon-reload
elif ((unit_changed)); then
  skipped_reload "systemctl daemon-reload"
fi
if [[ -z "$ROOT" ]] && ((!dry_run)) && systemctl is-enabled --quiet "$UNIT_NAME" 2>/dev/null; then
  say "unchanged: $UNIT_NAME is enabled"
elif [[ -n "$ROOT" ]] && ((!unit_changed)) &&
  compgen -G "$ROOT/etc/systemd/system/*.target.wants/$UNIT_NAME" >/dev/null; then
  say "unchanged: $UNIT_NAME is enabled"
elif ((unit_existed && unit_changed)); then
  # The unit may want another target now: drop the old links.
  changed=1
  systemctl_cmd reenable "$UNIT_NAME"
else
  changed=1
  systemctl_cmd enable "$UNIT_NAME"
fi

# 5. The udev rule.
before="$changed"
changed=0
put_file "$RULES_PATH" "$(cat "$TEMPLATES/$RULES_NAME")" 644
if live_system && ((changed)); then
  run udevadm control --reload-rules
  run udevadm trigger --subsystem-match=tty --action=add
elif ((changed)); then
  skipped_reload "udevadm control --reload-rules, udevadm trigger"
fi
changed=$((before || changed))

# 6. Real-time priority 1 for the threads that read the clock's keys (from the next login).
put_file "$LIMITS_PATH" "# Written by the tabletop companion's install-pi.sh: companion clock's key reader
# may take the lowest real-time priority, to stamp presses on time (docs/clocks.md).
$user - rtprio 1" 644

if ((dry_run)); then
  say "dry run: nothing was changed"
elif ((changed)); then
  say "done. Reboot (or log out and in) for the groups to apply; the companion starts at boot."
  say "logs: journalctl -u ${UNIT_NAME%.service} -f"
else
  say "done: everything was already in place"
fi

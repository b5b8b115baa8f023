"""scripts/install-pi.sh, run into a scratch root directory (--prefix) with stand-ins for
apt-get, systemctl, usermod, udevadm and the virtual environment on PATH: nothing touches
the machine or the network. What it writes, that a second run changes nothing, that a dry
run writes nothing, that --uninstall takes it all away, and that bad options are one line
and exit code 2. Also bash -n, shellcheck, and the unit's syntax."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "install-pi.sh"
TEMPLATES = REPO / "scripts" / "pi"
UNIT = "etc/systemd/system/tabletop-companion.service"
RULES = "etc/udev/rules.d/99-tabletop-companion.rules"
LIMITS = "etc/security/limits.d/tabletop-companion.conf"
VENV = "opt/tabletop-companion/venv"

PASSWD = "root:x:0:0:root:/root:/bin/bash\nplayer:x:1000:1000:Player:/home/player:/bin/bash\n"
GROUP = "root:x:0:\nplayer:x:1000:\ndialout:x:20:\nvideo:x:44:player\ninput:x:105:\ngpio:x:997:\n"

# Each stand-in appends its name and arguments to $SHIM_LOG, one line a call.
SHIMS = {
    "apt-get": "",
    "udevadm": "",
    # Nothing is installed; only the packages named in $SHIM_APT_KNOWN have a version to
    # install. Any other name is answered as Debian answers chromium-browser: known, with
    # no candidate.
    "dpkg-query": "exit 1\n",
    "apt-cache": """
candidate="(none)"
for p in $SHIM_APT_KNOWN; do [ "$p" = "$2" ] && candidate=1.0; done
printf '%s:\\n  Installed: (none)\\n  Candidate: %s\\n' "$2" "$candidate"
""",
    # usermod --prefix ROOT -a -G GROUP USER: adds USER to GROUP in ROOT/etc/group.
    "usermod": """
root=$2 group=$5 user=$6
awk -F: -v OFS=: -v g="$group" -v u="$user" \\
  '$1 == g { $4 = ($4 == "" ? u : $4 "," u) } { print }' "$root/etc/group" >"$root/etc/group.new"
mv "$root/etc/group.new" "$root/etc/group"
""",
    # systemctl --root=ROOT enable|disable UNIT: the wants/ symlink, as systemctl makes it.
    "systemctl": """
root=${1#--root=} verb=$2 unit=$3
dir=$root/etc/systemd/system
case $verb in
  reenable)
    rm -f "$dir"/*.wants/"$unit"
    target=$(sed -n 's/^WantedBy=//p' "$dir/$unit")
    mkdir -p "$dir/$target.wants"
    ln -sfn "/etc/systemd/system/$unit" "$dir/$target.wants/$unit" ;;
  enable)
    target=$(sed -n 's/^WantedBy=//p' "$dir/$unit")
    mkdir -p "$dir/$target.wants"
    ln -sfn "/etc/systemd/system/$unit" "$dir/$target.wants/$unit" ;;
  disable) rm -f "$dir"/*.wants/"$unit" ;;
esac
""",
    # python3 -m venv --system-site-packages DIR: a venv whose python only logs.
    "python3": """
dir=$4
mkdir -p "$dir/bin"
printf '#!/bin/sh\\necho "venv-python $*" >>"%s"\\n' "$SHIM_LOG" >"$dir/bin/python"
chmod +x "$dir/bin/python"
""",
}


class Sandbox:
    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "root"
        (self.root / "etc").mkdir(parents=True)
        (self.root / "etc" / "passwd").write_text(PASSWD)
        (self.root / "etc" / "group").write_text(GROUP)
        self.bin = tmp_path / "bin"
        self.bin.mkdir()
        self.log = tmp_path / "calls.log"
        self.log.touch()
        for name, body in SHIMS.items():
            shim = self.bin / name
            shim.write_text(f'#!/bin/sh\necho "{name} $*" >>"$SHIM_LOG"\n{body}')
            shim.chmod(0o755)
        self.env = {
            "PATH": f"{self.bin}:/usr/bin:/bin:/usr/sbin:/sbin",
            "SHIM_LOG": str(self.log),
            "SHIM_APT_KNOWN": "chromium",
            "PYTHON": str(self.bin / "python3"),
            "INSTALL_PI_MODEL_FILE": str(tmp_path / "no-model"),
            "HOME": str(tmp_path),
            "LC_ALL": "C.UTF-8",
        }

    def run(
        self, *args: str, script: Path = SCRIPT, prefix: bool = True
    ) -> subprocess.CompletedProcess[str]:
        options = ["--prefix", str(self.root)] if prefix else []
        return subprocess.run(
            ["bash", str(script), *options, *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def ok(self, *args: str, script: Path = SCRIPT) -> str:
        result = self.run(*args, script=script)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def calls(self) -> list[str]:
        return self.log.read_text().splitlines()

    def tree(self) -> dict[str, object]:
        """Every path under the root: a symlink's target, a file's bytes and mode."""
        found: dict[str, object] = {}
        for path in sorted(self.root.rglob("*")):
            key = str(path.relative_to(self.root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_file():
                found[key] = ("file", path.read_bytes(), stat.S_IMODE(path.stat().st_mode))
            else:
                found[key] = ("dir",)
        return found


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


def _unit(box: Sandbox) -> str:
    return (box.root / UNIT).read_text()


def test_writes_the_unit_the_rule_and_the_groups(box: Sandbox) -> None:
    out = box.ok("--user", "player", "--no-apt", "--no-venv", "--session", "desktop")
    unit = _unit(box)
    assert "@" not in re.sub(r"getty@tty1|^#.*$", "", unit, flags=re.M)
    command = "companion app --fullscreen --gpio"
    assert f"\nExecStart=/opt/tabletop-companion/venv/bin/{command}\n" in unit
    for line in (
        "User=player",
        "Group=player",
        "WorkingDirectory=/home/player",
        "Environment=XDG_RUNTIME_DIR=/run/user/1000",
        "Environment=DISPLAY=:0",
        "Restart=on-failure",
        "RestartSec=5",
        "After=graphical.target network-online.target",
        "WantedBy=graphical.target",
    ):
        assert f"\n{line}\n" in unit, line
    assert f"Documentation=file://{REPO}/docs/pi.md" in unit
    rules = (box.root / RULES).read_text()
    assert rules == (TEMPLATES / "99-tabletop-companion.rules").read_text()
    limits = [
        line.split()
        for line in (box.root / LIMITS).read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert limits == [["player", "-", "rtprio", "1"]]
    assert stat.S_IMODE((box.root / UNIT).stat().st_mode) == 0o644
    # Enabled the way systemctl --root does it; the running system left alone.
    wants = box.root / "etc/systemd/system/graphical.target.wants/tabletop-companion.service"
    assert os.readlink(wants) == "/etc/systemd/system/tabletop-companion.service"
    calls = box.calls()
    assert f"systemctl --root={box.root} enable tabletop-companion.service" in calls
    assert not [call for call in calls if call.startswith(("udevadm", "apt-get", "python3"))]
    assert "systemctl daemon-reload" not in calls
    # Groups: video already, the others added.
    added = sorted(call.split()[-2] for call in calls if call.startswith("usermod"))
    assert added == ["dialout", "gpio", "input"]
    group = (box.root / "etc/group").read_text()
    for name in ("dialout", "video", "input", "gpio"):
        assert re.search(rf"^{name}:x:\d+:(.*,)?player(,|$)", group, re.M), name
    assert f"wrote: /{UNIT}" in out and f"wrote: /{RULES}" in out


def test_kms_session_runs_on_the_console(box: Sandbox) -> None:
    box.ok("--user=player", "--no-apt", "--no-venv", "--session=kms")
    unit = _unit(box)
    for line in (
        "Environment=SDL_VIDEODRIVER=kmsdrm",
        "Conflicts=getty@tty1.service",
        "TTYPath=/dev/tty1",
        "WantedBy=multi-user.target",
        "ExecStart=/opt/tabletop-companion/venv/bin/companion app --fullscreen --gpio",
    ):
        assert f"\n{line}\n" in unit, line
    assert (box.root / "etc/systemd/system/multi-user.target.wants").is_dir()


def test_the_session_follows_the_display_manager(box: Sandbox) -> None:
    box.ok("--user", "player", "--no-apt", "--no-venv")
    assert "SDL_VIDEODRIVER=kmsdrm" in _unit(box)  # no display manager: Lite
    (box.root / "etc/systemd/system/display-manager.service").symlink_to("/lib/lightdm")
    box.ok("--user", "player", "--no-apt", "--no-venv")
    assert "DISPLAY=:0" in _unit(box) and "kmsdrm" not in _unit(box)
    wants = box.root / "etc/systemd/system"
    assert [p.parent.name for p in wants.glob("*.wants/*")] == ["graphical.target.wants"]


def test_the_unit_runs_the_command_named_at_the_top_of_the_script(box: Sandbox) -> None:
    text = SCRIPT.read_text()
    assert len(re.findall(r"^APP_COMMAND=", text, re.M)) == 1
    changed = box.root.parent / "scripts" / "install-pi.sh"
    changed.parent.mkdir()
    changed.write_text(text.replace('APP_COMMAND="companion app', 'APP_COMMAND="companion run'))
    shutil.copytree(TEMPLATES, changed.parent / "pi")
    box.ok("--user", "player", "--no-apt", "--no-venv", script=changed)
    assert "\nExecStart=/opt/tabletop-companion/venv/bin/companion run --fullscreen --gpio\n" in (
        _unit(box)
    )


def test_a_second_run_changes_nothing(box: Sandbox) -> None:
    box.ok("--user", "player", "--no-apt", "--no-venv", "--session", "desktop")
    before, calls = box.tree(), len(box.calls())
    out = box.ok("--user", "player", "--no-apt", "--no-venv", "--session", "desktop")
    assert box.tree() == before
    assert box.calls()[calls:] == []
    assert "everything was already in place" in out
    assert f"unchanged: /{UNIT}" in out and "unchanged: player is in gpio" in out


def test_a_dry_run_writes_nothing(box: Sandbox) -> None:
    before = box.tree()
    out = box.ok("--user", "player", "--dry-run")
    assert box.tree() == before
    assert box.calls() == [call for call in box.calls() if call.startswith(("apt-cache", "dpkg"))]
    assert f"would write: /{UNIT}" in out
    assert f"would write: /{RULES}" in out
    assert "would run: usermod" in out
    assert "dry run: nothing was changed" in out


def test_no_reload_leaves_the_service_manager_and_udev_alone(box: Sandbox) -> None:
    """Into / (a dry run, so nothing is written): the reloads are said, not run, with
    --no-reload, as in a chroot with no init; the unit is still enabled."""

    def dry_run(*extra: str) -> str:
        result = box.run(
            "--user", "root", "--no-apt", "--no-venv", "--dry-run", *extra, prefix=False
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    live = dry_run()
    assert "would run: systemctl daemon-reload" in live
    assert "would run: udevadm control --reload-rules" in live
    chroot = dry_run("--no-reload")
    assert "daemon-reload" not in chroot.replace(
        "skipped (--no-reload): systemctl daemon-reload", ""
    )
    assert "would run: udevadm" not in chroot
    assert "skipped (--no-reload): systemctl daemon-reload" in chroot
    assert "skipped (--no-reload): udevadm control --reload-rules, udevadm trigger" in chroot
    assert "would run: systemctl enable tabletop-companion.service" in chroot
    assert box.calls() == []


def test_the_virtual_environment_and_the_project(box: Sandbox) -> None:
    out = box.ok("--user", "player", "--no-apt")
    calls = box.calls()
    venv = box.root / VENV
    assert f"python3 -m venv --system-site-packages {venv}" in calls
    assert f"venv-python -m pip install --quiet {REPO}" in calls
    assert (venv / ".installed-by-tabletop-companion").exists()
    assert "running: " in out


def test_the_project_is_not_reinstalled_from_the_same_commit(box: Sandbox, tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, checkout / "scripts" / "install-pi.sh")
    shutil.copytree(TEMPLATES, checkout / "scripts" / "pi")
    (checkout / "pyproject.toml").write_text('[project]\nname = "x"\n')
    git = ["git", "-C", str(checkout), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "c"], check=True)
    script = checkout / "scripts" / "install-pi.sh"
    box.ok("--user", "player", "--no-apt", script=script)
    assert sum("pip install" in call for call in box.calls()) == 1
    before = box.tree()
    out = box.ok("--user", "player", "--no-apt", script=script)
    assert sum("pip install" in call for call in box.calls()) == 1
    assert "unchanged: the project" in out and box.tree() == before


def test_uninstall_removes_what_it_wrote(box: Sandbox) -> None:
    before = box.tree()
    box.ok("--user", "player", "--no-apt", "--session", "desktop")
    assert (box.root / VENV).is_dir()
    out = box.ok("--uninstall")
    after = box.tree()
    # Everything is as before except the groups, which are left as they are.
    assert {k: v for k, v in after.items() if k != "etc/group"} == {
        k: v for k, v in before.items() if k != "etc/group"
    } | {"etc/systemd": ("dir",), "etc/systemd/system": ("dir",)} | {
        k: ("dir",)
        for k in ("etc/udev", "etc/udev/rules.d", "etc/security", "etc/security/limits.d", "opt")
    } | {"etc/systemd/system/graphical.target.wants": ("dir",)}
    assert f"systemctl --root={box.root} disable tabletop-companion.service" in box.calls()
    assert f"removed: /{UNIT}" in out and f"removed: /{RULES}" in out
    assert f"removed: /{LIMITS}" in out
    assert "removed: /opt/tabletop-companion" in out
    again = box.ok("--uninstall")
    assert f"already gone: /{UNIT}" in again


def test_uninstall_leaves_a_venv_it_did_not_make(box: Sandbox) -> None:
    mine = box.root / "home/player/env"
    (mine / "bin").mkdir(parents=True)
    out = box.ok("--uninstall", "--venv", "/home/player/env")
    assert mine.is_dir() and "left alone: /home/player/env" in out


def test_apt_packages(box: Sandbox, tmp_path: Path) -> None:
    box.ok("--user", "player", "--no-venv")
    install = next(call for call in box.calls() if call.startswith("apt-get install"))
    for package in (
        "python3-venv",
        "libmtdev1",
        "libgl1",
        "mosquitto",
        "mosquitto-clients",
        "socat",
        "fonts-dejavu-core",
        "poppler-utils",
        "libgbm1",
        "libegl1",
        "libgles2",
        " chromium",
    ):
        assert package in install
    # Debian's chromium-browser is a name with nothing to install.
    assert "chromium-browser" not in install
    assert "picamera2" not in install  # not a Pi
    assert "apt-get update -qq" in box.calls()
    # On a Pi, with Raspberry Pi OS's browser name: the camera stack too.
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    box.env |= {"INSTALL_PI_MODEL_FILE": str(model), "SHIM_APT_KNOWN": "chromium-browser"}
    box.log.write_text("")
    box.ok("--user", "player", "--no-venv")
    install = next(call for call in box.calls() if call.startswith("apt-get install"))
    assert "python3-picamera2" in install and "rpicam-apps" in install
    assert "chromium-browser" in install


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown option: --bogus"),
        (["--user"], "--user needs a value"),
        (["--prefix="], "--prefix needs a value"),
        (["--session", "wayland"], "--session must be desktop or kms"),
        (["--venv", "relative/venv"], "--venv must be an absolute path"),
        (["--prefix", "/no/such/dir"], "--prefix is not a directory"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(box: Sandbox, args: list[str], message: str) -> None:
    result = box.run(*args, prefix=False)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith("install-pi.sh: ")
    assert box.calls() == []


def test_an_unknown_user_is_refused(box: Sandbox) -> None:
    result = box.run("--user", "nobody-here", "--no-apt", "--no-venv")
    assert result.returncode == 1
    assert result.stderr.strip().endswith(
        "no such user: nobody-here (in " + f"{box.root}/etc/passwd)"
    )
    assert not (box.root / UNIT).exists()


def test_help(box: Sandbox) -> None:
    out = box.ok("--help")
    assert "--uninstall" in out and "--prefix DIR" in out and "set -euo" not in out


def _parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """A unit file's sections and their key=value lines; fails on anything else."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith(("#", ";")):
            continue
        if match := re.fullmatch(r"\[([A-Za-z]+)\]", line):
            current = match.group(1)
            assert current not in sections, f"line {number}: [{current}] twice"
            sections[current] = []
            continue
        match = re.fullmatch(r"([A-Z][A-Za-z]+)=(.*)", line)
        assert match and current, f"line {number}: not key=value in a section: {line!r}"
        sections[current].append((match.group(1), match.group(2)))
    return sections


KNOWN_KEYS = {
    "Unit": {"Description", "Documentation", "After", "Wants", "Conflicts"},
    "Service": {
        "Type",
        "User",
        "Group",
        "WorkingDirectory",
        "Environment",
        "ExecStartPre",
        "ExecStart",
        "Restart",
        "RestartSec",
        "TimeoutStopSec",
        "TTYPath",
        "StandardInput",
        "StandardOutput",
        "StandardError",
    },
    "Install": {"WantedBy"},
}


@pytest.mark.parametrize("session", ["desktop", "kms"])
def test_the_unit_is_valid(box: Sandbox, session: str, tmp_path: Path) -> None:
    box.ok("--user", "player", "--no-apt", "--no-venv", "--session", session)
    text = _unit(box)
    sections = _parse_unit(text)
    assert list(sections) == ["Unit", "Service", "Install"]
    for name, pairs in sections.items():
        assert {key for key, _ in pairs} <= KNOWN_KEYS[name], name
    service = dict(sections["Service"])
    assert service["ExecStart"].startswith("/")
    assert service["Restart"] == "on-failure" and int(service["RestartSec"]) > 0
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        return
    # verify wants ExecStart to exist: point it at a program that does.
    copy = tmp_path / "tabletop-companion.service"
    copy.write_text(text.replace(service["ExecStart"], "/bin/true"))
    result = subprocess.run(
        [analyze, "verify", str(copy)], capture_output=True, text=True, cwd=tmp_path
    )
    problems = [line for line in result.stderr.splitlines() if "tabletop-companion" in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_the_udev_rule_names_the_readers() -> None:
    pattern = re.compile(r'\s*([A-Z]+(?:\{\w+\})?)\s*(==|\+=|=)\s*"([^"]*)"\s*')
    names = {}
    for line in (TEMPLATES / "99-tabletop-companion.rules").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pairs: dict[str, str] = {}
        for part in line.split(","):
            match = pattern.fullmatch(part)
            assert match, f'not KEY op "value": {part!r}'
            pairs[match.group(1)] = match.group(3)
        assert pairs["SUBSYSTEM"] == "tty" and pairs["GROUP"] == "dialout"
        names[(pairs["ATTRS{idVendor}"], pairs["ATTRS{idProduct}"])] = pairs["SYMLINK"]
    assert names == {
        ("10c4", "ea60"): "companion-reader",
        ("1a86", "7523"): "companion-reader",
        ("0403", "6001"): "companion-reader",
        ("2e8a", "0005"): "companion-pico",
    }

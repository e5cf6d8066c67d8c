#!/usr/bin/env bash
# Installs uno-companion on a Raspberry Pi (Zero 2 W, 3, 4, 5) from this clone, or upgrades it.
#
#   sudo ./install.sh                  install, or upgrade after `git pull` (safe to re-run)
#   sudo ./install.sh --uninstall      remove what it added; keep the scores and the config
#   sudo ./install.sh --uninstall --purge   ...and the scores, the config and the user
#
# Options: --no-doctor (skip the final checks), --model-file FILE (pretend to be the board named
# in FILE, for tests; also $UNO_COMPANION_MODEL_FILE). What it decides per board (libraries,
# packages, drop-ins) is in companion/pi/plan.py; what it finds afterwards: `uno-companion doctor`.
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PREFIX=/opt/uno-companion
VENV=$PREFIX/venv
CONFIG_DIR=/etc/uno-companion
CONFIG=$CONFIG_DIR/config.toml
STATE_DIR=/var/lib/uno-companion
UNIT=/etc/systemd/system/uno-companion.service
DROPIN_DIR=/etc/systemd/system/uno-companion.service.d
DROPIN=$DROPIN_DIR/10-install.conf
PIGPIOD_DROPIN=/etc/systemd/system/pigpiod.service.d/uno-companion.conf
AVAHI_FILE=/etc/avahi/services/uno-companion.service
ADDED_PACKAGES=$PREFIX/apt-packages-added
SOURCE_STAMP=$PREFIX/source.sha256
SERVICE_USER=uno
COMMAND_LINK=/usr/local/bin/uno-companion
POLKIT_RULE=/etc/polkit-1/rules.d/50-uno-companion.rules
# The firmware's config.txt: Raspberry Pi OS 12 and later, then older systems.
BOOT_CONFIGS=(/boot/firmware/config.txt /boot/config.txt)
OVERLAY_MARK="# uno-companion: the I2S amplifier ([hardware] amplifier), added by install.sh"
# Package lists older than this many minutes are refreshed before installing.
APT_LISTS_MAX_AGE_MIN=1440

CHANGES=0
UNINSTALL=no
PURGE=no
DOCTOR=yes

say() { printf 'install.sh: %s\n' "$*"; }
changed() { CHANGES=$((CHANGES + 1)); say "$*"; }
die() { say "error: $*" >&2; exit 1; }

# run_logged WHAT COMMAND...: run quietly; on failure say what failed, show the command's last
# lines and stop (nothing half-done is reported as done).
run_logged() {
    local what=$1 log status=0
    shift
    log=$(mktemp)
    "$@" >"$log" 2>&1 || status=$?
    if [ "$status" != 0 ]; then
        say "error: $what failed (exit status $status): $*" >&2
        tail -n 15 "$log" | sed 's/^/    /' >&2
        rm -f "$log"
        exit 1
    fi
    rm -f "$log"
}

# Any other command that fails stops the script with its line and text, not silently.
set -E
trap 'say "error: line $LINENO failed: $BASH_COMMAND" >&2' ERR

usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --uninstall) UNINSTALL=yes ;;
        --purge) PURGE=yes ;;
        --no-doctor) DOCTOR=no ;;
        --model-file) shift; export UNO_COMPANION_MODEL_FILE="${1:?--model-file needs a file}" ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
    shift
done

[ "$(id -u)" = 0 ] || die "run it as root: sudo $0"

# A chroot or a container has systemctl but no running systemd: enable, never start.
systemd_running() { [ -d /run/systemd/system ]; }

# put_file MODE OWNER DEST: write stdin to DEST only when the content, mode or owner differ.
put_file() {
    local mode=$1 owner=$2 dest=$3 tmp
    tmp=$(mktemp)
    cat >"$tmp"
    if [ -f "$dest" ] && cmp -s "$tmp" "$dest" \
        && [ "$(stat -c '%a %U:%G' "$dest")" = "$mode $owner" ]; then
        rm -f "$tmp"
        return 0
    fi
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$tmp" "$dest"
    rm -f "$tmp"
    changed "wrote $dest"
}

remove_path() {
    if [ -e "$1" ] || [ -L "$1" ]; then
        rm -rf -- "$1"
        changed "removed $1"
    fi
}

# No __pycache__ owned by root in the maker's clone.
plan() { (cd "$SOURCE" && PYTHONDONTWRITEBYTECODE=1 python3 -m companion.pi.plan "$@" --config "$CONFIG"); }

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }

apt_install() {
    local missing=() package
    for package in "$@"; do installed "$package" || missing+=("$package"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing Debian packages: ${missing[*]}"
    run_logged "installing ${missing[*]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${missing[@]}"
    mkdir -p "$PREFIX"
    printf '%s\n' "${missing[@]}" >>"$ADDED_PACKAGES"
    changed "installed ${missing[*]}"
}

# True when the package lists are missing or the newest is older than a day: apt would look for
# package versions the mirror no longer has.
apt_lists_stale() {
    local newest
    newest=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mmin "-$APT_LISTS_MAX_AGE_MIN" \
        -print -quit 2>/dev/null)
    [ -z "$newest" ]
}

refresh_apt_lists() {
    apt_lists_stale || return 0
    say "refreshing the package lists (missing or older than a day)"
    run_logged "refreshing the package lists (apt-get update: check the network)" \
        apt-get -o DPkg::Lock::Timeout=600 update -q
}

boot_config() {
    local file
    for file in "${BOOT_CONFIGS[@]}"; do
        if [ -f "$file" ]; then echo "$file"; return 0; fi
    done
    return 1
}

# The amplifier's overlay in config.txt, once, under [all] (a [pi4] section at the end of the
# file would otherwise keep it from other boards). A line the maker wrote is kept as is.
install_overlay() {
    [ -n "$OVERLAY" ] || return 0
    local file
    if ! file=$(boot_config); then
        say "warning: no ${BOOT_CONFIGS[*]}: add the line dtoverlay=$OVERLAY to the firmware's config.txt yourself, then reboot"
        return 0
    fi
    if grep -Eq "^[[:space:]]*dtoverlay=$OVERLAY([[:space:],]|\$)" "$file"; then return 0; fi
    printf '\n%s\n[all]\ndtoverlay=%s\n' "$OVERLAY_MARK" "$OVERLAY" >>"$file"
    changed "added dtoverlay=$OVERLAY to $file: reboot once to hear the amplifier"
}

remove_overlay() {
    local file
    file=$(boot_config) || return 0
    if grep -qxF "$OVERLAY_MARK" "$file"; then
        sed -i "/^$(printf '%s' "$OVERLAY_MARK" | sed 's/[][\/.*^$]/\\&/g')\$/{N;N;d}" "$file"
        changed "removed the amplifier's overlay from $file"
    fi
}

# The content of what pip installs: any change (a `git pull`) means an upgrade.
source_hash() {
    (cd "$SOURCE" && find pyproject.toml README.md companion -type f \
        -not -path '*/__pycache__/*' -not -name '*.pyc' -print0 | sort -z \
        | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

# With a Camera Module, numpy and OpenCV must be the archive's, which Picamera2 was built with:
# a copy in the venv itself (an earlier install, the camera extra) would shadow them.
remove_shadowing_copies() {
    local package own=()
    for package in $PIP_REMOVED; do
        "$VENV/bin/python" - "$package" <<'PY' && own+=("$package")
import sys
from importlib.metadata import PackageNotFoundError, distribution
try:
    found = distribution(sys.argv[1])
except PackageNotFoundError:
    sys.exit(1)
sys.exit(0 if str(found.locate_file("")).startswith(sys.prefix) else 1)
PY
    done
    if [ ${#own[@]} -gt 0 ]; then
        run_logged "removing ${own[*]} from $VENV" \
            "$VENV/bin/pip" uninstall --quiet --yes --disable-pip-version-check "${own[@]}"
        changed "removed ${own[*]} from $VENV: Picamera2 uses the system's numpy and OpenCV"
    fi
}

install_program() {
    if [ ! -x "$VENV/bin/python" ]; then
        # --system-site-packages: the venv sees the GPIO libraries Debian installed.
        run_logged "creating the virtual environment $VENV" \
            python3 -m venv --system-site-packages "$VENV"
        changed "created the virtual environment $VENV"
    fi
    local wanted missing_pip=() library
    # The camera's extra (OpenCV, numpy) when [camera] is on is part of what pip installs.
    wanted="$(source_hash) ${PIP_EXTRAS}"
    for library in $PIP_PACKAGES; do
        "$VENV/bin/python" -c "import $library" 2>/dev/null || missing_pip+=("$library")
    done
    if [ "$(cat "$SOURCE_STAMP" 2>/dev/null)" != "$wanted" ] || [ ${#missing_pip[@]} -gt 0 ]; then
        # Built from a copy: pip must not leave root-owned build files in the clone.
        local build
        build=$(mktemp -d)
        (cd "$SOURCE" && tar cf - pyproject.toml README.md companion) | tar xf - -C "$build"
        say "installing the program into $VENV (a minute or two)"
        run_logged "installing the program with pip (check the network)" \
            "$VENV/bin/pip" install --quiet --disable-pip-version-check --upgrade \
            "$build${PIP_EXTRAS:+[$PIP_EXTRAS]}" "${missing_pip[@]}"
        rm -rf "$build"
        echo "$wanted" >"$SOURCE_STAMP"
        changed "installed uno-companion${PIP_EXTRAS:+[$PIP_EXTRAS]} and ${missing_pip[*]:-no extra library} into $VENV"
    fi
    remove_shadowing_copies
    # `uno-companion doctor`, `score`... typed as is.
    if [ "$(readlink "$COMMAND_LINK" 2>/dev/null)" != "$VENV/bin/uno-companion" ]; then
        ln -sfn "$VENV/bin/uno-companion" "$COMMAND_LINK"
        changed "linked $COMMAND_LINK"
    fi
}

install_user() {
    local group
    for group in $SERVICE_GROUPS; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            changed "created group $group"
        fi
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --groups "${SERVICE_GROUPS// /,}" "$SERVICE_USER"
        changed "created the service user $SERVICE_USER (groups ${SERVICE_GROUPS// /, })"
    fi
    for group in $SERVICE_GROUPS; do
        if ! id -nG "$SERVICE_USER" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -aG "$group" "$SERVICE_USER"
            changed "added $SERVICE_USER to group $group"
        fi
    done
    # The maker who ran sudo may edit the config and run `calibrate` without sudo.
    if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ] \
        && ! id -nG "$SUDO_USER" | tr ' ' '\n' | grep -qx "$SERVICE_USER"; then
        usermod -aG "$SERVICE_USER" "$SUDO_USER"
        changed "added $SUDO_USER to group $SERVICE_USER (log in again to edit the config)"
    fi
}

install_config() {
    # The service writes here too (calibrate, settings saved from the page): group uno, setgid.
    if [ ! -d "$CONFIG_DIR" ] || [ "$(stat -c '%a %U:%G' "$CONFIG_DIR")" != "2775 root:$SERVICE_USER" ]; then
        install -d -m 2775 -o root -g "$SERVICE_USER" "$CONFIG_DIR"
        changed "prepared $CONFIG_DIR"
    fi
    if [ ! -e "$CONFIG" ]; then
        # Every command (score, calibrate, doctor) then finds the service's database.
        sed 's|^# state_dir = "/var/lib/uno-companion"|state_dir = "/var/lib/uno-companion"|' \
            "$SOURCE/config.example.toml" \
            | install -m 0664 -o "$SERVICE_USER" -g "$SERVICE_USER" /dev/stdin "$CONFIG"
        changed "wrote $CONFIG (players, language, pins: edit it, then restart the service)"
    elif ! runuser -u "$SERVICE_USER" -- test -w "$CONFIG"; then
        chgrp "$SERVICE_USER" "$CONFIG" && chmod g+rw "$CONFIG"
        changed "let the service write $CONFIG (kept its content)"
    fi
    # What systemd's StateDirectory= would create at first start; `score` may come first.
    if [ ! -d "$STATE_DIR" ]; then
        install -d -m 0770 -o "$SERVICE_USER" -g "$SERVICE_USER" "$STATE_DIR"
        changed "created $STATE_DIR (the scores)"
    fi
}

install_units() {
    put_file 644 root:root "$UNIT" <"$SOURCE/systemd/uno-companion.service"
    put_file 644 root:root "$PREFIX/docs/raspberry-pi.md" <"$SOURCE/docs/raspberry-pi.md"
    plan dropin | put_file 644 root:root "$DROPIN"
    if [ "$PIGPIOD_DROPIN_WANTED" = yes ]; then
        # Written even before pigpio is installed: a pigpiod added later starts with -t 0 too.
        plan pigpiod-dropin | put_file 644 root:root "$PIGPIOD_DROPIN"
    fi
    plan avahi | put_file 644 root:root "$AVAHI_FILE"
    plan polkit | put_file 644 root:root "$POLKIT_RULE"
}

# enable_units CHANGES_BEFORE_UNITS: reload when a unit file changed, restart after any change.
enable_units() {
    local before=$1 unit
    if systemd_running && [ "$CHANGES" != "$before" ]; then systemctl daemon-reload; fi
    local units=(uno-companion.service)
    [ "$PIGPIOD" = yes ] && units=(pigpiod.service "${units[@]}")
    for unit in "${units[@]}"; do
        if [ "$(systemctl is-enabled "$unit" 2>/dev/null)" != enabled ]; then
            systemctl enable --quiet "$unit"
            changed "enabled $unit (starts at boot)"
        fi
    done
    if ! systemd_running; then
        say "no running systemd here (a chroot or container): enabled, not started"
        return 0
    fi
    for unit in "${units[@]}"; do
        if [ "$CHANGES" != 0 ] || ! systemctl is-active --quiet "$unit"; then
            systemctl restart "$unit"
            say "started $unit"
        fi
    done
}

uninstall() {
    if systemd_running; then systemctl stop uno-companion.service 2>/dev/null || true; fi
    if [ -e "$UNIT" ]; then
        systemctl disable --quiet uno-companion.service 2>/dev/null || true
    fi
    remove_path "$UNIT"
    remove_path "$DROPIN"
    rmdir "$DROPIN_DIR" 2>/dev/null || true   # kept when it holds your own drop-ins
    if [ -e "$PIGPIOD_DROPIN" ]; then
        remove_path "$PIGPIOD_DROPIN"
        rmdir "$(dirname "$PIGPIOD_DROPIN")" 2>/dev/null || true
    fi
    remove_path "$AVAHI_FILE"
    remove_path "$COMMAND_LINK"
    remove_path "$POLKIT_RULE"
    remove_overlay
    if [ -s "$ADDED_PACKAGES" ]; then
        # Only what this installer added (and nothing else still needs).
        mapfile -t packages < <(sort -u "$ADDED_PACKAGES")
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 remove -y -q \
            "${packages[@]}" >/dev/null || say "could not remove ${packages[*]}; left installed"
        changed "removed Debian packages ${packages[*]}"
    fi
    remove_path "$PREFIX"
    if systemd_running; then systemctl daemon-reload; fi
    if [ "$PURGE" = yes ]; then
        remove_path "$STATE_DIR"
        remove_path "$CONFIG_DIR"
        if id "$SERVICE_USER" >/dev/null 2>&1; then
            userdel "$SERVICE_USER" && changed "removed the user $SERVICE_USER"
        fi
    else
        say "kept the scores ($STATE_DIR) and the config ($CONFIG_DIR); --purge removes them"
    fi
    say "uninstalled ($CHANGES changes)"
}

main() {
    if [ "$UNINSTALL" = yes ]; then uninstall; return; fi
    command -v apt-get >/dev/null || die "this installer needs Raspberry Pi OS (Debian)"
    refresh_apt_lists
    if ! command -v python3 >/dev/null; then apt_install python3; fi
    local settings
    settings=$(plan env) || exit 3
    eval "$settings"
    say "board: $BOARD_MODEL; GPIO library: $GPIO_LIBRARY (from ${PIP_PACKAGES:+PyPI: $PIP_PACKAGES, }Debian: the rest)"
    # shellcheck disable=SC2086  # a list of package names
    apt_install $APT_PACKAGES
    if [ -n "$CAMERA" ]; then
        if [ -n "$PIP_REMOVED" ]; then
            say "camera: [camera] source = $CAMERA; Picamera2, OpenCV and numpy from the system's archive (Picamera2 is built against its numpy)"
        else
            say "camera: [camera] source = $CAMERA${PIP_EXTRAS:+; OpenCV and numpy from the $PIP_EXTRAS extra (64-bit OS)}"
        fi
    fi
    if [ -n "$APT_MISSING" ]; then
        say "camera: $APT_MISSING is not in this system's package archive; Raspberry Pi OS has it," \
            "and on a Raspberry Pi this step installs it (sudo apt install $APT_MISSING)." \
            "Until then doctor names it and the box plays with taps and buttons"
    fi
    install_user
    install_program
    install_config
    install_overlay
    local before=$CHANGES
    install_units
    enable_units "$before"
    if [ "$CHANGES" = 0 ]; then say "nothing to change"; else say "$CHANGES changes"; fi
    if [ "$DOCTOR" = yes ]; then
        say "checking the box: uno-companion doctor"
        runuser -u "$SERVICE_USER" -- "$VENV/bin/uno-companion" doctor --config "$CONFIG" || true
    fi
}

main

#!/usr/bin/env bash
# make pi-check: the installer on an arm64 Debian Bookworm root (debootstrap + qemu-user-static),
# pretending to be each board in turn. Needs root and a few minutes; the root filesystem, the
# Debian packages and pip's downloads are cached in $PI_CHECK_CACHE between runs.
#
# Prints one line per check and a last line "pi-check: PASSED/TOTAL"; exit status 0 when all pass.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PI_CHECK_CACHE:-/var/cache/uno-companion-pi-check}
BOARDS=${PI_CHECK_BOARDS:-"pi4 pi5"}
MIRROR=${PI_CHECK_MIRROR:-http://deb.debian.org/debian}
LOGS=$CACHE/logs
HOST_PYTHON=$REPO/.venv/bin/python
[ -x "$HOST_PYTHON" ] || HOST_PYTHON=python3
declare -A MODEL=(
    [zero2w]="Raspberry Pi Zero 2 W Rev 1.0"
    [pi3]="Raspberry Pi 3 Model B Plus Rev 1.3"
    [pi4]="Raspberry Pi 4 Model B Rev 1.5"
    [pi5]="Raspberry Pi 5 Model B Rev 1.0"
)
# What doctor must find wrong in a chroot with no pigpiod and no sound card.
declare -A EXPECTED_FAULTS=([zero2w]="audio pigpiod" [pi3]="audio pigpiod" [pi4]="audio pigpiod" [pi5]="audio")
declare -A EXPECTED_LIBRARIES=([zero2w]="pigpio lgpio" [pi3]="pigpio lgpio" [pi4]="pigpio lgpio" [pi5]="lgpio")

PASSED=0
TOTAL=0
MOUNTS=()

check() { # check NAME COMMAND...: one line, PASS or FAIL
    local name=$1
    shift
    TOTAL=$((TOTAL + 1))
    local out
    if out=$("$@" 2>&1); then
        PASSED=$((PASSED + 1))
        printf 'pass  %-34s %s\n' "$name" "$(tail -n1 <<<"$out")"
    else
        printf 'FAIL  %-34s %s\n' "$name" "$(tail -n3 <<<"$out" | tr '\n' ' ')"
    fi
}

cleanup() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTS[$i]}" 2>/dev/null; done
    MOUNTS=()
}
trap cleanup EXIT

mount_into() { # mount_into ROOT: what a chroot needs; /run stays empty (no running systemd)
    local root=$1
    mkdir -p "$CACHE/apt-archives/partial" "$CACHE/pip" "$root/root/.cache/pip"
    mount --bind /dev "$root/dev" && MOUNTS+=("$root/dev")
    mount -t proc proc "$root/proc" && MOUNTS+=("$root/proc")
    mount -t tmpfs tmpfs "$root/run" && MOUNTS+=("$root/run")
    mount --bind "$CACHE/apt-archives" "$root/var/cache/apt/archives" \
        && MOUNTS+=("$root/var/cache/apt/archives")
    mount --bind "$CACHE/pip" "$root/root/.cache/pip" && MOUNTS+=("$root/root/.cache/pip")
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # This machine may reach PyPI through a TLS proxy: pip in the root trusts the host's CAs.
    cp /etc/ssl/certs/ca-certificates.crt "$root/etc/pi-check-host-ca.crt"
    printf '[global]\ncert = /etc/pi-check-host-ca.crt\n' >"$root/etc/pip.conf"
}

# A login PATH as on Raspberry Pi OS (with /usr/local/bin, where `uno-companion` is linked).
in_root() { local root=$1; shift; chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

prepare_host() {
    command -v debootstrap >/dev/null && [ -e /usr/bin/qemu-aarch64-static ] || {
        echo "pi-check: installing debootstrap qemu-user-static binfmt-support"
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
            --no-install-recommends debootstrap qemu-user-static binfmt-support systemd >/dev/null
    }
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { echo "pi-check: qemu-aarch64 binfmt missing"; exit 1; }
}

# The cached base: what Raspberry Pi OS Lite has before the maker's one command (Python,
# systemd, sudo, CA certificates), for arm64.
prepare_base() {
    local base=$CACHE/base
    [ -e "$base/.ready" ] && return 0
    echo "pi-check: building the arm64 Bookworm root (once, a few minutes)"
    rm -rf "$base.tmp"
    debootstrap --arch=arm64 --variant=minbase bookworm "$base.tmp" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1 \
        || { echo "pi-check: debootstrap failed, see $LOGS/debootstrap.log"; exit 1; }
    mount_into "$base.tmp"
    in_root "$base.tmp" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3 systemd systemd-sysv ca-certificates sudo' >"$LOGS/base.log" 2>&1 \
        || { echo "pi-check: base packages failed, see $LOGS/base.log"; exit 1; }
    cleanup
    rm -f "$base.tmp/etc/resolv.conf"
    mv "$base.tmp" "$base" && touch "$base/.ready"
}

# A fresh copy of the base with this working tree where a maker clones it.
fresh_root() {
    local board=$1 root=$CACHE/root-$1 mounted
    # A run that was interrupted may have left mounts: never delete through them.
    for mounted in $(findmnt -rno TARGET | grep "^$root/" | sort -r); do umount -l "$mounted"; done
    rm -rf --one-file-system "$root"
    cp -a "$CACHE/base" "$root"
    mkdir -p "$root/home/pi/uno-companion"
    (cd "$REPO" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) \
        | tar -xf - -C "$root/home/pi/uno-companion"
    printf '%s\0' "${MODEL[$board]}" >"$root/etc/fake-device-tree-model"
    # The firmware's config.txt as Raspberry Pi OS ships it (shortened), a [pi4] section last.
    mkdir -p "$root/boot/firmware"
    printf '%s\n' "# For more options and information see http://rptl.io/configtxt" \
        "dtparam=audio=on" "camera_auto_detect=1" "display_auto_detect=1" "auto_initramfs=1" \
        "dtoverlay=vc4-kms-v3d" "max_framebuffers=2" "disable_fw_kms_setup=1" "arm_64bit=1" \
        "[cm4]" "otg_mode=1" "[pi4]" "arm_boost=1" >"$root/boot/firmware/config.txt"
    echo "$root"
}

snapshot() { # what the installer may touch: content, mode and owner of every file
    local root=$1
    (cd "$root" && find opt/uno-companion etc/uno-companion etc/systemd/system etc/avahi/services \
        var/lib/uno-companion usr/local/bin etc/polkit-1/rules.d etc/passwd etc/group \( -type f -o -type l -o -type d \) \
        -printf '%p %m %u %g %s %T@\n' 2>/dev/null | sort)
}

run_install() { in_root "$1" bash /home/pi/uno-companion/install.sh --model-file /etc/fake-device-tree-model "${@:2}"; }

expect_install() {
    local log=$LOGS/install-$2.log
    run_install "$1" >"$log" 2>&1 || { tail -n 5 "$log"; return 1; }
    grep -o 'board: .*' "$log" | head -n1
}

expect_libraries() {
    local root=$1 board=$2 library
    for library in ${EXPECTED_LIBRARIES[$board]}; do
        in_root "$root" /opt/uno-companion/venv/bin/python -c "import $library" || return 1
    done
    echo "venv imports ${EXPECTED_LIBRARIES[$board]}"
}

expect_plan() { # the installer's decision for a board, without installing
    local root=$1 board=$2
    printf '%s\0' "${MODEL[$board]}" >"$root/tmp/model"
    local env
    env=$(in_root "$root" sh -c "cd /home/pi/uno-companion && python3 -m companion.pi.plan env --model-file /tmp/model") || return 1
    grep -qx "GPIO_LIBRARIES='${EXPECTED_LIBRARIES[$board]}'" <<<"$env" \
        || grep -qx "GPIO_LIBRARIES=${EXPECTED_LIBRARIES[$board]}" <<<"$env" || { echo "$env"; return 1; }
    echo "${MODEL[$board]} → $(grep GPIO_LIBRARIES <<<"$env")"
}

expect_verify() {
    local out
    out=$(in_root "$1" systemd-analyze verify /etc/systemd/system/uno-companion.service 2>&1)
    [ -z "$out" ] || { echo "$out"; return 1; }
    echo "no warnings"
}

expect_security() {
    local root=$1 score
    # The unit with its drop-ins, as systemd will run it (systemctl cat needs a running systemd).
    cat "$root/etc/systemd/system/uno-companion.service" \
        "$root"/etc/systemd/system/uno-companion.service.d/*.conf >"$root/tmp/uno-companion.service" \
        || return 1
    score=$(in_root "$root" systemd-analyze security --offline=true /tmp/uno-companion.service 2>&1 \
        | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    [ -n "$score" ] || return 1
    awk -v s="$score" 'BEGIN { exit !(s < 3.0) }' || { echo "exposure $score"; return 1; }
    echo "exposure $score (< 3.0)"
}

expect_doctor() {
    local root=$1 board=$2 json faults
    # As typed by hand: no --config, no $STATE_DIRECTORY; it must find the service's files.
    json=$(in_root "$root" runuser -u uno -- env UNO_COMPANION_MODEL_FILE=/etc/fake-device-tree-model \
        uno-companion doctor --json --backend mock)
    [ $? -eq 1 ] || { echo "doctor should exit 1 (not ready)"; return 1; }
    faults=$(python3 -c 'import json,sys; r=json.load(sys.stdin); print(" ".join(sorted(c["id"] for c in r["checks"] if c["status"] != "ok")))' <<<"$json") || return 1
    grep -q '"detail": "/var/lib/uno-companion/' <<<"$json" || { echo "not the service's database"; return 1; }
    grep -q '"detail": "/etc/uno-companion/config.toml' <<<"$json" || { echo "not the service's config"; return 1; }
    local want
    for want in ${EXPECTED_FAULTS[$board]}; do
        grep -qw "$want" <<<"$faults" || { echo "missing fault $want in: $faults"; return 1; }
    done
    echo "faults: $faults"
}

expect_replay() {
    local root=$1 session=$REPO/tests/pi-check-session.txt expected
    cp "$session" "$root/tmp/session.txt"
    # The same script and seed give the same game on arm64 as on this machine.
    expected=$(cd "$REPO" && "$HOST_PYTHON" -m companion simulate --script "$session" --seed 7 2>/dev/null) || return 1
    local got
    got=$(in_root "$root" runuser -u uno -- /opt/uno-companion/venv/bin/uno-companion simulate \
        --script /tmp/session.txt --seed 7 2>/dev/null) || return 1
    [ "$got" = "$expected" ] || { diff <(echo "$expected") <(echo "$got") | head; return 1; }
    echo "$(wc -l <<<"$got") events, identical to x86-64"
}

expect_overlay() { # the amplifier's overlay, active for every board (under [all])
    local root=$1 config=$1/boot/firmware/config.txt line
    line=$(grep -n '^dtoverlay=max98357a$' "$config") || { tail -n 5 "$config"; return 1; }
    awk '/^\[/ { section = $0 } /^dtoverlay=max98357a$/ { exit !(section == "[all]") }' "$config" \
        || { echo "not under [all]"; return 1; }
    echo "config.txt:$line (under [all])"
}

expect_pcm_clock_off() { # pigpiod's drop-in keeps its clock off the I2S amplifier
    local root=$1 dropin=$1/etc/systemd/system/pigpiod.service.d/uno-companion.conf
    grep -qx 'ExecStart=/usr/bin/pigpiod -l -t 0' "$dropin" || { cat "$dropin"; return 1; }
    echo "$(grep '^ExecStart=/' "$dropin")"
}

set_amplifier() { # set_amplifier ROOT VALUE: the maker's choice in the service's config
    sed -i "s/^amplifier = .*/amplifier = \"$2\"/" "$1/etc/uno-companion/config.toml"
}

expect_any_order() { # pigpio first, the amplifier chosen later (and back): the same end state
    local root=$1 dropin=$1/etc/systemd/system/pigpiod.service.d/uno-companion.conf
    local config=$1/boot/firmware/config.txt
    set_amplifier "$root" none
    sed -i '/^# uno-companion: the I2S amplifier/,/^dtoverlay=max98357a$/d' "$config"
    run_install "$root" --no-doctor >/dev/null || return 1
    grep -qx 'ExecStart=/usr/bin/pigpiod -l' "$dropin" || { echo "without the amplifier:"; cat "$dropin"; return 1; }
    ! grep -q max98357a "$config" || { echo "overlay added without the amplifier"; return 1; }
    set_amplifier "$root" max98357a
    run_install "$root" --no-doctor >/dev/null || return 1
    grep -qx 'ExecStart=/usr/bin/pigpiod -l -t 0' "$dropin" || { cat "$dropin"; return 1; }
    [ "$(grep -c '^dtoverlay=max98357a$' "$config")" = 1 ] || { echo "overlay not there once"; return 1; }
    echo "amplifier chosen after pigpio: -t 0 and the overlay, once"
}

expect_missing_overlay_named() { # doctor names the overlay when a maker removed it
    local root=$1 config=$1/boot/firmware/config.txt json detail
    cp "$config" "$root/tmp/config.txt.kept"
    sed -i '/^dtoverlay=max98357a$/d' "$config"
    json=$(in_root "$root" runuser -u uno -- env UNO_COMPANION_MODEL_FILE=/etc/fake-device-tree-model \
        uno-companion doctor --json --backend mock)
    cp "$root/tmp/config.txt.kept" "$config"
    detail=$(python3 -c 'import json,sys; c={c["id"]: c for c in json.load(sys.stdin)["checks"]}["amplifier"]; print(c["status"], c["detail"])' <<<"$json") || return 1
    grep -q '^fail dtoverlay=max98357a is missing from /boot/firmware/config.txt' <<<"$detail" \
        || { echo "$detail"; return 1; }
    echo "$detail"
}

set_camera() { # set_camera ROOT SOURCE: the maker turns the camera on in the service's config
    local config=$1/etc/uno-companion/config.toml
    local kept
    kept=$(awk '/^\[/ { skip = ($0 == "[camera]") } !skip' "$config") || return 1
    printf '%s\n\n[camera]\nenabled = true\nsource = "%s"\n' "$kept" "$2" >"$config"
}

expect_camera_install() { # a Camera Module configured: its packages, group and devices
    local root=$1 log=$LOGS/install-camera.log dropin=$1/etc/systemd/system/uno-companion.service.d/10-install.conf
    set_camera "$root" picamera2
    run_install "$root" --no-doctor >"$log" 2>&1 || { tail -n 5 "$log"; return 1; }
    # Debian's archive has no python3-picamera2 (Raspberry Pi OS's has): the installer says so
    grep -q 'camera: python3-picamera2 is not in this system.s package archive' "$log" \
        || { grep camera "$log"; return 1; }
    # Picamera2 is built against the archive's numpy: the venv uses the archive's numpy and
    # OpenCV, and a copy pip left in the venv (an earlier install) is taken out again.
    system_numpy() {
        in_root "$root" /opt/uno-companion/venv/bin/python -c \
            "import cv2, numpy; assert numpy.__file__.startswith('/usr/lib/python3/dist-packages'), numpy.__file__"
    }
    system_numpy || return 1
    in_root "$root" /opt/uno-companion/venv/bin/pip install --quiet 'numpy>=2' >>"$log" 2>&1 || return 1
    ! system_numpy 2>/dev/null || { echo "numpy 2 in the venv did not shadow the system's"; return 1; }
    run_install "$root" --no-doctor >>"$log" 2>&1 || { tail -n 5 "$log"; return 1; }
    grep -q 'removed numpy from /opt/uno-companion/venv' "$log" || { tail -n 5 "$log"; return 1; }
    system_numpy || return 1
    in_root "$root" id -nG uno | grep -qw video || { echo "uno is not in group video"; return 1; }
    grep -qx 'SupplementaryGroups=video' "$dropin" && grep -qx 'DeviceAllow=char-video4linux rw' "$dropin" \
        || { cat "$dropin"; return 1; }
    expect_verify "$root" >/dev/null || { expect_verify "$root"; return 1; }
    echo "venv imports the system's cv2 and numpy (a numpy 2 put in the venv is removed), uno in video; python3-picamera2: a real Pi's step"
}

expect_camera_read() { # doctor's test read, through the installed venv, from a folder of frames
    local root=$1 out
    mkdir -p "$root/tmp/frames"
    (cd "$REPO" && "$HOST_PYTHON" -c '
import json, sys, cv2
from companion.vision import render
from companion.vision.kinds import Card
from companion.vision.measure import held_out_styles
(still,) = render.still_set(1, 41, held_out_styles(), (Card("skip", "red"),))
cv2.imwrite(sys.argv[1] + "/frame_0.jpg", still.image)
open(sys.argv[1] + "/frames.json", "w").write(json.dumps({"frames": [{"file": "frame_0.jpg", "t_ms": 0}], "drawn": True}))
' "$root/tmp/frames") || return 1
    chmod -R a+rX "$root/tmp/frames"
    out=$(in_root "$root" runuser -u uno -- /opt/uno-companion/venv/bin/python -c '
from companion.config.camera import CameraConfig
from companion.pi.doctor import System
print(System().camera_read(CameraConfig(enabled=True, source="folder:/tmp/frames")))') || { echo "$out"; return 1; }
    grep -q 'test read: red skip' <<<"$out" || { echo "$out"; return 1; }
    echo "$out"
}

expect_idempotent() {
    local root=$1 before after out
    before=$(snapshot "$root")
    out=$(run_install "$root" --no-doctor) || { echo "$out"; return 1; }
    after=$(snapshot "$root")
    grep -q "nothing to change" <<<"$out" || { echo "$out"; return 1; }
    [ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after") | head; return 1; }
    echo "nothing to change, $(wc -l <<<"$after") paths untouched"
}

expect_uninstall() {
    local root=$1
    in_root "$root" runuser -u uno -- touch /var/lib/uno-companion/scores.sqlite3
    run_install "$root" --uninstall >/dev/null || return 1
    for gone in etc/systemd/system/uno-companion.service opt/uno-companion etc/avahi/services/uno-companion.service \
        usr/local/bin/uno-companion etc/polkit-1/rules.d/50-uno-companion.rules \
        etc/systemd/system/multi-user.target.wants/uno-companion.service; do
        [ ! -e "$root/$gone" ] || { echo "$gone is still there"; return 1; }
    done
    [ -e "$root/var/lib/uno-companion/scores.sqlite3" ] && [ -e "$root/etc/uno-companion/config.toml" ] \
        || { echo "scores or config lost"; return 1; }
    ! grep -q 'max98357a' "$root/boot/firmware/config.txt" || { echo "overlay left in config.txt"; return 1; }
    grep -qx 'arm_boost=1' "$root/boot/firmware/config.txt" || { echo "config.txt damaged"; return 1; }
    echo "unit, venv, avahi file and overlay removed; scores and config kept"
}

main() {
    [ "$(id -u)" = 0 ] || { echo "pi-check: needs root (sudo make pi-check)"; exit 1; }
    mkdir -p "$LOGS"
    prepare_host
    prepare_base
    local board root
    for board in $BOARDS; do
        root=$(fresh_root "$board")
        mount_into "$root"
        check "$board: install" expect_install "$root" "$board"
        check "$board: GPIO library in the venv" expect_libraries "$root" "$board"
        check "$board: systemd-analyze verify" expect_verify "$root"
        check "$board: systemd-analyze security" expect_security "$root"
        check "$board: doctor --json (mock pins)" expect_doctor "$root" "$board"
        check "$board: amplifier overlay in config.txt" expect_overlay "$root"
        check "$board: doctor names a missing overlay" expect_missing_overlay_named "$root"
        if [ "${EXPECTED_LIBRARIES[$board]%% *}" = pigpio ]; then
            check "$board: pigpiod off the PCM clock" expect_pcm_clock_off "$root"
            check "$board: amplifier after pigpio, same end" expect_any_order "$root"
        fi
        check "$board: scripted session replays" expect_replay "$root"
        check "$board: camera packages installed" expect_camera_install "$root"
        check "$board: doctor's camera test read" expect_camera_read "$root"
        check "$board: second install changes nothing" expect_idempotent "$root"
        check "$board: uninstall keeps the scores" expect_uninstall "$root"
        cleanup
    done
    # The other boards' decisions, from the same root.
    root=$CACHE/root-${BOARDS##* }
    mount_into "$root"
    for board in zero2w pi3 pi4 pi5; do
        check "$board: install plan" expect_plan "$root" "$board"
    done
    cleanup
    echo "pi-check: $PASSED/$TOTAL"
    [ "$PASSED" = "$TOTAL" ]
}

main "$@"

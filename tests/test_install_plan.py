"""The installer's decisions: board → GPIO libraries and packages, audio choice, drop-ins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.devices import Board
from companion.devices.config import AMPLIFIERS
from companion.pi.plan import AMPLIFIER_OVERLAYS, NotAPi, avahi_service, camera_source, make_plan
from companion.speech.audio import choose_audio, parse_cards

ROOT = Path(__file__).resolve().parent.parent
PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
ZERO2 = "Raspberry Pi Zero 2 W Rev 1.0"
PI3 = "Raspberry Pi 3 Model B Plus Rev 1.3"
# What Raspberry Pi OS 12 offers, and what plain Debian 12 offers.
PI_OS = {"python3-pigpio", "python3-lgpio", "pigpio"}
DEBIAN = {"python3-pigpio"}

CARDS = {
    "pi4": " 0 [vc4hdmi0      ]: vc4-hdmi - vc4-hdmi-0\n"
    "                      vc4-hdmi-0\n"
    " 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
    "                      bcm2835 Headphones\n",
    "usb": " 2 [Device         ]: USB-Audio - USB Audio Device\n"
    "                      C-Media USB Audio Device at usb-xhci-hcd.0-1, full speed\n",
    "hat": " 3 [sndrpihifiberry]: HifiberryDac - snd_rpi_hifiberry_dac\n"
    "                      snd_rpi_hifiberry_dac\n",
}


def plan(model: str, available: set[str] = PI_OS, audio: str = "jack", systemd: int = 252):  # type: ignore[no-untyped-def]
    return make_plan(Board(model), lambda name: name in available, systemd, audio)


@pytest.mark.parametrize(
    ("model", "family", "libraries"),
    [
        (PI4, "4", ("pigpio", "lgpio")),
        (PI3, "3", ("pigpio", "lgpio")),
        (ZERO2, "zero2w", ("pigpio", "lgpio")),
        (PI5, "5", ("lgpio",)),
        ("Raspberry Pi 500 Rev 1.0", "5", ("lgpio",)),
        ("Raspberry Pi Compute Module 5 Rev 1.0", "5", ("lgpio",)),
    ],
)
def test_board_picks_its_gpio_libraries(model: str, family: str, libraries: tuple[str]) -> None:
    chosen = plan(model)
    assert chosen.family == family and chosen.libraries == libraries
    assert chosen.gpio_library == libraries[0]


def test_pi_os_gives_every_library_from_debian_and_pigpiod() -> None:
    chosen = plan(PI4)
    assert {"python3-pigpio", "python3-lgpio", "pigpio", "espeak-ng", "alsa-utils"} <= set(
        chosen.apt_packages
    )
    assert chosen.pip_packages == () and chosen.pigpiod


def test_one_source_per_library_when_debian_lacks_one() -> None:
    chosen = plan(PI4, available=DEBIAN)
    assert "python3-pigpio" in chosen.apt_packages and chosen.pip_packages == ("lgpio",)
    assert "python3-lgpio" not in chosen.apt_packages
    assert not chosen.pigpiod  # no daemon packaged: nothing to enable


def test_pi5_never_gets_pigpio() -> None:
    chosen = plan(PI5)
    assert not {"pigpio", "python3-pigpio"} & set(chosen.apt_packages)
    assert not chosen.pigpiod and "pigpiod" not in chosen.service_dropin()
    dropin = chosen.service_dropin()
    assert "ReadWritePaths=-/sys/devices/platform/axi/1000120000.pcie/1f00098000.pwm" in dropin


def test_not_a_pi_is_refused_with_the_way_out() -> None:
    with pytest.raises(NotAPi, match="simulate"):
        plan("QEMU Virtual Machine")
    with pytest.raises(NotAPi):
        make_plan(Board(None), lambda _: True, 252, "none")


def test_dropin_adds_pigpiod_and_restart_steps_only_where_they_exist() -> None:
    bookworm = plan(PI4).service_dropin()
    assert "Wants=pigpiod.service" in bookworm and "RestartSteps" not in bookworm
    trixie = plan(PI4, systemd=257).service_dropin()
    assert "RestartSteps=" in trixie and "RestartMaxDelaySec=" in trixie


def test_pigpiod_clocks_from_pwm_only_with_a_speaker_hat() -> None:
    assert plan(PI4, audio="hat").pigpiod_args == "-l -t 0"
    assert "-t 0" in plan(PI4, audio="hat").pigpiod_dropin()
    assert plan(PI4, audio="jack").pigpiod_args == "-l"  # the jack needs the PWM clock


@pytest.mark.parametrize("audio", ["jack", "hat", "usb", "none"])
def test_the_configured_amplifier_gets_its_overlay_and_pigpiod_off_pcm_in_any_order(
    audio: str,
) -> None:
    # Whatever sound card the board shows now (the amplifier's overlay not loaded yet, before the
    # reboot; or loaded, on a re-run), the configured amplifier decides: the same plan each time.
    chosen = make_plan(Board(PI4), lambda name: name in PI_OS, 252, audio, "max98357a")
    assert chosen.overlay == "max98357a" and chosen.pigpiod_args == "-l -t 0"
    assert "OVERLAY=max98357a\n" in chosen.env() and "AMPLIFIER=max98357a\n" in chosen.env()
    assert "-t 0: pigpiod's default PCM clock would stop the I2S amplifier" in (
        chosen.pigpiod_dropin()
    )
    assert set(AMPLIFIER_OVERLAYS) == set(AMPLIFIERS)  # the installer knows every choice
    without = make_plan(Board(PI4), lambda name: name in PI_OS, 252, audio, "none")
    assert without.overlay == "" and "OVERLAY=''\n" in without.env()
    assert without.pigpiod_args == ("-l -t 0" if audio == "hat" else "-l")


def test_env_is_shell_safe() -> None:
    env = plan(PI4).env()
    assert "BOARD_MODEL='Raspberry Pi 4 Model B Rev 1.5'\n" in env
    done = subprocess.run(
        ["bash", "-c", 'eval "$0"; echo "$GPIO_LIBRARY|$PIGPIOD|$BOARD_FAMILY"', env],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "pigpio|yes|4"


@pytest.mark.parametrize(
    ("cards", "output", "kind"),
    [
        ("pi4", "auto", "jack"),
        ("pi4+usb", "auto", "usb"),
        ("pi4+hat", "auto", "hat"),
        ("pi4+usb+hat", "auto", "usb"),
        ("pi4", "hdmi", "hdmi"),
        ("pi4+usb", "jack", "jack"),
        ("hat", "auto", "hat"),
    ],
)
def test_audio_auto_prefers_usb_then_hat_then_jack_then_hdmi(
    cards: str, output: str, kind: str
) -> None:
    text = "".join(CARDS[name] for name in cards.split("+"))
    choice = choose_audio(output, parse_cards(text))
    assert choice.card is not None and choice.card.kind == kind
    assert choice.device == f"default:CARD={choice.card.id}"


def test_audio_pi5_with_hdmi_only_and_none_found() -> None:
    hdmi = parse_cards(CARDS["pi4"].split("\n 1")[0])
    assert choose_audio("auto", hdmi).card.kind == "hdmi"  # type: ignore[union-attr]
    missing = choose_audio("usb", hdmi)
    assert missing.card is None and missing.device == "" and "vc4hdmi0" in missing.reason
    assert choose_audio("none", hdmi).card is None
    assert choose_audio("hat", parse_cards(CARDS["hat"])).pins == {18, 19, 20, 21}


def test_avahi_file_carries_the_configured_port() -> None:
    text = avahi_service(9090)
    assert "<port>9090</port>" in text and "_http._tcp" in text


def test_plan_runs_with_system_python_and_a_fake_model(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(PI5.encode() + b"\0")
    config = tmp_path / "config.toml"
    config.write_text("[web]\nport = 8123\n")
    # -S: no site-packages, as before the venv exists.
    base = [sys.executable, "-S", "-m", "companion.pi.plan"]
    avahi = subprocess.run(
        [*base, "avahi", "--config", str(config)], cwd=ROOT, capture_output=True, text=True
    )
    assert "<port>8123</port>" in avahi.stdout
    dropin = subprocess.run(
        [*base, "dropin", "--model-file", str(model), "--cards-file", str(tmp_path / "none")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert dropin.returncode == 0, dropin.stderr
    assert "GPIO library: lgpio" in dropin.stdout
    # The amplifier comes from the config: the BOM's by default, none when the maker says so.
    env = [*base, "env", "--model-file", str(model), "--cards-file", str(tmp_path / "none")]
    for text, overlay in (("", "max98357a"), ('[hardware]\namplifier = "none"\n', "''")):
        config.write_text(text)
        done = subprocess.run(
            [*env, "--config", str(config)], cwd=ROOT, capture_output=True, text=True
        )
        assert f"OVERLAY={overlay}\n" in done.stdout, done.stderr
    config.write_text('[hardware]\namplifier = "pcm5102"\n')
    done = subprocess.run([*env, "--config", str(config)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and "amplifier = 'pcm5102' is not one of" in done.stderr


def test_polkit_rule_lets_only_the_service_user_power_off() -> None:
    from companion.pi.plan import BASE_PACKAGES, POLKIT_RULE

    assert "polkitd" in BASE_PACKAGES
    assert 'subject.user == "uno"' in POLKIT_RULE
    assert "login1.power-off" in POLKIT_RULE and "reboot" not in POLKIT_RULE


def test_a_configured_camera_brings_its_packages_and_devices() -> None:
    off = plan(PI4)
    assert off.camera == "" and off.pip_extras == () and "video" not in off.groups
    assert "python3-picamera2" not in off.apt_packages and "video" not in off.service_dropin()
    pi_os = PI_OS | {"python3-picamera2", "python3-opencv", "python3-numpy"}
    module = make_plan(Board(PI4), lambda name: name in pi_os, 252, "jack", camera="picamera2")
    assert "python3-picamera2" in module.apt_packages and module.apt_missing == ()
    assert module.groups == ("gpio", "audio", "video")
    # Picamera2 and the numpy and OpenCV it was built with come from one archive: pip brings no
    # numpy 2 into the venv, and removes any copy an earlier install left there.
    assert {"python3-opencv", "python3-numpy"} <= set(module.apt_packages)
    assert module.pip_extras == () and "PIP_EXTRAS=''" in module.env()
    assert {"numpy", "opencv-python-headless"} <= set(module.pip_removed)
    assert "PIP_REMOVED='numpy opencv-python-headless opencv-python'" in module.env()
    dropin = module.service_dropin()
    assert "SupplementaryGroups=video\n" in dropin and "DeviceAllow=char-video4linux rw" in dropin
    # a webcam needs no Picamera2; a 32-bit OS takes OpenCV from Debian (no armv7 wheels)
    webcam = make_plan(
        Board(PI4), lambda name: name in pi_os, 252, "jack", camera="0", machine="armv7l"
    )
    assert "python3-picamera2" not in webcam.apt_packages and webcam.pip_extras == ()
    assert {"python3-opencv", "python3-numpy"} <= set(webcam.apt_packages)
    # a webcam on a 64-bit OS has no Picamera2 to keep in step: OpenCV's wheels, numpy with them
    wheels = make_plan(Board(PI4), lambda name: name in pi_os, 252, "jack", camera="0")
    assert wheels.pip_extras == ("camera",) and wheels.pip_removed == ()
    assert "python3-numpy" not in wheels.apt_packages
    # plain Debian has no Picamera2: the plan says so instead of failing
    debian_archive = DEBIAN | {"python3-opencv", "python3-numpy"}
    debian = make_plan(
        Board(PI4), lambda name: name in debian_archive, 252, "jack", camera="picamera2"
    )
    assert (
        debian.apt_missing == ("python3-picamera2",)
        and "APT_MISSING=python3-picamera2" in debian.env()
    )


def test_the_camera_is_read_from_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    for text, source in (
        ("", ""),
        ("[camera]\nenabled = false\nsource = 'v4l2:/dev/video0'\n", ""),
        ("[camera]\nenabled = true\n", "picamera2"),
        ("[camera]\nenabled = true\nsource = 'v4l2:/dev/video0'\n", "v4l2:/dev/video0"),
        ("[camera]\nenabled = 'yes'\n", ""),
    ):
        config.write_text(text)
        assert camera_source(config) == source, text

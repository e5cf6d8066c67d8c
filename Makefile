# Two commands on a fresh machine: `make simulate` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUNTIME := $(VENV)/.runtime
# Debian packages the test suite drives for real: speech (espeak-ng, aplay), sound checks (sox),
# the terminal test (tmux) and the browser tests (Chromium's headless shell, see tests/helpers.py).
DEBIAN_TEST_PACKAGES := espeak-ng alsa-utils sox tmux chromium-headless-shell fonts-dejavu-core
# The launcher's fit tests render the printed parts (openscad); pictures need a display (xvfb).
DEBIAN_TEST_PACKAGES += openscad xvfb xauth

.PHONY: simulate run test lint typecheck unit bench config-files camera-evening soak system-deps clean pi-check install

# Python's bytecode cache, which some shells turn off: without it every test process, spawned
# speech engine and command under test compiles the program (and pytest rewrites every test
# module) again, about a third of the test suite's time on two cores.
unexport PYTHONDONTWRITEBYTECODE

# The program alone (simulate, run); the test tools come with the dev extra (test, lint, bench).
$(RUNTIME): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[dev,camera]'
	touch $(STAMP)

# The camera's reader (OpenCV, numpy) comes with the camera extra, installed for --camera-frames.
CAMERA := $(VENV)/.camera
$(CAMERA): $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e '.[camera]'
	touch $(CAMERA)

simulate: $(RUNTIME) $(if $(findstring --camera-frames,$(ARGS)),$(CAMERA))
	$(BIN)/uno-companion simulate $(ARGS)

run: $(RUNTIME)
	$(BIN)/uno-companion run $(ARGS)

# Installs the Debian packages when run as root; otherwise says what is missing.
system-deps:
	@missing=""; for p in $(DEBIAN_TEST_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "Missing Debian packages:$$missing (run 'sudo make system-deps')"; \
	    if [ "$$CI" = true ]; then exit 1; fi; \
	  fi; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check companion tests hardware tools
	$(BIN)/ruff format --check companion tests hardware tools

typecheck: $(STAMP)
	$(BIN)/mypy

.PHONY: hardware schematic hardware-sim
# Every printed part and the assembly to STL (build/hardware/stl/), pictures to hardware/pictures/.
hardware: system-deps $(STAMP)
	$(BIN)/python -m hardware.tools.build $(ARGS)

# The feed's simulation (MuJoCo) on the parts as drawn (hardware/simulation.md): the tolerance
# sweep (print errors, friction, thickness, the gate's rise and edge, stacks of 1 to 112 fed to
# empty; 1,000 feeds and more), a negative control, counted firings read by the software's beam
# code; one JSON line per feed in build/hardware-sim/. Fails when the design does not feed one
# card at a time. Niced; hours on two shared cores. ARGS="--mu-card 0.7 --feeds 3" feeds three.
hardware-sim: system-deps $(STAMP)
	nice -n 10 $(BIN)/python -m hardware.sim $(ARGS)

# The wiring schematic, drawn from hardware/tools/schematic.py with the code's default pins.
schematic: $(STAMP)
	$(BIN)/python -m hardware.tools.schematic

# Three test processes on two cores: the tests are independent (own temp dirs, ports, tmux
# sessions, mock pins) and many of them wait on a browser, a child process or a thread, so a third
# process fills the cores (about 52 s against 64 s with two). Tests are dealt two at a time, long
# modules first (tests/conftest.py), so the processes finish together.
PYTEST_ARGS ?= -n 3 --maxschedchunk 2
unit: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

test: system-deps $(STAMP) lint typecheck unit

.PHONY: screenshots
# The browser tests once more, saving every screen they check to tests/artifacts/ for review
# (320 and 390 px, light and dark, French and English).
screenshots: system-deps $(STAMP)
	UNO_SCREENSHOTS=1 $(BIN)/pytest $(PYTEST_ARGS) tests/test_browser_evening.py tests/test_browser_family.py tests/test_browser_decks.py tests/test_browser_fixes.py tests/test_browser_layout.py tests/test_browser_page.py tests/test_browser_rules.py

bench: $(STAMP)
	$(BIN)/python -m tests.bench $(ARGS)

# config.example.toml and the reference in docs/config.md, written from the sections'
# declarations (tests/test_config_model.py fails when they differ from what is committed).
config-files: $(RUNTIME)
	$(BIN)/uno-companion config example > config.example.toml
	$(BIN)/uno-companion config reference --into docs/config.md

# An evening of CAMERA_ROUNDS rounds (default 8) filmed by the renderer and replayed through the
# daemon by simulate --camera-frames, checked against the same evening typed (a few minutes).
camera-evening: $(STAMP)
	$(BIN)/python -m tests.bench.camera evening

# The installer on an arm64 Debian Bookworm root under qemu, as a Pi 4 and a Pi 5 (root, minutes;
# not part of `make test`). The root filesystem is cached in /var/cache/uno-companion-pi-check.
pi-check:
	bash tests/pi-check.sh

# On the Raspberry Pi: the same as `sudo ./install.sh`.
install:
	./install.sh
# A whole evening in a few minutes on loopback (SOAK_SECONDS, default 180); stops by itself.
soak: $(STAMP)
	$(BIN)/python -m tests.bench.soak

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build *.egg-info

# Everything a fresh Debian / Raspberry Pi OS machine needs, from nothing.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean system-deps train-vision pi-check

$(STAMP): pyproject.toml scripts/install-system-deps.sh
	bash scripts/install-system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

system-deps:
	bash scripts/install-system-deps.sh

run: $(STAMP)
	$(BIN)/companion run --simulate --delay 0.02

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check companion vision tests bench firmware
	$(BIN)/ruff format --check companion vision tests bench firmware

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/clock.py
	$(BIN)/python bench/reader.py
	$(BIN)/python bench/stream.py
	$(BIN)/python bench/event.py
	$(BIN)/python bench/vision.py
	$(BIN)/python bench/pipeline.py
	$(BIN)/python bench/mem.py
	$(BIN)/python bench/memento.py
	$(BIN)/python bench/mnemo.py

# The companion installed and run in an emulated Raspberry Pi (Debian bookworm arm64 under
# qemu, in a chroot): needs root; the root filesystem is kept in build/pi-rootfs/ (docs/pi.md).
pi-check:
	bash scripts/pi-check.sh

# The zone network (vision/learning): samples from the virtual camera and from the
# physically based training set (rendered first: hours on two cores, resumable), then
# training in an environment of its own, as PyTorch is needed for training only, never by
# the companion. The model is written to build/models/zones.onnx, to be tried
# (bench/vision.py --model FILE, and the suite) before it replaces vision/models/zones.onnx.
TRAIN_VENV  ?= .venv-train
TRAIN_STAMP := $(TRAIN_VENV)/.installed
SAMPLES     ?= build/samples/synth
RIM_SAMPLES ?= build/samples/rims
PBR_SAMPLES ?= build/samples/pbr-all
PBR_SETUPS  ?= 92

$(TRAIN_STAMP):
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TRAIN_VENV)/bin/python -m pip install --quiet torch==2.13.0 onnx 'numpy>=1.26' \
		'opencv-python>=4.10,<6' 'pillow>=10'
	touch $(TRAIN_STAMP)

train-vision: $(STAMP) $(TRAIN_STAMP)
	$(BIN)/python -m vision.learning.samples $(SAMPLES) --first 4000 --setups 320 --frames 4
	$(BIN)/python -m vision.learning.samples $(SAMPLES)2 --first 5000 --setups 400 --frames 4
	$(BIN)/python -m vision.learning.samples $(RIM_SAMPLES) --first 6000 --setups 300 \
		--frames 4 --rims 0.7
	$(BIN)/python bench/scenes.py build --set training --limit $(PBR_SETUPS)
	$(BIN)/python bench/scenes.py samples --set training $(PBR_SAMPLES)
	PYTHONPATH=. $(TRAIN_VENV)/bin/python -m vision.learning.train $(SAMPLES):1:4 \
		$(SAMPLES)2:1:4 $(RIM_SAMPLES):1:4 $(PBR_SAMPLES):4:9 --epochs 8 --seed 1 \
		--size small --variants 2 --out build/models/zones.onnx

clean:
	rm -rf $(VENV) $(TRAIN_VENV) .mypy_cache .pytest_cache .ruff_cache

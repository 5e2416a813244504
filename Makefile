# WidgetWeaver for Linux. `make play` and `make test` work on a fresh Debian machine with only the
# Swift toolchain: they install the system packages they need first (apt-get; sudo when not root).

SWIFT       ?= swift
CONFIG      ?= release
PRESET      ?= sleep
APT_PACKAGES = libasound2-dev libpulse-dev pulseaudio pulseaudio-utils alsa-utils pkg-config \
               libcairo2-dev libpango1.0-dev \
               libflac-dev flac strace \
               libsystemd-dev dbus playerctl libglib2.0-bin pipewire pipewire-pulse wireplumber \
               chromium chromium-driver \
               fonts-inter fonts-dejavu-core fonts-noto-cjk fonts-noto-color-emoji fonts-material-design-icons-iconfont libjpeg62-turbo-dev hyperfine
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN          = $(shell $(SWIFT) build -c $(CONFIG) --show-bin-path)

.PHONY: deps build play test bench bench-check fuzz-vars fuzz-designs fuzz-ics install clean golden-spectrum goldens bench-render-cli

## Install the system packages (skipped when all are present).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

## Build and play the sleep preset on the default output (Ctrl-C fades out and stops).
play: build
	$(BIN)/noise play --preset $(PRESET)

## Install deps, build and run every test (release build: the DSP tests render minutes of audio).
## Tests that need a sound server start a private PulseAudio with a null sink themselves.
test: deps
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	$(SWIFT) test -c release --skip-build -Xswiftc -enable-testing

bench: deps
	$(SWIFT) package --package-path Benchmarks benchmark --no-progress

## Fails (exit 1) when the render path allocates: the committed threshold is 0 allocations per block
## (Benchmarks/Thresholds; the tool reads them relative to the Benchmarks folder).
bench-check: deps
	cd Benchmarks && $(SWIFT) package benchmark thresholds check --filter '.*live parameter changes.*' --no-progress

## Rewrite the spectrum chart's golden image and the README's spectrum pictures (look at them before
## committing: docs/spectrum-*.png, Tests/SpectrumPlotTests/Golden/sleep.png).
golden-spectrum: build
	$(SWIFT) build -c $(CONFIG) --build-tests -Xswiftc -enable-testing
	WW_UPDATE_GOLDEN=1 $(SWIFT) test -c $(CONFIG) --skip-build -Xswiftc -enable-testing --filter SpectrumTests.chartMatchesTheGoldenImage
	$(BIN)/noise spectrum --preset ocean -o docs/spectrum-ocean.png
	$(BIN)/noise spectrum --preset sleep --measured 60s -o docs/spectrum-sleep.png

## Re-record the widget golden images (Tests/WidgetRenderTests/Goldens) and redraw the gallery
## (docs/gallery). Look at the pictures before committing them.
goldens: deps
	$(SWIFT) build --build-tests
	WW_RECORD_GOLDENS=1 $(SWIFT) test --skip-build --filter GoldenTests

## Whole-process 'weaver render' of a small PNG (release build), measured with hyperfine.
bench-render-cli: deps
	$(SWIFT) build -c release --product weaver
	hyperfine --warmup 5 --runs 50 -N '$(BIN)/weaver render --store /tmp/ww-bench-store --template noise-machine --family small -o /tmp/ww-bench.png'

FUZZ_SECONDS ?= 60
FUZZ_BUILD    = $(SWIFT) build -c debug --sanitize=fuzzer -Xswiftc -DFUZZING --scratch-path .build-fuzz

## libFuzzer on the template parser/evaluator for FUZZ_SECONDS (crashes land in .build-fuzz/).
fuzz-vars:
	$(FUZZ_BUILD) --product FuzzVariables
	mkdir -p .build-fuzz/corpus-vars
	SWIFT_BACKTRACE=enable=no .build-fuzz/debug/FuzzVariables -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=2 \
	  -artifact_prefix=.build-fuzz/ .build-fuzz/corpus-vars Fuzz/Corpus/Variables

## libFuzzer on the .wwdesign import parser for FUZZ_SECONDS.
fuzz-designs:
	$(FUZZ_BUILD) --product FuzzDesignImport
	mkdir -p .build-fuzz/corpus-designs
	SWIFT_BACKTRACE=enable=no .build-fuzz/debug/FuzzDesignImport -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=512 -timeout=2 \
	  -artifact_prefix=.build-fuzz/ .build-fuzz/corpus-designs Fuzz/Corpus/Designs

## libFuzzer on the iCalendar parser and recurrence expander for FUZZ_SECONDS.
fuzz-ics:
	$(FUZZ_BUILD) --product FuzzICalendar
	mkdir -p .build-fuzz/corpus-ics
	SWIFT_BACKTRACE=enable=no .build-fuzz/debug/FuzzICalendar -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -rss_limit_mb=1024 -timeout=5 \
	  -artifact_prefix=.build-fuzz/ .build-fuzz/corpus-ics Fuzz/Corpus/ICalendar

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/widgetweaver/presets
	install -m755 $(BIN)/noise $(BIN)/weaver $(DESTDIR)$(PREFIX)/bin/
	install -m644 Presets/*.json $(DESTDIR)$(PREFIX)/share/widgetweaver/presets/

PREFIX ?= /usr/local

clean:
	rm -rf .build .build-* Benchmarks/.build

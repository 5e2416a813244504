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
               fonts-inter fonts-dejavu-core fonts-quicksand fonts-noto-cjk fonts-noto-color-emoji fonts-material-design-icons-iconfont libjpeg62-turbo-dev hyperfine \
               binutils libcurl4-openssl-dev python3 libdeflate-dev man-db groff-base snapserver snapclient python3-dbus python3-gi \
               libgtk-3-dev libgtk-layer-shell-dev xvfb xdotool x11-utils imagemagick sway swaybg grim
# Share links' QR codes (libqrencode) and the test that reads them back like a phone would (zbarimg).
APT_PACKAGES += libqrencode-dev zbar-tools
# The GNOME Shell extension's tests: a real headless gnome-shell (43 on Debian 12), gjs for the 45+ form
# against stand-ins, glib-compile-resources to put the stand-ins where the shell's modules live.
APT_PACKAGES += gnome-shell gjs libglib2.0-dev-bin
# node: `make lint` checks the web app's scripts (node --check) and `make test` runs their tests (node --test).
APT_PACKAGES += nodejs
# rsvg-convert: what `make bench-render-cli` compares `weaver render` with; ltrace: start-up measurements
APT_PACKAGES += librsvg2-bin ltrace
# noise hearing calibrate is tested end to end in a terminal multiplexer (send-keys, capture-pane).
APT_PACKAGES += tmux
# noise analyze/match read recordings through libsndfile (WAV, FLAC, Ogg Vorbis/Opus, MP3); the tests
# make their Ogg and MP3 fixtures with sox.
APT_PACKAGES += libsndfile1-dev sox libsox-fmt-base libsox-fmt-mp3
SUDO        := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN          = $(shell $(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS) --show-bin-path)
# Extra swift build flags for build/install/deb (the packaging test reuses the test build's).
BUILD_FLAGS ?=

.PHONY: deps build play test bench bench-check fuzz-vars fuzz-designs fuzz-ics install clean golden-spectrum goldens bench-render-cli
.PHONY: stamp man install uninstall deb test-packaging test-deb lint format

## Install the system packages (skipped when all are present).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps stamp
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS)

## Build and play the sleep preset on the default output (Ctrl-C fades out and stops).
play: build
	$(BIN)/noise play --preset $(PRESET)

## Install deps, build and run every test (release build: the DSP tests render minutes of audio).
## Tests that need a sound server start a private PulseAudio with a null sink themselves.
test: deps stamp
	$(SWIFT) build -c release --build-tests -Xswiftc -enable-testing
	SWIFT=$(SWIFT) TEST_ALONGSIDE="$(SWIFT) build -c release -Xswiftc -enable-testing --product generate-manual" \
	  scripts/run-tests.sh -c release --skip-build -Xswiftc -enable-testing
	node --test $(JS_TESTS)
	$(MAKE) --no-print-directory test-packaging BUILD_FLAGS="-Xswiftc -enable-testing"

bench: deps
	$(SWIFT) package --package-path Benchmarks benchmark --no-progress

## Fails (exit 1) when the render path allocates: the committed threshold is 0 allocations per sample
## of 2000 blocks (Benchmarks/Thresholds; the tool reads them relative to the Benchmarks folder). Only
## NoiseBenchmarks has thresholds, so only it is built (all seven suites: ~30 min on this VM).
bench-check: deps
	cd Benchmarks && $(SWIFT) package benchmark thresholds check --target NoiseBenchmarks \
	  --filter '.*(allocations).*' --no-progress

## Rewrite the spectrum chart's golden image and the spectrum pictures (docs/spectrum-*.png) (look at them before
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

## Whole-process 'weaver render' of a small PNG (the release build of make build; after make test,
## BUILD_FLAGS="-Xswiftc -enable-testing" reuses its build instead of compiling again), with hyperfine.
## `weaver render` of a small Noise Machine PNG against rsvg-convert on the same widget's SVG, taking
## turns in one hyperfine run; fails above 0.75x (issue 41 item 25).
bench-render-cli: build
	scripts/bench-render-cli.sh $(BIN)

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

PREFIX ?= /usr/local

# ---- Version, install, Debian package (docs/install.md) ----

STAMP_H = Sources/C/CBuildStamp/stamp.generated.h

## Writes the git commit and build date that --version prints; rewritten (and its one C file
## recompiled) only when they change. SOURCE_DATE_EPOCH, when set, fixes the date.
stamp:
	@commit=$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown); \
	if [ "$$commit" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then commit="$$commit-dirty"; fi; \
	day=$$(date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} +%Y-%m-%d); \
	text=$$(printf '#define WW_GIT_COMMIT "%s"\n#define WW_BUILD_DATE "%s"' "$$commit" "$$day"); \
	if [ "$$(cat $(STAMP_H) 2>/dev/null)" != "$$text" ]; then echo "$$text" > $(STAMP_H); touch Sources/C/CBuildStamp/stamp.c; fi

MAN_DIR = .build/man
VERSION = $(shell sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/App/CLISupport/BuildInfo.swift)

## Man pages for noise, weaver and every subcommand (MAN_BIN: where the built tools are), made by
## swift-argument-parser's generate-manual: the engine of its `swift package generate-manual`
## plugin, run directly on the built binaries because the plugin would rebuild the whole package;
## scripts/man-escape.sh carries the help texts' non-ASCII characters (…, –, ×) past it.
MAN_BIN ?= $(BIN)
man: stamp
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS) --product generate-manual
	rm -rf $(MAN_DIR) && mkdir -p $(MAN_DIR)
	mkdir -p $(MAN_DIR)/wrap
	for tool in noise weaver; do \
	  scripts/man-escape.sh wrap $(MAN_BIN)/$$tool $(MAN_DIR)/wrap/$$tool && \
	  $$($(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS) --show-bin-path)/generate-manual $(MAN_DIR)/wrap/$$tool --multi-page --output-directory $(MAN_DIR) \
	    --date $$(date -u $${SOURCE_DATE_EPOCH:+-d @$$SOURCE_DATE_EPOCH} +%Y-%m-%d) --authors 'WidgetWeaver for Linux' || exit 1; \
	done
	rm -rf $(MAN_DIR)/wrap $(MAN_DIR)/*.help.1
	scripts/man-escape.sh pages $(MAN_DIR)/*.1

## make install PREFIX=/usr/local DESTDIR=...: binaries, presets, completions, man pages, desktop
## entry and icon; every file is listed in PREFIX/share/widgetweaver/install-manifest.
install: build
	$(MAKE) --no-print-directory man MAN_BIN=$(BIN)
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) scripts/install.sh install $(BIN) $(MAN_DIR)

## Removes exactly what 'make install' wrote (same PREFIX and DESTDIR).
uninstall:
	PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) scripts/install.sh uninstall

DEB_ROOT  = dist/deb-root
DEB_ARCH  = $(shell dpkg --print-architecture)
DEB_FILE  = dist/widgetweaver_$(VERSION)_$(DEB_ARCH).deb
# What the binaries load at run time that ldd cannot see: fonts through fontconfig (Quicksand for the
# rounded font design), libcurl through dlopen at weaver's first download (DataSources/CCurlLoader).
DEB_EXTRA_DEPENDS = fontconfig, fonts-inter, fonts-quicksand, libcurl4

## dist/widgetweaver_VERSION_ARCH.deb from the release build: noise and weaver carry the Swift runtime
## (Package.swift links it statically: Debian has no package for it), so Depends names only Debian
## libraries, found from ldd of the binaries.
DEB_BIN = $(BIN)
deb: build
	$(MAKE) --no-print-directory man MAN_BIN=$(DEB_BIN)
	rm -rf $(DEB_ROOT) && mkdir -p $(DEB_ROOT)/DEBIAN
	PREFIX=/usr DESTDIR=$(DEB_ROOT) MANIFEST=0 scripts/install.sh install $(DEB_BIN) $(MAN_DIR)
	strip --strip-unneeded $(DEB_ROOT)/usr/bin/noise $(DEB_ROOT)/usr/bin/weaver $(DEB_ROOT)/usr/bin/weaver-desktop \
	  $(DEB_ROOT)/usr/bin/weaver-serve
	depends=$$(scripts/deb-depends.sh $(DEB_ROOT)/usr/bin/noise $(DEB_ROOT)/usr/bin/weaver $(DEB_ROOT)/usr/bin/weaver-desktop \
	  $(DEB_ROOT)/usr/bin/weaver-serve); \
	size=$$(du -sk $(DEB_ROOT)/usr | cut -f1); \
	printf '%s\n' "Package: widgetweaver" "Version: $(VERSION)" "Architecture: $(DEB_ARCH)" \
	  "Maintainer: WidgetWeaver for Linux <widgetweaver@localhost>" "Installed-Size: $$size" \
	  "Depends: $$depends, $(DEB_EXTRA_DEPENDS)" "Recommends: pulseaudio | pipewire-pulse" \
	  "Section: sound" "Priority: optional" \
	  "Description: real-time noise machine and widget toolkit" \
	  " noise plays four procedural noise layers (true 1/f^beta colour, cuts, EQ, limiter," \
	  " sleep timer) through PulseAudio/PipeWire or ALSA, or renders them to WAV; weaver" \
	  " manages widget designs and template variables." > $(DEB_ROOT)/DEBIAN/control
	# gzip: a few MB bigger than dpkg's default xz, and minutes quicker on two cores.
	dpkg-deb --root-owner-group -Zgzip -z9 --build $(DEB_ROOT) $(DEB_FILE)
	@echo "Built $(DEB_FILE) ($$(du -h $(DEB_FILE) | cut -f1))."

## Install into a scratch DESTDIR and uninstall (the tree must be empty again). Part of make test.
test-packaging:
	scripts/test-packaging.sh install

## Build the .deb from the test build (same flags as make test, so after it nothing is rebuilt), unpack
## it into a scratch root and run the tools from there. CI runs it after make test.
test-deb: deps stamp
	BUILD_FLAGS="-Xswiftc -enable-testing" scripts/test-packaging.sh deb

## Style: swift-format with the repository's .swift-format (4 spaces, lines <= 120), over tracked files
## only (never a .build checkout). `make format` rewrites in place; `make lint` fails on any finding (CI).
## swift-format neither splits nor reports a long string literal, so lint then names (file:line) every line
## over 120 characters: split a long literal into a multi-line one with `\` line continuations.
## Rules switched off in .swift-format, and why: GroupNumericLiterals (sample rates and published filter
## coefficients are compared digit by digit with their sources), OneVariableDeclarationPerLine (DSP state as
## `var x1 = 0.0, x2 = 0.0` reads as one filter's state), FileScopedDeclarationPrivacy and
## NoAccessLevelOnExtensionDeclaration (the code uses `private` and `public extension` on purpose),
## UseLetInEveryBoundCaseVariable (`case let .x(a, b)` is the house spelling), OnlyOneTrailingClosureArgument
## (`update(root, warn: {…}) { list in … }` keeps the edit last, where it reads best).
SWIFT_FILES = $(shell git ls-files '*.swift')
# The web app's scripts (Sources/App/HomeScreen/Resources) and their node tests.
JS_FILES    = $(shell git ls-files '*.js')
JS_TESTS    = $(shell git ls-files 'Tests/*.test.js')
lint:
	@echo "swift format lint: $(words $(SWIFT_FILES)) files"
	@$(SWIFT) format lint --strict --parallel $(SWIFT_FILES)
	@long=$$(LC_ALL=C.UTF-8 grep -nE '^.{121,}' $(SWIFT_FILES) | cut -d: -f1,2); \
	if [ -n "$$long" ]; then printf '%s: line longer than 120 characters\n' $$long; exit 1; fi
	@for f in $(JS_FILES); do node --check $$f || exit 1; done; echo "node --check: $(words $(JS_FILES)) files"
	@# Each target declares what its sources import, and only that (scripts/check-deps.py says why).
	@python3 scripts/check-deps.py

format:
	$(SWIFT) format format --in-place --parallel $(SWIFT_FILES)

clean:
	rm -rf .build .build-* Benchmarks/.build dist

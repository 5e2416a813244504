// swift-tools-version: 6.1
import PackageDescription

// The tools carry the Swift runtime and Foundation inside (as the .deb always did): loading and
// relocating the toolchain's 13 shared libraries (ICU's alone is 40 MB) took ~30 ms of every start.
// `weaver --version` 33 -> 21 ms, `weaver render` of a small PNG 67 -> 56 ms (hyperfine, 40 runs).
// The test runner stays dynamic (XCTest and swift-testing link the shared runtime).
// Modules are compiled against the shared Foundation, whose link entries do not name what the static
// archives need, so they are listed here, each after the archives that use it (the linker reads them in order).
let staticSwiftRuntime: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib",
            "-lFoundation", "-lFoundationInternationalization", "-lFoundationEssentials", "-lCoreFoundation",
            "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections", "-lswiftSynchronization",
            // A position-dependent executable: the static runtime and Foundation carry ~120,000
            // pointers that a PIE has the loader rewrite at every start (issue 41 item 25).
            "-Xclang-linker", "-no-pie",
            // The toolchain's static-stdlib arguments export every symbol of the executable (20,903 in
            // weaver); the Swift runtime's start-up (its backtracer finding its own path with dladdr)
            // then scans them all, ~0.7 M instructions a start. What a shared library calls back into
            // (our g_thread_new, CPangoFontJobs) the linker exports anyway.
            "-Xlinker", "--no-export-dynamic",
        ], .when(platforms: [.linux]))
]

// Folders by wing: each target lives in Sources/<wing>/<target>, so a reader finds a concept from the
// folder names in one hop (docs/architecture.md). The wing of every target is set here, once.
let wings: [String: [String]] = [
    // system libraries (pkg-config) and small C shims
    "C": [
        "CNoiseSupport", "CPulse", "CALSA", "CALSASupport", "CFLAC", "CCairo", "CDeflate", "CSystemdBus",
        "CJPEGSupport", "CChangeWatch", "CGtk", "CCurlLoader", "CBuildStamp", "CQRencode", "CSndFile",
        "CNoiseKernels", "CPangoFontJobs",
    ],
    // sound: DSP, engine, outputs, player control and MPRIS
    "Audio": [
        "NoiseDSP", "NoiseEngine", "AudioSinkBase", "AudioOutput", "SpeechIntelligibility", "SpectrumPlot",
        "NoiseControl", "PlayerStartup", "MPRISPlayer", "TextureStatistics", "SoundFiles", "TextureMatch",
    ],
    // templates, designs, a render's inputs, the renderer, actions, live wake-ups, the desktop list
    "Widgets": [
        "TemplateLanguage", "WidgetDataKeys", "WidgetDesign", "WidgetInputs", "WidgetRender", "WidgetActions",
        "LiveWidgets", "DesktopWidgets",
        "DesignAssistant",
    ],
    // the store, its JSON, civil dates, snapshots, field table, calendars and data sources
    "Data": [
        "FieldTable", "SharedStore", "BoundedJSON", "CivilDates", "SizeLimits", "Snapshots", "ICalendar", "DataSources",
        "ShareLinks",
    ],
    // system calls, file watching, logind, login entries, player liveness
    "Platform": [
        "SystemCalls", "ChangeWatch", "SystemBusServices", "LoginEntryFiles", "PlayerLiveness", "NetworkAddress",
        "CairoCanvas",
    ],
    // the executables, the browser app and what the CLIs share
    "App": ["noise", "weaver", "weaver-desktop", "weaver-serve", "HomeScreen", "CLISupport"],
]

let package = Package(
    name: "WidgetWeaver",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "noise", targets: ["noise"]),
        .executable(name: "weaver", targets: ["weaver"]),
        .executable(name: "weaver-desktop", targets: ["weaver-desktop"]),
        .executable(name: "weaver-serve", targets: ["weaver-serve"]),
        .library(name: "NoiseDSP", targets: ["NoiseDSP"]),
        .library(name: "NoiseEngine", targets: ["NoiseEngine"]),
        .library(name: "AudioSinkBase", targets: ["AudioSinkBase"]),
        .library(name: "AudioOutput", targets: ["AudioOutput"]),
        .library(name: "SharedStore", targets: ["SharedStore"]),
        .library(name: "TemplateLanguage", targets: ["TemplateLanguage"]),
        .library(name: "WidgetDataKeys", targets: ["WidgetDataKeys"]),
        .library(name: "WidgetDesign", targets: ["WidgetDesign"]),
        .library(name: "NoiseControl", targets: ["NoiseControl"]),
        // The widget renderer, for other surfaces (MPRIS art, the browser home screen) and the benchmarks.
        .library(name: "WidgetRender", targets: ["WidgetRender"]),
        // A render's inputs read from the store, for the render benchmarks' Editor-like renders.
        .library(name: "WidgetInputs", targets: ["WidgetInputs"]),
        // The PNG writer, for the render benchmarks.
        .library(name: "CairoCanvas", targets: ["CairoCanvas"]),
        .library(name: "ICalendar", targets: ["ICalendar"]),
        .library(name: "DataSources", targets: ["DataSources"]),
        .library(name: "Snapshots", targets: ["Snapshots"]),
        // `weaver serve` in process, for the benchmark of the Editor's draft render route over HTTP.
        .library(name: "HomeScreen", targets: ["HomeScreen"]),
        // The address `HomeScreenServer` listens on (for the same benchmark).
        .library(name: "NetworkAddress", targets: ["NetworkAddress"]),
        // `noise analyze` and `noise match` without the executable, for their benchmarks.
        .library(name: "TextureStatistics", targets: ["TextureStatistics"]),
        .library(name: "TextureMatch", targets: ["TextureMatch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Without its default traits: ConfigurationSupport (ApplicationConfiguration from a swift-configuration
        // reader) and FullFoundation (URL-encoded forms' DateFormatter dates), neither used here; the
        // first made every build compile swift-configuration (~47 files) for nothing.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Hummingbird's own dependencies, declared because HomeScreen imports them (ByteBuffer, Logger).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // C shims: flush-to-zero, thread naming, real-time scheduling (Glibc's module lacks them).
        .target(name: "CNoiseSupport"),
        .systemLibrary(
            name: "CPulse", pkgConfig: "libpulse",
            providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(
            name: "CALSA", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        // FLAC renders (`noise render -o night.flac`): the reference encoder, nothing else (libsndfile would pull
        // Vorbis/Opus/MP3 in).
        .systemLibrary(name: "CFLAC", pkgConfig: "flac", providers: [.apt(["libflac-dev"])]),
        // Drawing: Cairo surfaces (PNG, SVG) and Pango text through pangocairo, fonts pinned with
        // fontconfig. Shared by the widget renderer and the spectrum plot.
        .systemLibrary(
            name: "CCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        // libdeflate for the widget renderer's own PNG writer (WidgetRender/PNGEncoder.swift): level 1,
        // no filter, ~10x faster than Cairo's writer (libpng + zlib at the default level) on widgets.
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // sd-bus (libsystemd) for the MPRIS player: maintained, already on every systemd desktop, one
        // connection object with its own fd to poll on our thread (libdbus-1 calls itself low-level).
        .systemLibrary(
            name: "CSystemdBus", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),

        // Pure real-time DSP: no Foundation, no I/O.
        // The master filter's pipeline on AVX2, chosen at run time: Swift cannot compile one function
        // for a wider CPU than the package's baseline (x86-64, SSE2), C can (issue 38: the
        // correction and notch cost 39 % of the chain on SSE; the same arithmetic, so the same bits).
        .target(name: "CNoiseKernels"),
        .target(name: "NoiseDSP", dependencies: ["CNoiseKernels"]),
        // alsa-lib's error hook is a C variadic function type: Swift cannot define one.
        .target(name: "CALSASupport", dependencies: ["CALSA"]),
        // The AudioSink protocol and the outputs that need no C audio library (WAV file, null). The
        // engine depends on this, not on AudioOutput, so weaver (which links the engine for the Noise
        // widget) does not load libpulse, alsa-lib and libFLAC with their ~25 dependencies at every start.
        .target(name: "AudioSinkBase", dependencies: ["SystemCalls"]),
        // The device and FLAC outputs: PulseAudio/PipeWire, ALSA, libFLAC. Only `noise` links it.
        .target(
            name: "AudioOutput",
            dependencies: ["AudioSinkBase", "CPulse", "CALSA", "CALSASupport", "CFLAC"]),
        .target(
            name: "NoiseEngine",
            dependencies: [
                "NoiseDSP", "AudioSinkBase", "CNoiseSupport", "SharedStore", "SpeechIntelligibility", "FieldTable",
                "SystemCalls", "BoundedJSON", "CivilDates",
            ]),
        // ANSI S3.5-1997's Speech Intelligibility Index (one-third-octave procedure): what each
        // preset is for, measured (how much of a talker's speech gets through it). Pure arithmetic.
        .target(name: "SpeechIntelligibility"),
        // The one small system layer: `retryOnInterrupt`, `SystemCallError` (the call, the path, errno,
        // one wording), the descriptor loops, the XDG base directories and `Spawn` (the one
        // posix_spawn wrapper), each written once instead of per module. Internal rather than
        // apple/swift-system: it is ~300 lines over Glibc, the
        // modules pass raw Int32 descriptors to C libraries, and it needs no new package to fetch.
        .target(name: "SystemCalls"),
        // Civil time: proleptic Gregorian day arithmetic on integers (`CivilCalendar`), the one
        // wall-clock date-time type (`CivilTime`: the template clock, iCalendar recurrences) and the
        // one ISO 8601 parser and formatter (`ISODate`). No dependencies.
        .target(name: "CivilDates"),
        // The bounded strict JSON parser (depth, size, value count) and what reads its tree:
        // `JSONReader` field by field with the one error type `JSONFieldError`, `JSONMembers`,
        // `JSONValueDecoder`. Every JSON the apps read goes through it.
        .target(name: "BoundedJSON", dependencies: ["CivilDates"]),
        // The login entry files (systemd user units, XDG autostart entries): their quoting, writing,
        // enabling and `$XDG_CONFIG_HOME`, and `LoginEntryTarget` (the folder, executable and store
        // every entry of both tools points at, resolved once).
        .target(name: "LoginEntryFiles", dependencies: ["SystemCalls"]),
        // The player's heartbeat file beside its control socket (is a player alive?).
        .target(name: "PlayerLiveness", dependencies: ["SystemCalls"]),
        // The one Cairo wrapper: owned surfaces and contexts, Cairo's errors as `RenderError`, and the
        // PNG writer (libdeflate), for the widget renderer, the spectrum chart and the share QR code
        // (which then need not link the widget renderer for a PNG).
        .target(name: "CairoCanvas", dependencies: ["CCairo", "CDeflate"]),
        // The store folder: its root, file lock, atomic JSON documents, set-aside notices, Pro.
        .target(name: "SharedStore", dependencies: ["SystemCalls", "CivilDates", "BoundedJSON", "SizeLimits"]),
        // `SizeLimit`: a file's or a body's size against its limit, said one way (MiB with one decimal).
        // Below the store and the iCalendar parser, which has no I/O and so no reason to depend on the store.
        .target(name: "SizeLimits"),
        // The snapshot files the data sources write and the widgets read (weather, calendar,
        // reminders, steps): their names, shapes, caps and derived rules ("next event", "stale")
        // defined once, so the writer and both readers cannot drift apart.
        .target(name: "Snapshots", dependencies: ["SharedStore", "BoundedJSON", "CivilDates"]),
        // Around the running player: Last Mix, status feed, control socket, the detached player. No audio code.
        .target(
            name: "NoiseControl",
            dependencies: [
                "NoiseEngine", "NoiseDSP", "SharedStore", "FieldTable", "SystemCalls", "BoundedJSON", "CivilDates",
                "PlayerLiveness",
            ]),
        // When the player starts unasked: at login (autostart, resume the Last Mix) and on schedules
        // (systemd user timers, `ScheduleBook` shared by `noise schedule` and the Noise page).
        .target(name: "PlayerStartup", dependencies: ["NoiseControl", "NoiseEngine", "LoginEntryFiles"]),
        // The template language: `{{key|fallback||filters}}`, maths and dates, rendered against any
        // `TemplateScope`. It knows no widget data (no store, no snapshot, no key of its own), so a
        // template's syntax and filters are read and tested apart from where the values come from.
        .target(name: "TemplateLanguage", dependencies: ["CivilDates"]),
        // The widget data keys: `RenderContext` (the scope widgets render templates in: built-in `__`
        // keys win, custom variables need Pro), the built-in keys read from the clock, the player's
        // status and the snapshots (`BuiltInKeys`), the stored custom variables (`VariableStore`), and
        // `Nowcast`, the rain-first wording the data sources and the renderer share.
        .target(
            name: "WidgetDataKeys",
            dependencies: ["TemplateLanguage", "SharedStore", "Snapshots", "CivilDates", "PlayerLiveness"]),
        // `noise play` as an MPRIS player on the session bus (media keys, desktop media controls).
        .target(name: "MPRISPlayer", dependencies: ["NoiseControl", "NoiseEngine", "CSystemdBus", "SystemCalls"]),
        // Clients of system-bus daemons (sd-bus), through one connection and call type: systemd-logind
        // (the idle inhibitor while noise plays, suspend or power-off when the sleep timer ends) and
        // rtkit (real time for the render thread where SCHED_FIFO is refused; issue 41 item 24).
        .target(name: "SystemBusServices", dependencies: ["CSystemdBus", "CNoiseSupport", "SystemCalls"]),
        // `ListenAddress`: what `weaver serve --listen/--port` name, checked by weaver and bound by
        // weaver-serve, so weaver need not link the server to check them; `LoopbackProbe`: the one
        // "is a server up on 127.0.0.1:port" check (weaver-desktop finds a running `weaver serve`).
        .target(name: "NetworkAddress"),
        // Each editable field of a design or a mix described once (key path, type, range, default,
        // label, help) and read against; no dependencies, so every module that edits a field can use it.
        .target(name: "FieldTable"),
        .target(
            name: "WidgetDesign",
            dependencies: [
                "SharedStore", "NoiseDSP", "FieldTable", "SystemCalls", "BoundedJSON", "CivilDates", "SizeLimits",
            ]),
        // JPEG decoding for design images: libjpeg reports errors by longjmp, which only C can catch.
        .target(name: "CJPEGSupport", linkerSettings: [.linkedLibrary("jpeg")]),
        // Layout tree + Cairo/Pango drawing of every design and the Noise Machine widget (PNG, SVG, JSON, text).
        .target(
            name: "WidgetRender",
            dependencies: [
                "WidgetDesign", "TemplateLanguage", "WidgetDataKeys", "CCairo", "CairoCanvas", "CJPEGSupport",
                // `PlayerStatus`, `LastMix` and `Mix` as data: what the Noise Machine widget shows.
                "NoiseControl", "NoiseEngine",
                // `SplitMix64`, the one seeded generator, for the rain surface's tiles.
                "NoiseDSP",
                // The snapshots' value types; `SystemCalls` for the font cache folder (`XDGDirectories`).
                "Snapshots", "SystemCalls", "BoundedJSON", "CivilDates",
            ]),
        // A render's inputs read from the store once into a `RenderInputs` value (variables, Pro, the
        // snapshots, the player's status and Last Mix, design pictures), so the layout and drawing
        // (WidgetRender) read no file: the first of the widget pipeline's three layers.
        .target(
            name: "WidgetInputs",
            dependencies: [
                "WidgetRender", "WidgetDesign", "WidgetDataKeys", "NoiseControl", "NoiseEngine", "SharedStore",
                "Snapshots", "SystemCalls",
            ]),

        // The browser home screen and mixer (`weaver serve`): HTTP on loopback, the renderer's output,
        // live updates over Server-Sent Events.
        .target(
            name: "HomeScreen",
            dependencies: [
                "WidgetRender", "WidgetInputs", "WidgetDesign", "TemplateLanguage", "WidgetDataKeys", "NoiseControl",
                "SharedStore", "LiveWidgets",
                "NoiseEngine", "FieldTable", "Snapshots", "SizeLimits",
                // The Data page and Steps History call the same services as `weaver weather/calendar/steps`.
                "DataSources",
                // The Editor's Describe and Ask boxes call the same assistant as `weaver ai`.
                "DesignAssistant",
                "BoundedJSON", "CivilDates",
                // The Noise page opens mix links (`noise share`) through the strict reader.
                "ShareLinks",
                // Noise → Calibrate plays its bands into the output itself, as `noise hearing calibrate` does.
                "AudioOutput",
                // The Noise page's night section: schedules as `noise schedule` keeps them; the Data page's
                // refresh timer through `UserSystemd`.
                "PlayerStartup", "LoginEntryFiles",
                // The address `weaver serve` checks and this binds.
                "NetworkAddress",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The browser app's scripts, style sheets and page templates, compiled into the binary.
            resources: [.embedInCode("Resources")]),
        // timerfd and eventfd for ChangeWatch: Glibc's Swift module does not import them.
        .target(name: "CChangeWatch"),
        // inotify watcher for live outputs (`weaver render --watch`, `weaver serve`): files through
        // their folders, bursts coalesced, wall-clock minute ticks, clean stop.
        .target(name: "ChangeWatch", dependencies: ["CChangeWatch", "SystemCalls"]),
        // What wakes a live widget (`weaver serve`, `weaver render --watch`): the store's files and
        // the minute through ChangeWatch, and the player the status feed names: its exit (pidfd) and
        // the moment its status turns stale.
        .target(name: "LiveWidgets", dependencies: ["ChangeWatch", "NoiseControl", "SharedStore"]),
        // What widget buttons do (`weaver tap`, later the home screen): action-bar variables and the
        // Noise widget's transport, layers and resume at login, through the store and control socket.
        // Git commit and build date for `--version` (a header `make` writes; "unknown" without it).
        .target(name: "CBuildStamp"),
        // weaver only: Pango 1.50's font-matching jobs on the calling thread instead of two new threads
        // per font pattern (24 in a small widget's render; see fontjobs.c).
        .target(name: "CPangoFontJobs"),
        // What noise and weaver share about presenting themselves: `--version`, help text at 80 columns,
        // numeric options that take negative values, errors with the failing command's usage, the
        // one `--store` option (and the store folder handed on to login entries) both tools take, and
        // a share link shown as both show it (text, terminal QR code, PNG).
        .target(
            name: "CLISupport",
            dependencies: [
                "CBuildStamp", "SharedStore", "SystemCalls",
                "LoginEntryFiles",
                // A share link's QR code, in the terminal and as a PNG (`noise share`, `weaver share`).
                "ShareLinks", "CairoCanvas",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "WidgetActions",
            dependencies: [
                "NoiseControl", "NoiseEngine", "SharedStore", "TemplateLanguage", "WidgetDataKeys", "WidgetDesign",
                "WidgetRender",
                "DataSources", "LoginEntryFiles", "SystemCalls", "PlayerStartup",
            ]),
        // Widgets on the desktop: which designs, where, on which monitor (the store's desktop.json),
        // placement geometry and the login entry. No GTK: `weaver desktop add/list/remove/move` use it.
        .target(
            name: "DesktopWidgets",
            dependencies: [
                "SharedStore", "WidgetInputs", "WidgetRender", "WidgetDesign", "BoundedJSON", "LoginEntryFiles",
            ]),
        // GTK 3 and gtk-layer-shell for the desktop host only (see weaver-desktop below).
        .systemLibrary(
            name: "CGtk", pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]),
        // RFC 5545 parser and recurrence expander: bounded (size, line length, nesting, expansion), no I/O.
        // SizeLimits for the one wording of a file's size against its limit.
        .target(name: "ICalendar", dependencies: ["CivilDates", "SizeLimits"]),
        // Data for the widgets: Open-Meteo weather, .ics calendars, steps import; writes the snapshots.
        // HTTP through libcurl (CCurlLoader), not FoundationNetworking's URLSession, which would load it at every
        // start.
        .target(
            name: "DataSources",
            dependencies: [
                "ICalendar", "SharedStore", "Snapshots", "WidgetDataKeys", "CCurlLoader", "SystemCalls", "BoundedJSON",
                "CivilDates", "LoginEntryFiles", "SizeLimits",
            ]),
        // libcurl opened with dlopen at the first request, so `weaver render` does not load libcurl and
        // the ~25 TLS/Kerberos/LDAP libraries behind it (~13 ms of every start). The header is libcurl4-openssl-dev's.
        .target(name: "CCurlLoader"),
        // `noise spectrum`: a mix's predicted (and measured) spectrum drawn with Cairo/Pango to PNG or SVG.
        .target(name: "SpectrumPlot", dependencies: ["NoiseDSP", "CCairo", "CairoCanvas"]),

        .executableTarget(
            name: "noise",
            dependencies: [
                "SystemCalls",
                "NoiseEngine", "AudioSinkBase", "AudioOutput", "SharedStore", "NoiseControl", "CLISupport",
                "SpectrumPlot",
                "MPRISPlayer", "ShareLinks", "NoiseDSP", "SoundFiles", "TextureStatistics", "TextureMatch",
                // logind (idle inhibitor, --then), and rtkit where the render thread's SCHED_FIFO is refused.
                "SystemBusServices",
                // MPRIS cover art: the Noise Machine widget drawn by the one widget renderer.
                "WidgetRender", "WidgetDesign", "WidgetDataKeys",
                "LoginEntryFiles", "PlayerLiveness", "PlayerStartup",
                // `play --hearing auto` follows the device's profile file as it is saved.
                "ChangeWatch",
                // `noise set`'s refusals in the field table's one wording (FieldError).
                "FieldTable",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], linkerSettings: staticSwiftRuntime),
        .executableTarget(
            name: "weaver",
            dependencies: [
                "SystemCalls",
                "TemplateLanguage", "WidgetDataKeys", "WidgetDesign", "WidgetInputs", "WidgetRender", "SharedStore",
                "NoiseControl", "NoiseEngine", "WidgetActions", "LiveWidgets", "CLISupport", "NetworkAddress",
                "DataSources", "DesktopWidgets", "Snapshots", "FieldTable", "ShareLinks", "DesignAssistant",
                "BoundedJSON", "CivilDates", "LoginEntryFiles", "CPangoFontJobs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], linkerSettings: staticSwiftRuntime),

        // The desktop host, its own executable that `weaver desktop` execs, rather than GTK opened
        // with dlopen inside weaver: weaver is started by status bars every minute, and linking
        // GTK (30 more shared libraries, 74 instead of 44: GDK, ATK, at-spi, Wayland, X11
        // extensions, epoxy) would cost every one of those starts; a dlopen loader would need ~50
        // GTK/GDK/layer-shell prototypes written by hand, unchecked against the headers, where
        // this target imports the real ones.
        // Swift 5 mode: GTK's C callbacks reach the host's state through a main-thread-only global.
        .executableTarget(
            name: "weaver-desktop",
            dependencies: [
                "CGtk", "DesktopWidgets", "WidgetInputs", "WidgetRender", "WidgetDesign", "WidgetActions",
                "LiveWidgets", "SharedStore", "SystemCalls", "LoginEntryFiles",
                // Whether `weaver serve` is up before a widget's Edit button starts it.
                "NetworkAddress",
            ], swiftSettings: [.swiftLanguageMode(.v5)], linkerSettings: staticSwiftRuntime),

        // The browser app's server, its own executable that `weaver serve` execs once it has checked
        // the options: the HTTP server (SwiftNIO, Hummingbird), the app's embedded files and the
        // audio outputs for Noise → Calibrate (libpulse, alsa-lib, libFLAC and the ~20 libraries
        // behind them) would otherwise be loaded, relocated and scanned for protocol conformances
        // at every `weaver` start, which status bars make every minute (issue 41 item 25).
        .executableTarget(
            name: "weaver-serve",
            dependencies: ["HomeScreen", "WidgetActions", "SharedStore", "SystemCalls", "NetworkAddress"],
            linkerSettings: staticSwiftRuntime),

        // The fuzz targets' replay `main` in ordinary builds (input files through the entry), written once.
        .target(name: "FuzzReplay", path: "Fuzz/Replay"),
        // libFuzzer target for the design import parser (see docs/designs.md for the command).
        .executableTarget(
            name: "FuzzDesignImport", dependencies: ["WidgetDesign", "FuzzReplay"], path: "Fuzz/DesignImport"),
        // libFuzzer target for the template engine (see Fuzz/Variables/FuzzVariables.swift for the build line).
        .executableTarget(
            name: "FuzzVariables", dependencies: ["TemplateLanguage", "WidgetDataKeys", "FuzzReplay"],
            path: "Fuzz/Variables"),
        // libFuzzer target for the iCalendar parser and recurrence expander (build line in the file).
        .executableTarget(name: "FuzzICalendar", dependencies: ["ICalendar", "FuzzReplay"], path: "Fuzz/ICalendar"),

        // Test support: WAV reading, FFT/Welch spectra, BS.1770 loudness, running built executables, a loopback
        // HTTP server and the recorded data-source answers it serves (Fixtures), a scratch store with a fake player
        // (NoiseControl), design-library helpers and exchange files (WidgetDesign).
        .target(
            name: "TestSupport",
            dependencies: [
                "NoiseDSP", "NoiseEngine", "NoiseControl", "WidgetDesign", "SharedStore", "BoundedJSON",
                "LoginEntryFiles", "SystemCalls", "PlayerStartup", "TemplateLanguage", "WidgetDataKeys",
                "SpectrumPlot",
            ],
            path: "Tests/TestSupport",
            exclude: ["Fixtures"]),
        .testTarget(name: "NoiseDSPTests", dependencies: ["NoiseDSP", "CNoiseKernels", "TestSupport"]),
        .testTarget(
            name: "NoiseEngineTests",
            dependencies: [
                "NoiseEngine", "NoiseDSP", "AudioSinkBase", "TestSupport", "SpeechIntelligibility", "FieldTable",
            ]),
        // Spectrum curves against measured renders, and the chart files.
        .testTarget(
            name: "SpectrumPlotTests",
            dependencies: ["SpectrumPlot", "NoiseEngine", "NoiseDSP", "TestSupport", "CCairo"],
            // The golden chart is read from the source tree by path, not bundled.
            exclude: ["Golden"]),
        .testTarget(name: "AudioSinkBaseTests", dependencies: ["AudioSinkBase", "TestSupport"]),
        .testTarget(
            name: "AudioOutputTests", dependencies: ["AudioOutput", "AudioSinkBase", "NoiseEngine", "TestSupport"]),
        .testTarget(
            name: "SharedStoreTests", dependencies: ["SharedStore", "BoundedJSON", "CivilDates", "LoginEntryFiles"]),
        .testTarget(name: "BoundedJSONTests", dependencies: ["BoundedJSON", "CivilDates", "SharedStore"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"]),
        // The snapshot rules ("upcoming", the cap) and the tolerant, bounded reading of snapshot files.
        .testTarget(name: "SnapshotsTests", dependencies: ["Snapshots", "SharedStore", "BoundedJSON", "CivilDates"]),
        .testTarget(
            name: "TemplateLanguageTests",
            dependencies: ["TemplateLanguage", "WidgetDataKeys", "TestSupport", "NoiseDSP"]),
        .testTarget(
            name: "WidgetDataKeysTests",
            dependencies: ["WidgetDataKeys", "TemplateLanguage", "SharedStore", "TestSupport"]),
        .testTarget(
            name: "WidgetDesignTests",
            dependencies: [
                "WidgetDesign", "NoiseDSP", "TestSupport", "FieldTable", "SharedStore", "BoundedJSON", "CivilDates",
            ]),
        .testTarget(
            name: "NoiseControlTests",
            dependencies: [
                "NoiseControl", "NoiseEngine", "TestSupport", "BoundedJSON", "LoginEntryFiles", "PlayerLiveness",
            ]),
        // MPRIS property model (the bus itself is tested end to end in CLITests/MPRISTests).
        .testTarget(name: "MPRISPlayerTests", dependencies: ["MPRISPlayer", "NoiseControl", "NoiseEngine"]),
        // Rewrites the Last Mix until killed: the crash-safety test SIGKILLs it mid-write.
        .executableTarget(
            name: "store-writer", dependencies: ["NoiseControl", "SharedStore"], path: "Tests/StoreWriter"),
        // The built `noise` and `weaver` run as a user would: parsing, output, exit status, the files they write.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "TestSupport", "NoiseEngine", "NoiseControl", "SharedStore", "WidgetDataKeys", "WidgetDesign",
                "WidgetInputs", "WidgetRender", "CairoCanvas", "BoundedJSON", "CivilDates", "NetworkAddress",
            ]),
        .testTarget(
            name: "HomeScreenTests",
            dependencies: [
                "HomeScreen", "WidgetRender", "NoiseControl", "TestSupport", "NoiseEngine", "WidgetDesign",
                "FieldTable", "SharedStore", "SizeLimits", "NetworkAddress",
            ],
            // The web app scripts' own tests, run by `node --test` (make test).
            exclude: ["js"]),
        // Layout, hit-testing, golden-image and bad-input tests of the widget renderer.
        .testTarget(
            name: "WidgetRenderTests",
            dependencies: [
                "WidgetRender", "WidgetInputs", "WidgetDesign", "TemplateLanguage", "WidgetDataKeys", "NoiseControl",
                "NoiseEngine", "SharedStore",
                "TestSupport", "CCairo", "CairoCanvas", "CivilDates",
            ],
            exclude: ["Goldens"]),
        // desktop.json, placement geometry; the host itself under a private Xvfb (DesktopHostTests).
        .testTarget(
            name: "DesktopWidgetsTests",
            dependencies: ["DesktopWidgets", "SharedStore", "WidgetRender", "TestSupport", "LoginEntryFiles"]),
        .testTarget(name: "ChangeWatchTests", dependencies: ["ChangeWatch", "TestSupport"]),
        .testTarget(
            name: "LiveWidgetsTests",
            dependencies: ["LiveWidgets", "ChangeWatch", "NoiseControl", "SharedStore", "TestSupport"]),
        .testTarget(
            name: "WidgetActionsTests",
            dependencies: [
                "WidgetActions", "NoiseControl", "SharedStore", "WidgetDataKeys", "WidgetDesign", "WidgetRender",
                "DataSources", "TestSupport",
            ]),
        // RFC 5545 parsing, zones, recurrence and hostile calendar files.
        .testTarget(name: "ICalendarTests", dependencies: ["ICalendar", "CivilDates"]),
        // Weather/calendar/steps against a loopback HTTP server (TestSupport.LocalHTTPServer), never the internet.
        .testTarget(
            name: "DataSourcesTests",
            dependencies: [
                "DataSources", "TemplateLanguage", "WidgetDataKeys", "SharedStore", "Snapshots", "TestSupport",
            ]),

        // Mixes and designs carried whole in a link (`noise share`, `weaver share`, `--link`): DEFLATE in the
        // URL's fragment with a version and a checksum, read back bounded; QR codes through Debian's libqrencode.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(name: "ShareLinks", dependencies: ["CDeflate", "CQRencode", "SharedStore"]),
        .testTarget(name: "ShareLinksTests", dependencies: ["ShareLinks"]),

        // Designing in words (`weaver ai`, the Editor's Describe box): a request built from the design field
        // table to a model on the user's own machine (Ollama, llama-server), its answer read strictly and
        // every edit applied through DesignEditor. HTTP through DataSources' bounded libcurl client.
        .target(
            name: "DesignAssistant",
            dependencies: ["WidgetDesign", "FieldTable", "BoundedJSON", "DataSources", "SharedStore"]),
        .testTarget(
            name: "DesignAssistantTests",
            dependencies: ["DesignAssistant", "WidgetDesign", "FieldTable", "SharedStore", "TestSupport"]),

        // Issue 37: `noise analyze` and `noise match`. Texture statistics after McDermott & Simoncelli
        // (2011), the same definitions as ../shared/tools/texstat; pure arithmetic (own FFT, resampler).
        .target(name: "TextureStatistics", dependencies: ["NoiseDSP"]),
        // Recordings people have (WAV, FLAC, Ogg Vorbis/Opus, MP3) through Debian's libsndfile.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "SoundFiles", dependencies: ["CSndFile"]),
        // `noise match`: a mix's parameters (read from MixFields) searched so its statistics meet a recording's.
        .target(
            name: "TextureMatch", dependencies: ["NoiseEngine", "TextureStatistics", "AudioSinkBase", "FieldTable"]),
        .testTarget(
            name: "TextureStatisticsTests", dependencies: ["TextureStatistics"], exclude: ["derive_expected.py"]),
        .testTarget(name: "SoundFilesTests", dependencies: ["SoundFiles", "CSndFile", "TestSupport"]),
        .testTarget(
            name: "TextureMatchTests",
            dependencies: ["TextureMatch", "TextureStatistics", "NoiseEngine", "FieldTable"],
            // The recordings' statistics PresetRealismTests reads by path (numbers, not recordings).
            exclude: ["Fixtures"]),
    ]
)

for target in package.targets where target.path == nil && target.type != .test {
    guard let wing = wings.first(where: { $0.value.contains(target.name) })?.key else {
        fatalError("Package.swift: target \(target.name) has no wing in `wings`")
    }
    target.path = "Sources/\(wing)/\(target.name)"
}

// Test targets compiled without optimisation: in a clean build they took 694 s of the 1,633 s of
// Swift compile jobs at -O (CLITests alone 175 s), and the code under test stays optimised.
for target in package.targets where target.type == .test {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}

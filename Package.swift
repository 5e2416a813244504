// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "WidgetWeaver",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "noise", targets: ["noise"]),
        .executable(name: "weaver", targets: ["weaver"]),
        .library(name: "NoiseDSP", targets: ["NoiseDSP"]),
        .library(name: "NoiseEngine", targets: ["NoiseEngine"]),
        .library(name: "AudioOutput", targets: ["AudioOutput"]),
        .library(name: "SharedStore", targets: ["SharedStore"]),
        .library(name: "Variables", targets: ["Variables"]),
        .library(name: "WidgetDesign", targets: ["WidgetDesign"]),
        .library(name: "NoiseControl", targets: ["NoiseControl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C shims: flush-to-zero, thread naming, real-time scheduling (Glibc's module lacks them).
        .target(name: "CNoiseSupport"),
        .systemLibrary(name: "CPulse", pkgConfig: "libpulse-simple",
                       providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        // Drawing: Cairo surfaces (PNG, SVG) and Pango text through pangocairo, fonts pinned with
        // fontconfig. Shared by the widget renderer and the spectrum plot.
        .systemLibrary(name: "CCairo", pkgConfig: "pangocairo",
                       providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),

        // Pure real-time DSP: no Foundation, no I/O.
        .target(name: "NoiseDSP"),
        // alsa-lib's error hook is a C variadic function type: Swift cannot define one.
        .target(name: "CALSASupport", dependencies: ["CALSA"]),
        .target(name: "AudioOutput", dependencies: ["CPulse", "CALSA", "CALSASupport", "CNoiseSupport"]),
        .target(name: "NoiseEngine", dependencies: ["NoiseDSP", "AudioOutput", "CNoiseSupport", "SharedStore"]),
        .target(name: "SharedStore"),
        // Around the player: Last Mix, status feed, control socket, autostart. No audio code.
        .target(name: "NoiseControl", dependencies: ["NoiseEngine", "SharedStore"]),
        .target(name: "Variables", dependencies: ["SharedStore"]),
        .target(name: "WidgetDesign", dependencies: ["SharedStore", "NoiseDSP"]),
        .target(name: "WidgetRender", dependencies: ["WidgetDesign", "Variables", "CCairo"]),
        // timerfd and eventfd for ChangeWatch: Glibc's Swift module does not import them.
        .target(name: "CChangeWatch"),
        // inotify watcher for live outputs (`weaver render --watch`, `weaver serve`): files through
        // their folders, bursts coalesced, wall-clock minute ticks, clean stop.
        .target(name: "ChangeWatch", dependencies: ["CChangeWatch"]),
        // What widget buttons do (`weaver tap`, later the home screen): action-bar variables and the
        // Noise widget's transport, layers and resume at login, through the store and control socket.
        // Git commit and build date for `--version` (a header `make` writes; "unknown" without it).
        .target(name: "CBuildStamp"),
        // What noise and weaver share about presenting themselves: `--version`, help text at 80 columns.
        .target(name: "CLISupport", dependencies: ["CBuildStamp"]),
        .target(name: "WidgetActions", dependencies: ["NoiseControl", "NoiseEngine", "SharedStore", "Variables", "WidgetDesign"]),

        .executableTarget(name: "noise", dependencies: [
            "NoiseEngine", "AudioOutput", "SharedStore", "NoiseControl", "CLISupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "weaver", dependencies: [
            "Variables", "WidgetDesign", "WidgetRender", "SharedStore", "CLISupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // libFuzzer target for the design import parser (see docs/designs.md for the command).
        .executableTarget(name: "FuzzDesignImport", dependencies: ["WidgetDesign"], path: "Fuzz/DesignImport"),
        // libFuzzer target for the template engine (see Fuzz/Variables/FuzzVariables.swift for the build line).
        .executableTarget(name: "FuzzVariables", dependencies: ["Variables"], path: "Fuzz/Variables"),

        // Test support: WAV reading, FFT/Welch spectra, BS.1770 loudness, running built executables.
        .target(name: "TestSupport", dependencies: ["NoiseDSP"], path: "Tests/TestSupport"),
        .testTarget(name: "NoiseDSPTests", dependencies: ["NoiseDSP", "TestSupport"]),
        .testTarget(name: "NoiseEngineTests", dependencies: ["NoiseEngine", "TestSupport"]),
        .testTarget(name: "AudioOutputTests", dependencies: ["AudioOutput", "NoiseEngine", "TestSupport"]),
        .testTarget(name: "SharedStoreTests", dependencies: ["SharedStore"]),
        .testTarget(name: "VariablesTests", dependencies: ["Variables", "TestSupport"]),
        .testTarget(name: "WidgetDesignTests", dependencies: ["WidgetDesign", "NoiseDSP", "TestSupport"]),
        .testTarget(name: "NoiseControlTests", dependencies: ["NoiseControl", "TestSupport"]),
        // Rewrites the Last Mix until killed: the crash-safety test SIGKILLs it mid-write.
        .executableTarget(name: "store-writer", dependencies: ["NoiseControl", "SharedStore"], path: "Tests/StoreWriter"),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "NoiseEngine"]),
        .testTarget(name: "ChangeWatchTests", dependencies: ["ChangeWatch"]),
        .testTarget(name: "WidgetActionsTests", dependencies: ["WidgetActions", "NoiseControl", "SharedStore", "Variables", "WidgetDesign", "TestSupport"]),
    ]
)

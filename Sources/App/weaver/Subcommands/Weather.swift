import ArgumentParser
import CLISupport
import CivilDates
import DataSources
import Foundation
import LoginEntryFiles
import NoiseControl
import SharedStore
import Snapshots

/// `--base-url` for commands that talk to Open-Meteo.
struct OpenMeteoOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Open-Meteo server for /v1/forecast and /v1/search (default: $WIDGETWEAVER_OPEN_METEO_URL, else \
            api.open-meteo.com and geocoding-api.open-meteo.com).
            """,
            valueName: "url"))
    var baseURL: String?

    @Option(
        numeric: ArgumentHelp("Seconds without an answer before an attempt is given up (1…120).", valueName: "seconds"))
    var timeout: Double = 10

    @Option(
        numeric: ArgumentHelp(
            "Attempts after a timeout, a lost connection or a server error (0…5), with pauses of 1, 4, 10... s.",
            valueName: "n"))
    var retries: Int = 2

    func validate() throws {
        _ = try resolvedBase()
        guard (1...120).contains(timeout) else {
            throw ValidationError("'--timeout' must be 1…120 seconds; got \(timeout)")
        }
        guard (0...5).contains(retries) else { throw ValidationError("'--retries' must be 0…5; got \(retries)") }
    }

    func resolvedBase() throws -> URL? {
        do { return try OpenMeteo.baseURL(option: baseURL) } catch { throw ValidationError("\(error)") }
    }

    func api(verbose: Bool) throws -> OpenMeteo {
        let delays = Array([1.0, 4, 10, 20, 30].prefix(retries))
        let report: @Sendable (Int, HTTPError, Double) -> Void = { attempt, error, pause in
            printError("attempt \(attempt) failed (\(error)); trying again in \(secondsText(pause)) s")
        }
        let client = HTTPClient(onRetry: verbose ? report : nil)
        let policy = HTTPPolicy(
            maxBodyBytes: OpenMeteo.forecastBodyLimit, idleTimeoutSeconds: timeout,
            totalTimeoutSeconds: timeout * 2, retryDelaysSeconds: delays)
        return OpenMeteo(baseURL: try resolvedBase(), client: client, policy: policy)
    }
}

func secondsText(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

func printError(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

extension Weaver {
    struct Weather: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "weather",
            abstract: "Weather from Open-Meteo for the __weather_* keys and the weather widget.",
            discussion:
                """
                Set up: 'weaver weather location set \"Dublin\"', 'weaver weather refresh', 'weaver weather \
                autorefresh enable'. Data: Open-Meteo.com (CC BY 4.0).
                """,
            subcommands: [Location.self, Refresh.self, Show.self, Autorefresh.self])

        struct Location: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "location", abstract: "Set or show the place the forecast is for.",
                subcommands: [Set.self, ShowLocation.self])

            struct Set: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "set",
                    abstract: "Find a place by name (Open-Meteo geocoding) or give coordinates.",
                    usage:
                        """
                        weaver weather location set [<name>] [--lat <deg> --lon <deg>]
                          [--pick <n>] [--country <code>] [<options>]
                        """,
                    discussion:
                        "A name that matches several places lists them; choose with --pick N or narrow with --country.")
                @Argument(help: "Place name, e.g. \"Dublin\" or \"Springfield\".") var name: String?
                @Option(numeric: ArgumentHelp("Latitude in degrees, -90…90 (with --lon).", valueName: "deg")) var lat:
                    Double?
                @Option(numeric: ArgumentHelp("Longitude in degrees, -180…180 (with --lat).", valueName: "deg"))
                var lon: Double?
                @Option(numeric: ArgumentHelp("Pick the Nth place of an ambiguous search.", valueName: "n")) var pick:
                    Int?
                @Option(help: ArgumentHelp("Only places in this country (ISO 3166 code, e.g. IE).", valueName: "code"))
                var country: String?
                @OptionGroup var server: OpenMeteoOptions
                @OptionGroup var store: StoreOption

                func validate() throws {
                    switch (lat, lon) {
                    case (nil, nil):
                        guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                            throw ValidationError(
                                "give a place name (weaver weather location set \"Dublin\") or --lat and --lon")
                        }
                    case (let la?, let lo?):
                        guard (-90...90).contains(la) else {
                            throw ValidationError("'--lat' must be -90…90 degrees; got \(la)")
                        }
                        guard (-180...180).contains(lo) else {
                            throw ValidationError("'--lon' must be -180…180 degrees; got \(lo)")
                        }
                    default:
                        throw ValidationError("'--lat' and '--lon' go together")
                    }
                    if let country, country.count != 2 || !country.allSatisfy(\.isLetter) {
                        throw ValidationError(
                            "'--country' must be a two-letter ISO 3166 code such as IE or US; got '\(country)'")
                    }
                }

                func run() throws {
                    let service = WeatherService(root: store.root, api: try server.api(verbose: false))
                    let location: WeatherFile.Location
                    if let lat, let lon {
                        location = WeatherFile.Location(
                            name: name ?? String(format: "%.4f, %.4f", lat, lon), latitude: lat, longitude: lon,
                            updatedAt: Date(), timeZone: nil, country: nil, admin1: nil)
                    } else {
                        let places: [OpenMeteo.Place]
                        do { places = try service.api.search(name: name!, countryCode: country?.uppercased()) } catch {
                            throw CommandError("cannot look up '\(name!)': \(error)")
                        }
                        switch try WeatherService.resolve(places, pick: pick) {
                        case .none:
                            throw CommandError(
                                """
                                no place called '\(name!)'\(country.map { " in \($0.uppercased())" } ?? ""); check \
                                the spelling or use --lat/--lon
                                """
                            )
                        case .ambiguous(let choices):
                            var text =
                                """
                                '\(name!)' matches \(choices.count) places; choose one with --pick N (or narrow \
                                with --country):\n
                                """
                            for (i, p) in choices.enumerated() {
                                text +=
                                    """
                                      \(i + 1). \(p.label) \
                                    (\(String(format: "%.4f, %.4f", p.latitude, p.longitude)))\
                                    \(p.population.map { ", population \($0)" } ?? "")\n
                                    """
                            }
                            throw CommandError(String(text.dropLast()))
                        case .chosen(let p, let others):
                            location = WeatherFile.Location(
                                name: p.name, latitude: p.latitude, longitude: p.longitude, updatedAt: Date(),
                                timeZone: p.timeZone, country: p.country, admin1: p.admin1)
                            if !others.isEmpty {
                                printError(
                                    "note: also called '\(p.name)': "
                                        + others.prefix(3).map(\.label).joined(separator: "; ")
                                        + " (use --pick or --country for those)")
                            }
                            print("Location: \(p.label) (\(String(format: "%.4f, %.4f", p.latitude, p.longitude)))")
                        }
                    }
                    try service.setLocation(location, note: printError)
                    if lat != nil {
                        // Without a name the name is the coordinates: say them once.
                        let coordinates = String(format: "%.4f, %.4f", location.latitude, location.longitude)
                        print(
                            "Location: "
                                + (location.name == coordinates ? coordinates : "\(location.name) (\(coordinates))"))
                    }
                    print("Next: 'weaver weather refresh' fetches the forecast.")
                }
            }

            struct ShowLocation: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "show", abstract: "Print the saved location.")
                @OptionGroup var store: StoreOption
                func run() throws {
                    let service = WeatherService(root: store.root, api: OpenMeteo())
                    guard let l = try service.load(note: printError)?.location else {
                        throw CommandError(
                            "no weather location yet: set one with 'weaver weather location set \"Dublin\"'")
                    }
                    print("name\t\(l.name)")
                    print("latitude\t\(l.latitude)")
                    print("longitude\t\(l.longitude)")
                    if let tz = l.timeZone { print("timeZone\t\(tz)") }
                    if let c = l.country { print("country\t\(c)") }
                }
            }
        }

        struct Refresh: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "refresh",
                abstract: "Fetch the forecast and write snapshots/weather.json.",
                usage: "weaver weather refresh [--force] [--quiet] [--verbose] [<options>]",
                discussion:
                    """
                    At most one request per 10 minutes unless --force. On failure the last snapshot is kept and \
                    its age is reported (exit 1).
                    """
            )
            @Flag(help: "Ask now even if the last request was less than 10 minutes ago.") var force = false
            @Flag(help: "Print nothing on success (for timers).") var quiet = false
            @Flag(help: "Report retries on stderr.") var verbose = false
            @Option(
                help: ArgumentHelp(
                    "Pretend the clock is this ISO 8601 date-time (tests, replaying a recorded forecast).",
                    valueName: "iso8601"))
            var now: String?
            @OptionGroup var server: OpenMeteoOptions
            @OptionGroup var store: StoreOption

            func validate() throws {
                if let now, ISODate.parse(now) == nil {
                    throw ValidationError(
                        "'--now' must be an ISO 8601 date-time such as 2026-01-24T09:30:00Z; got '\(now)'")
                }
            }

            func run() throws {
                let service = WeatherService(root: store.root, api: try server.api(verbose: verbose))
                let pinned = self.now.flatMap(ISODate.parse)
                let outcome: WeatherService.RefreshOutcome
                do {
                    outcome = try service.refresh(force: force, now: { pinned ?? Date() }, note: printError)
                } catch let e as DataSourceError {
                    throw CommandError(e.description)
                }
                let now = pinned ?? Date()
                switch outcome {
                case .updated(let f):
                    guard !quiet, let s = f.snapshot else { return }
                    print(
                        "\(f.location?.name ?? "Weather"): \(s.condition), \(Int(s.temperatureC.rounded()))°C"
                            + (s.highC != nil && s.lowC != nil
                                ? " (H \(Int(s.highC!.rounded()))° L \(Int(s.lowC!.rounded()))°)" : "")
                            + " · \(s.nowcast)" + (s.nowcastSecondary.map { " · \($0)" } ?? ""))
                    print("Wrote \(WeatherFile.url(in: store.root).path)")
                case .tooSoon(let f, let last, let next):
                    if quiet { return }
                    let age = WeatherService.age(now.timeIntervalSince(last))
                    print(
                        """
                        Not fetched: the last request was \(age) ago; the next is allowed in \
                        \(WeatherService.age(next.timeIntervalSince(now) + 59)) (use --force to ask now).
                        """
                    )
                    if let s = f.snapshot {
                        print(
                            """
                            Snapshot from \(WeatherService.age(now.timeIntervalSince(s.fetchedAt))) ago: \
                            \(s.condition), \(Int(s.temperatureC.rounded()))°C
                            """
                        )
                    }
                case .failed(let f, let error):
                    if let s = f.snapshot {
                        throw CommandError(
                            """
                            \(error)\nKept the last snapshot, from \
                            \(WeatherService.age(now.timeIntervalSince(s.fetchedAt))) ago \
                            (\(ISODate.format(s.fetchedAt))).
                            """
                        )
                    }
                    throw CommandError(
                        """
                        \(error)\nThere is no earlier snapshot; the weather widget shows no data until a refresh \
                        succeeds.
                        """
                    )
                }
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show", abstract: "Print the stored snapshot (or its JSON).")
            @Flag(help: "Print snapshots/weather.json as it is.") var json = false
            @OptionGroup var store: StoreOption
            func run() throws {
                let url = WeatherFile.url(in: store.root)
                if json {
                    guard let data = try FileSystem.read(url, limit: 1 << 20) else {
                        throw CommandError("no weather snapshot yet (\(url.path))")
                    }
                    FileHandle.standardOutput.write(data)
                    return
                }
                let service = WeatherService(root: store.root, api: OpenMeteo())
                guard let f = try service.load(note: printError) else {
                    throw CommandError("no weather snapshot yet: run 'weaver weather refresh'")
                }
                let now = Date()
                if let l = f.location { print("location\t\(l.name) (\(l.latitude), \(l.longitude))") }
                if let s = f.snapshot {
                    print(
                        """
                        fetched\t\(ISODate.format(s.fetchedAt)) \
                        (\(WeatherService.age(now.timeIntervalSince(s.fetchedAt))) ago)
                        """
                    )
                    print(
                        """
                        now\t\(s.condition) [\(s.symbol)], \(s.temperatureC)°C, feels \
                        \(s.apparentTemperatureC.map { "\($0)" } ?? "?")°C
                        """
                    )
                    print("nowcast\t\(s.nowcast)\(s.nowcastSecondary.map { " · \($0)" } ?? "")")
                } else {
                    print("fetched\tnever")
                }
                if let e = f.refresh.lastError { print("last error\t\(e)") }
            }
        }

        struct Autorefresh: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "autorefresh",
                abstract:
                    "Refresh weather and calendars every 30 minutes: a systemd user timer, or an XDG autostart loop.",
                subcommands: [Enable.self, Disable.self])

            struct Enable: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "enable", abstract: "Install the timer (or the login loop).")
                @Option(help: "auto (systemd when it runs the session, else XDG autostart), systemd or xdg.")
                var method: String = "auto"
                @OptionGroup var store: StoreOption

                func chosen() throws -> RefreshTimer.Method {
                    do { return try RefreshTimer.method(named: method) } catch { throw ValidationError("\(error)") }
                }
                func validate() throws { _ = try chosen() }

                func run() throws {
                    let outcome = try makeTimer(store).enable(try chosen(), systemctl: { UserSystemd.run($0) })
                    for f in outcome.written { print("Wrote \(f.path)") }
                    for note in outcome.notes { printError(note) }
                    print(outcome.message)
                }
            }

            struct Disable: ParsableCommand {
                static let configuration = CommandConfiguration(
                    commandName: "disable", abstract: "Remove the timer and the login loop.")
                @OptionGroup var store: StoreOption
                func run() throws {
                    let outcome = try makeTimer(store).disable(systemctl: { UserSystemd.run($0) })
                    for note in outcome.notes { printError(note) }
                    for f in outcome.removed { print("Removed \(f.path)") }
                    print(outcome.message)
                }
            }
        }
    }
}

private func makeTimer(_ store: StoreOption) -> RefreshTimer {
    RefreshTimer(target: store.loginEntryTarget(executable: RefreshTimer.weaverExecutable()))
}

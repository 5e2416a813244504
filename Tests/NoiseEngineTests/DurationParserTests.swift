import NoiseEngine
import Testing

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("90", 90.0), ("30s", 30), ("10m", 600), ("1h30m", 5400), ("8h", 28800), ("1.5h", 5400),
        ("150ms", 0.15), ("2h15m30s", 8130), (" 5m ", 300), ("0", 0),
    ])
    func parsesWhatUsersType(text: String, seconds: Double) throws {
        #expect(abs(try DurationParser.seconds(text) - seconds) < 1e-9)
    }

    @Test(arguments: [
        "", "ten", "-5", "5x", "30m1h", "1h1h", "h", "1.2.3s", "nan", "inf", String(repeating: "9", count: 40),
    ])
    func refusesEverythingElse(text: String) {
        #expect(throws: DurationParser.Failure.self) { try DurationParser.seconds(text) }
    }

    /// Issue 26 item 4: `--latency -1s` says the duration must be positive.
    @Test(arguments: ["-1s", "-5", "-1h30m", " -150ms"])
    func negativeDurationsAreSaidToBeNegative(text: String) {
        let failure = #expect(throws: DurationParser.Failure.self) { try DurationParser.seconds(text) }
        #expect(failure?.isNegative == true)
        #expect(
            failure?.description
                == "'\(text)' is negative; a duration must be positive (e.g. 90, 30s, 10m, 1h30m, 8h, 150ms)")
    }
}

import CSndFile

/// A recording read whole into memory as mono samples: WAV, FLAC, Ogg Vorbis, Ogg Opus, MP3 and
/// whatever else the system's libsndfile reads (1.1 or later reads MP3; Debian 12 ships 1.2).
public struct SoundFile: Sendable {
    /// The path as given.
    public var path: String
    /// Channels averaged to one.
    public var samples: [Double]
    public var sampleRate: Int
    public var channelCount: Int
    /// The container and encoding as libsndfile names them (`OGG (OGG Container format)`, `Vorbis`).
    public var formatName: String

    /// At most this much is read; a longer recording is refused rather than read for minutes.
    public static let maximumSeconds = 600.0
    public static let sampleRateRange = 1000...768_000
    public static let channelRange = 1...64

    public var durationSeconds: Double { Double(samples.count) / Double(sampleRate) }

    /// Reads `path` whole.
    /// - Throws: `SoundFileError` naming the file and what is wrong with it (missing, not audio,
    ///   an unsupported encoding, longer than `maximumSeconds`, empty).
    public init(path: String, maximumSeconds: Double = Self.maximumSeconds) throws(SoundFileError) {
        self.path = path
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw SoundFileError(file: path, problem: Self.describe(openFailure: reason, path: path))
        }
        defer { sf_close(handle) }
        let rate = Int(info.samplerate), channels = Int(info.channels)
        guard Self.sampleRateRange.contains(rate) else {
            throw SoundFileError(
                file: path,
                problem: "sample rate \(rate) Hz is out of range; allowed \(Self.sampleRateRange.lowerBound)…"
                    + "\(Self.sampleRateRange.upperBound) Hz")
        }
        guard Self.channelRange.contains(channels) else {
            throw SoundFileError(
                file: path, problem: "has \(channels) channels; allowed \(Self.channelRange.upperBound) at most")
        }
        let limitFrames = Int(maximumSeconds * Double(rate))
        // MP3 and some Ogg files only estimate their length in the header: the read is bounded too.
        if info.frames > Int64(limitFrames) {
            throw SoundFileError(
                file: path, problem: Self.tooLong(Double(info.frames) / Double(rate), maximumSeconds))
        }
        sampleRate = rate
        channelCount = channels
        formatName = Self.formatName(info.format)
        let chunkFrames = 16384
        var buffer = [Double](repeating: 0, count: chunkFrames * channels)
        var mono: [Double] = []
        mono.reserveCapacity(max(0, min(Int(info.frames), limitFrames)))
        while true {
            let got = buffer.withUnsafeMutableBufferPointer {
                sf_readf_double(handle, $0.baseAddress, Int64(chunkFrames))
            }
            if got <= 0 { break }
            for f in 0..<Int(got) {
                var s = 0.0
                for c in 0..<channels { s += buffer[f * channels + c] }
                mono.append(s / Double(channels))
            }
            if mono.count > limitFrames {
                throw SoundFileError(file: path, problem: Self.tooLong(nil, maximumSeconds))
            }
        }
        if sf_error(handle) != 0 {
            throw SoundFileError(file: path, problem: "cannot be decoded: " + String(cString: sf_strerror(handle)))
        }
        guard !mono.isEmpty else { throw SoundFileError(file: path, problem: "holds no audio (0 frames)") }
        guard mono.allSatisfy(\.isFinite) else {
            throw SoundFileError(file: path, problem: "holds samples that are not finite numbers (NaN or infinity)")
        }
        samples = mono
    }

    static func tooLong(_ seconds: Double?, _ limit: Double) -> String {
        let length = seconds.map { "is \(Self.clock($0)) long" } ?? "is longer than \(Self.clock(limit))"
        return "\(length); at most \(Self.clock(limit)) is read (cut it, e.g. sox IN OUT trim 0 10:00)"
    }

    static func clock(_ s: Double) -> String {
        let whole = Int(s.rounded())
        return whole >= 60 ? "\(whole / 60) min \(whole % 60) s" : "\(whole) s"
    }

    /// libsndfile's open error in words that say what to do.
    static func describe(openFailure reason: String, path: String) -> String {
        let r = reason.trimmingCharacters()
        if r.contains("No such file") { return "no such file" }
        if r.contains("Permission denied") { return "cannot be opened: permission denied" }
        if r.contains("Is a directory") { return "is a folder, not a sound file" }
        if r.contains("unknown format") || r.contains("not recognised") || r.contains("Format not recognised") {
            return "is not a sound file this build reads (WAV, FLAC, Ogg Vorbis, Ogg Opus, MP3): \(r)"
        }
        return "cannot be read: \(r)"
    }

    /// Major format and encoding names from libsndfile's own tables.
    static func formatName(_ format: Int32) -> String {
        func name(_ command: Int32, _ value: Int32) -> String? {
            var f = SF_FORMAT_INFO()
            f.format = value
            guard sf_command(nil, command, &f, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0, let n = f.name else {
                return nil
            }
            return String(cString: n)
        }
        let major = name(Int32(SFC_GET_FORMAT_INFO), format & Int32(SF_FORMAT_TYPEMASK)) ?? "unknown"
        let sub = name(Int32(SFC_GET_FORMAT_INFO), format & Int32(SF_FORMAT_SUBMASK))
        return sub.map { "\(major), \($0)" } ?? major
    }
}

/// A recording that cannot be used: the file and what is wrong (`rain.mp3: no such file`).
public struct SoundFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}

extension String {
    /// Without leading and trailing spaces, newlines and full stops (libsndfile ends its
    /// messages with both).
    fileprivate func trimmingCharacters() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\n" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\n" || c == "." { s = s.dropLast() }
        return String(s)
    }
}

import Foundation
import SoundFiles
import TextureStatistics

/// A recording as `noise analyze` and `noise match` measure it: read through libsndfile, mono,
/// at the statistics' 20 kHz, cut to its excerpt.
struct Recording {
    var file: SoundFile
    var excerpt: AnalysisExcerpt
    /// The excerpt's samples at `CochlearFilterbank.sampleRate`.
    var signal: [Double]

    /// - Parameters:
    ///   - start, duration: the excerpt asked for (texstat's rule: 2 s in, 60 s long, shorter
    ///     recordings lose 0.5 s at each end).
    init(path: String, start: Double, duration: Double) throws(SoundFileError) {
        file = try SoundFile(path: path)
        let resampled = PolyphaseResampler(inputRate: file.sampleRate, outputRate: CochlearFilterbank.sampleRate)
            .process(file.samples)
        let total = Double(resampled.count) / Double(CochlearFilterbank.sampleRate)
        excerpt = AnalysisExcerpt(totalSeconds: total, start: start, duration: duration)
        signal = excerpt.samples(of: resampled)
        guard signal.count >= CochlearFilterbank.sampleRate else {
            throw SoundFileError(
                file: path, problem: "is \(String(format: "%.1f", total)) s long; at least 1 s of sound is needed")
        }
    }

    /// `44100 Hz stereo, OGG (OGG Container format), Vorbis`
    var summary: String {
        let channels =
            file.channelCount == 1 ? "mono" : (file.channelCount == 2 ? "stereo" : "\(file.channelCount) channels")
        return "\(file.sampleRate) Hz \(channels), \(file.formatName)"
    }
}

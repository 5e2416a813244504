import ArgumentParser
import CLISupport
import NoiseEngine

/// `--loudness LUFS`: sets the master volume so the mix plays at that loudness (predicted by the
/// loudness model, see docs/sound.md), for `play` and `render`.
struct LoudnessOption: ParsableArguments {
    @Option(
        name: .long,
        numeric: ArgumentHelp(
            "Play at this integrated loudness (-70…0 LUFS; presets ship at -23) by setting the master volume.",
            valueName: "LUFS"))
    var loudness: Double?

    func validate() throws {
        if let loudness, !(loudness.isFinite && Mix.loudnessTargetRange.contains(loudness)) {
            throw ValidationError("'--loudness' \(loudness) is out of range; allowed -70…0 LUFS")
        }
    }

    /// Sets `mix.masterVolume` for the target, or throws why it cannot be reached; returns a note
    /// for the user, or nil without `--loudness`.
    func apply(to mix: inout Mix, sampleRate: Double, channelCount: Int) throws -> String? {
        guard let loudness else { return nil }
        do {
            mix.masterVolume = try mix.masterVolume(
                forLoudness: loudness, sampleRate: sampleRate, channelCount: channelCount)
        } catch {
            throw CLIError("'--loudness': \(error.message)")
        }
        return "Master \(percent(mix.masterVolume)) for \(Mix.lufs(loudness))."
    }
}

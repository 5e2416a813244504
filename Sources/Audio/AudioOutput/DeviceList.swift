import AudioSinkBase
import CALSA
import CPulse

/// An output a backend can see, for `noise devices` and `--device`.
public struct OutputDevice: Sendable, Equatable {
    public var backend: String
    /// What `--device` takes.
    public var name: String
    public var description: String
    public var isDefault: Bool
}

public enum DeviceList {
    /// Sinks of the running PulseAudio (or PipeWire-Pulse) server, default first (`server`: as
    /// `PulseAudioSink`'s).
    public static func pulseSinks(server: String? = nil) throws(AudioOutputError) -> [OutputDevice] {
        let connection = try PulseConnection(clientName: "noise devices", server: server)
        let context = connection.context
        final class Results {
            var sinks: [OutputDevice] = []
            var defaultName: String?
            var pending = 2
        }
        let results = Results()
        let user = Unmanaged.passUnretained(results).toOpaque()
        let serverOp = pa_context_get_server_info(
            context,
            { _, info, user in
                let r = Unmanaged<Results>.fromOpaque(user!).takeUnretainedValue()
                if let info, let name = info.pointee.default_sink_name { r.defaultName = String(cString: name) }
                r.pending -= 1
            }, user)
        let sinkOp = pa_context_get_sink_info_list(
            context,
            { _, info, eol, user in
                let r = Unmanaged<Results>.fromOpaque(user!).takeUnretainedValue()
                if eol != 0 {
                    r.pending -= 1
                    return
                }
                guard let info else { return }
                r.sinks.append(
                    OutputDevice(
                        backend: "pulse", name: String(cString: info.pointee.name),
                        description: info.pointee.description.map { String(cString: $0) } ?? "", isDefault: false))
            }, user)
        defer {
            if let serverOp { pa_operation_unref(serverOp) }
            if let sinkOp { pa_operation_unref(sinkOp) }
        }
        // An operation that could not be sent never calls back: fail rather than wait for it.
        guard serverOp != nil, sinkOp != nil else {
            throw AudioOutputError(.unavailable, backend: "pulse", call: "list sinks", reason: connection.lastError)
        }
        try connection.iterate(call: "list sinks") { results.pending == 0 }
        var sinks = results.sinks.map { d in
            var d = d
            d.isDefault = d.name == results.defaultName
            return d
        }
        sinks.sort { $0.isDefault && !$1.isDefault }
        return sinks
    }

    /// PCMs from ALSA's device hints (cards, plugins, `.asoundrc` entries) that can play.
    public static func alsaPCMs() -> [OutputDevice] {
        ALSASink.silenceLibraryMessages
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var out: [OutputDevice] = []
        var i = 0
        while let hint = hints[i] {
            i += 1
            func field(_ id: String) -> String? {
                guard let p = snd_device_name_get_hint(hint, id) else { return nil }
                defer { free(p) }
                return String(cString: p)
            }
            // IOID is nil for devices that do both directions; "Input" means capture only.
            if field("IOID") == "Input" { continue }
            guard let name = field("NAME") else { continue }
            let description = (field("DESC") ?? "").split(separator: "\n").joined(separator: " — ")
            out.append(
                OutputDevice(backend: "alsa", name: name, description: description, isDefault: name == "default"))
        }
        return out
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// The device a sink plays to, as profiles are keyed: the PulseAudio sink's name (the server's
/// default resolved), or the ALSA PCM's.
public enum OutputDeviceName {
    public static func of(sinkName: String, backendDevice: String?) -> String? {
        if let backendDevice, !backendDevice.isEmpty { return backendDevice }
        if sinkName.hasPrefix("pulse") {
            return (try? DeviceList.pulseSinks())?.first { $0.isDefault }?.name
        }
        if sinkName.hasPrefix("alsa") { return "default" }
        return nil
    }
}

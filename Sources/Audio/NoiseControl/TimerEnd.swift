/// What the end of the sleep timer does besides stopping the noise (`noise play --then`,
/// `noise timer --then`, the Noise page's "At the end"): nothing more, suspend or power off,
/// through systemd-logind.
public enum TimerEnd: String, CaseIterable, Codable, Sendable {
    case stop, suspend, poweroff

    /// The choices as messages list them: "stop, suspend or poweroff".
    public static let allowedText = "stop, suspend or poweroff"

    /// The words of a message about this action ("suspend", "power-off").
    public var actionWords: String {
        switch self {
        case .stop: "stop"
        case .suspend: "suspend"
        case .poweroff: "power-off"
        }
    }
}

/// Which way a pair of on/off subcommands goes (`noise schedule enable|disable`, `weaver pro
/// unlock|lock`): where the two do the same with the opposite flag, one generic command serves
/// both, as `Command<SwitchOn>` and `Command<SwitchOff>`.
public protocol SwitchWay {
    static var isOn: Bool { get }
}

public enum SwitchOn: SwitchWay {
    public static var isOn: Bool { true }
}

public enum SwitchOff: SwitchWay {
    public static var isOn: Bool { false }
}

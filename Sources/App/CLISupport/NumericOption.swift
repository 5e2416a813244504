import ArgumentParser

// Options that take a number (or a duration, a gain, a coordinate) read the next argument as their
// value even when it starts with a minus: by default argument-parser takes `--lon -6.26` for an
// option named `-6.26` and reports "Missing value for '--lon'", so every place west of Greenwich
// needed `--lon=-6.26` and `--latency -1s` never reached the "must be positive" check. Declaring
// them with `numeric:` instead of `help:` is the one place this is decided; the option's own
// validation then range-checks the value. HelpTextTests-style walks in CLITests check that every
// numeric option of both tools is declared this way.

extension Option where Value: ExpressibleByArgument {
    /// `@Option(numeric: "…") var gainDb: Double = 0`: a number that may be negative.
    public init(wrappedValue: Value, name: NameSpecification = .long, numeric help: ArgumentHelp) {
        self.init(wrappedValue: wrappedValue, name: name, parsing: .unconditional, help: help)
    }

    /// `@Option(numeric: "…") var at: String`: a required value that may start with a minus.
    public init(name: NameSpecification = .long, numeric help: ArgumentHelp) {
        self.init(name: name, parsing: .unconditional, help: help)
    }
}

extension Option {
    /// `@Option(numeric: "…") var lon: Double?`: an optional number that may be negative.
    public init<T: ExpressibleByArgument>(name: NameSpecification = .long, numeric help: ArgumentHelp)
    where Value == T? {
        self.init(name: name, parsing: .unconditional, help: help)
    }
}

import ArgumentParser

extension Weaver {
    struct Pro: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver pro' is not built yet") }
    }
}

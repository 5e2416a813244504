import ArgumentParser

extension Weaver {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver import' is not built yet") }
    }
}

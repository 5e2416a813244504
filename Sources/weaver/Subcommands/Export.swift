import ArgumentParser

extension Weaver {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver export' is not built yet") }
    }
}

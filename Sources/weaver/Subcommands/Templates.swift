import ArgumentParser

extension Weaver {
    struct Templates: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver templates' is not built yet") }
    }
}

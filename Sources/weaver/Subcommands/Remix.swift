import ArgumentParser

extension Weaver {
    struct Remix: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver remix' is not built yet") }
    }
}

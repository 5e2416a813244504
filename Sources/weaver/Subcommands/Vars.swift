import ArgumentParser

extension Weaver {
    struct Vars: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver vars' is not built yet") }
    }
}

import ArgumentParser

extension Weaver {
    struct Designs: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Not built yet.")
        func run() throws { throw ValidationError("'weaver designs' is not built yet") }
    }
}

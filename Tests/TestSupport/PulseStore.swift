import Foundation

/// A private PulseAudio server with a scratch store in its folder, and the environment that points
/// `noise` at both: what a test of a real player starts from. The caller stops `server`.
public struct PulseStore: StoreBackedRig {
    public let server: PulseServer
    public let env: [String: String]
    public let store: URL

    /// `configHome`: `$XDG_CONFIG_HOME` in the server's folder, so login entries and user presets
    /// land there, never in the real home.
    public init(configHome: Bool = false) throws {
        server = try PulseServer()
        store = server.directory.appendingPathComponent("store")
        let config = configHome ? ["XDG_CONFIG_HOME": server.directory.appendingPathComponent("config").path] : [:]
        env = TestStore(at: store).environment(server.environment.merging(config) { $1 })
    }

    public func noise(_ args: [String]) throws -> Products.Result { try Products.run("noise", args, environment: env) }
}

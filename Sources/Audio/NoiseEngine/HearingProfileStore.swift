import BoundedJSON
import Foundation
import SharedStore

/// Hearing profiles in the store, one file per output device: `<store>/hearing/<device>.json`,
/// the device's name (PulseAudio sink or ALSA device) percent-encoded into a file name.
///
/// A profile that cannot be read is set aside (`name.corrupt-<stamp>`) and reported, never
/// overwritten; the calibration then starts afresh.
public struct HearingProfileStore: Sendable {
    public let root: StoreRoot
    public init(root: StoreRoot) { self.root = root }

    public var folder: URL { root.url.appendingPathComponent("hearing", isDirectory: true) }

    /// The file of `device`'s profile.
    public func url(device: String) -> URL {
        var name = ""
        for b in device.utf8 {
            let c = Character(UnicodeScalar(b))
            if c.isASCII && (c.isLetter || c.isNumber || "._-".contains(c)) && !(name.isEmpty && c == ".") {
                name.append(c)
            } else {
                name += String(format: "%%%02X", b)
            }
        }
        return folder.appendingPathComponent((name.isEmpty ? "%00" : name) + ".json")
    }

    public struct Loaded: Sendable {
        public var profile: HearingProfile?
        /// Set-aside notices for the user.
        public var messages: [String] = []
    }

    /// `device`'s profile, nil when it has none; an unreadable one is set aside and said.
    public func load(device: String) throws -> Loaded {
        let u = url(device: device)
        let data: Data?
        do { data = try FileSystem.read(u, limit: HearingProfile.maximumFileBytes) } catch {
            return try setAside(u, reason: (error as? StoreError)?.reason ?? "\(error)")
        }
        guard let data else { return Loaded() }
        do {
            return Loaded(profile: try HearingProfile.decode(data, file: u.path))
        } catch {
            return try setAside(u, reason: "\(error.path): \(error.reason)")
        }
    }

    private func setAside(_ u: URL, reason: String) throws -> Loaded {
        let moved = try FileSystem.setAside(u)
        return Loaded(profile: nil, messages: [SetAsideNotice.text(u, reason: reason, movedTo: moved)])
    }

    /// Writes `profile` as `device`'s (atomically, mode 0600).
    public func save(_ profile: HearingProfile, device: String) throws {
        try root.ensureExists()
        try FileSystem.makeDirectory(folder)
        var p = profile
        p.device = device
        try FileSystem.atomicWrite(p.encodedJSON(), to: url(device: device))
    }

    /// Every stored profile: (device, profile or the reason it cannot be read).
    public func list() -> [(device: String, file: URL, profile: Result<HearingProfile, JSONFieldError>)] {
        let files =
            (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }.map { f in
            let name = f.deletingPathExtension().lastPathComponent
            let device = name.removingPercentEncoding ?? name
            let result: Result<HearingProfile, JSONFieldError>
            do {
                guard let data = try FileSystem.read(f, limit: HearingProfile.maximumFileBytes) else {
                    throw JSONFieldError(document: f.path, path: JSONReader.topLevel, reason: "vanished")
                }
                result = .success(try HearingProfile.decode(data, file: f.path))
            } catch let e as JSONFieldError {
                result = .failure(e)
            } catch {
                result = .failure(JSONFieldError(document: f.path, path: JSONReader.topLevel, reason: "\(error)"))
            }
            return (device, f, result)
        }
    }

    /// Removes `device`'s profile; false when it had none.
    public func remove(device: String) throws -> Bool {
        let u = url(device: device)
        guard FileManager.default.fileExists(atPath: u.path) else { return false }
        try FileManager.default.removeItem(at: u)
        return true
    }
}

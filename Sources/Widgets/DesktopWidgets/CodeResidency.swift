import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A desktop host's own code pages (`weaver-desktop`, and `weaver desktop gnome feed`): this
/// binary carries the Swift runtime, Foundation and ICU (140 MB file, 25 MB of code). When the file
/// is in the page cache, every fault on it maps its neighbours too (the kernel's fault-around), so
/// ~17 MB of code a host never runs showed as resident. After start-up the mappings are dropped
/// (the pages stay in the page cache, shared, and what is used again comes back on demand), and
/// random access is declared so later faults map only the page they need.
public enum CodeResidency {
    /// Drops this executable's resident code pages; returns the bytes of mappings advised.
    @discardableResult
    public static func trim() -> Int {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        else { return 0 }
        var advised = 0
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // address perms offset dev inode path: only our own file's executable mapping (code and the
            // constants the linker put beside it). Never a read-only data mapping: RELRO pages were
            // written by the loader's relocations and would come back from the file unrelocated.
            guard fields.count >= 6, fields[5...].joined(separator: " ") == exe,
                fields[1] == "r-xp"
            else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16),
                let base = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            let length = Int(end - start)
            _ = madvise(base, length, MADV_RANDOM)
            if madvise(base, length, MADV_DONTNEED) == 0 { advised += length }
        }
        return advised
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One row of the library listing: what `designs list` shows and searches, without reading the
/// design files themselves.
public struct DesignSummary: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var template: LayoutTemplateToken
    public var updatedAt: Date
    public var hasImage: Bool
    /// `name` folded for case- and accent-insensitive search, computed once when the row is made.
    public var searchKey: String
    /// The design file's identity when the row was made (inode, size, modification time): a row
    /// whose file no longer matches is re-read, so a design edited by hand lists correctly.
    var fileStamp: FileStamp?
    /// What reading the file repaired, one finding each (`name: expected a string, found number
    /// 42; using "WidgetWeaver"`): the file itself is left as it is until the design is saved, so
    /// the Library and `designs list` say it on every listing, not only the first read's warning.
    public var repairs: [String] = []

    public init(id: UUID, name: String, template: LayoutTemplateToken, updatedAt: Date, hasImage: Bool) {
        self.id = id
        self.name = name
        self.template = template
        self.updatedAt = updatedAt
        self.hasImage = hasImage
        self.searchKey = DesignSummary.fold(name)
    }

    init(id: UUID, name: String, template: LayoutTemplateToken, updatedAt: Date, hasImage: Bool, searchKey: String) {
        self.id = id
        self.name = name
        self.template = template
        self.updatedAt = updatedAt
        self.hasImage = hasImage
        self.searchKey = searchKey
    }

    public init(_ spec: WidgetSpec) {
        self.init(
            id: spec.id, name: spec.name, template: spec.layout.template, updatedAt: spec.updatedAt,
            hasImage: !spec.referencedImageFileNames.isEmpty)
    }

    public static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Newest first; ties by name then ID so the order is stable.
    public static func newestFirst(_ a: DesignSummary, _ b: DesignSummary) -> Bool {
        if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
        if a.name != b.name { return a.name < b.name }
        return a.id.uuidString < b.id.uuidString
    }
}

/// The library's index file (`designs/.index`): one tab-separated line per design, rewritten
/// atomically under the library lock with every change. Listing 10,000 designs reads this one
/// file instead of 10,000. It is a cache: when it is missing, unreadable, or its IDs differ from
/// the design files present, the library rebuilds it from the files.
/// What `stat` says about a design file; equal stamps mean the index row is still true. The
/// status-change time, not the modification time: `touch -r` can put an edited file's mtime back
/// (a same-size hand edit then looked unchanged), but every write moves ctime.
struct FileStamp: Sendable, Hashable {
    var inode: UInt64
    var size: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    static func of(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStamp(
            inode: UInt64(st.st_ino), size: Int64(st.st_size),
            changedSeconds: Int64(st.st_ctim.tv_sec), changedNanoseconds: Int64(st.st_ctim.tv_nsec))
    }

    /// `name` inside the open folder `dirFD`.
    static func at(_ dirFD: Int32, _ name: String) -> FileStamp? {
        var st = stat()
        guard fstatat(dirFD, name, &st, 0) == 0 else { return nil }
        return FileStamp(
            inode: UInt64(st.st_ino), size: Int64(st.st_size),
            changedSeconds: Int64(st.st_ctim.tv_sec), changedNanoseconds: Int64(st.st_ctim.tv_nsec))
    }

    var encoded: String { "\(inode).\(size).\(changedSeconds).\(changedNanoseconds)" }

    init(inode: UInt64, size: Int64, changedSeconds: Int64, changedNanoseconds: Int64) {
        self.inode = inode
        self.size = size
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }

    init?(_ text: Substring) {
        let p = text.split(separator: ".", omittingEmptySubsequences: false)
        guard p.count == 4, let i = UInt64(p[0]), let s = Int64(p[1]), let m = Int64(p[2]), let n = Int64(p[3]) else {
            return nil
        }
        self.init(inode: i, size: s, changedSeconds: m, changedNanoseconds: n)
    }
}

enum DesignIndex {
    /// Version 2 adds the file stamp column, 3 the repairs; an older index is simply rebuilt.
    static let header = "widgetweaver-design-index 3"

    static func encode(_ rows: [DesignSummary]) -> Data {
        var out = header + "\n"
        out.reserveCapacity(rows.count * 96)
        for r in rows {
            out += r.id.uuidString
            out += "\t"
            out += String(r.updatedAt.timeIntervalSince1970)
            out += "\t"
            out += r.template.rawValue
            out += r.hasImage ? "\t1\t" : "\t0\t"
            out += r.fileStamp?.encoded ?? "-"
            out += "\t"
            out += escape(r.name)
            out += "\t"
            out += escape(r.searchKey)
            out += "\t"
            out += escape(r.repairs.joined(separator: "\n"))
            out += "\n"
        }
        return Data(out.utf8)
    }

    /// Nil when the data is not a well-formed index (the caller rebuilds).
    static func decode(_ data: Data) -> [DesignSummary]? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard let first = lines.first, String(first) == header else { return nil }
        lines = lines.dropFirst()
        var rows: [DesignSummary] = []
        rows.reserveCapacity(lines.count)
        for line in lines {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map { Substring($0) }
            guard f.count == 8, let id = UUID(uuidString: String(f[0])), let t = Double(f[1]),
                let template = LayoutTemplateToken(rawValue: String(f[2]))
            else { return nil }
            var row = DesignSummary(
                id: id, name: unescape(f[5]), template: template,
                updatedAt: Date(timeIntervalSince1970: t), hasImage: f[3] == "1",
                searchKey: unescape(f[6]))
            row.fileStamp = FileStamp(f[4])
            let repairs = unescape(f[7])
            row.repairs = repairs.isEmpty ? [] : repairs.split(separator: "\n").map(String.init)
            rows.append(row)
        }
        return rows
    }

    // Works on scalars, not Characters: "\r\n" is one Character and would slip past a
    // Character comparison with "\n".
    static func escape(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\\" || $0 == "\r" }) else {
            return s
        }
        var out = String.UnicodeScalarView()
        for c in s.unicodeScalars {
            switch c {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            default: out.append(c)
            }
        }
        return String(out)
    }

    static func unescape(_ s: Substring) -> String {
        guard s.unicodeScalars.contains("\\") else { return String(s) }
        var out = String.UnicodeScalarView()
        var escaped = false
        for c in s.unicodeScalars {
            if escaped {
                switch c {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return String(out)
    }
}

import ArgumentParser
import BoundedJSON
import CLISupport
import CivilDates
import Foundation
import SharedStore
import WidgetDesign

extension StoreOption {
    /// The design library in this store; its warnings go to standard error.
    var library: DesignLibrary {
        DesignLibrary(root: root, warn: { printWarning($0) })
    }
}

/// A program installed beside this weaver (`weaver-desktop`, `weaver-serve`), which weaver execs.
func programBesideWeaver(_ name: String) -> URL {
    let exe =
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name)
}

func printWarning(_ message: String) {
    FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
}

/// Pro from the store's entitlement; a pro.json that had to be set aside is reported on stderr.
func isProUnlocked(_ root: StoreRoot) -> Bool {
    let entitlement = ProEntitlement.isUnlocked(root)
    entitlement.warnings.forEach(printWarning)
    return entitlement.isUnlocked
}

func printJSON(_ value: JSONValue) {
    FileHandle.standardOutput.write(value.prettyPrinted())
}

/// Local time, minutes: what a person reads in a listing.
func displayDate(_ date: Date) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.dateFormat = "yyyy-MM-dd HH:mm"
    return f.string(from: date)
}

func summaryJSON(_ row: DesignSummary, defaultID: UUID?) -> JSONValue {
    .object([
        "id": .string(row.id.uuidString), "name": .string(row.name), "template": .string(row.template.rawValue),
        "updatedAt": .string(ISODate.format(row.updatedAt)), "hasImage": .bool(row.hasImage),
        "isDefault": .bool(row.id == defaultID), "repairs": .array(row.repairs.map { .string($0) }),
    ])
}

/// Pads to a display width, so columns line up for names with accents.
func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

func clip(_ s: String, _ width: Int) -> String {
    let oneLine = s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " ")
    return oneLine.count <= width ? oneLine : String(oneLine.prefix(width - 1)) + "…"
}

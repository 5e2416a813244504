import ArgumentParser
import CLISupport
import Foundation
import ShareLinks
import SystemCalls
import WidgetDesign

#if canImport(Glibc)
    import Glibc
#endif

extension Weaver {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import designs from a .wwdesign package, a JSON array of designs, or one design.",
            usage: "weaver import <file> [--select <select>] [--all] [--none] [<options>]",
            discussion: HelpText.prose(
                """
                Shows the Import Review first. On a terminal it asks which designs to import; otherwise it \
                follows --select/--all/--none, or the default: everything with Pro, or on the free tier the \
                newest designs up to the free slots left. Imported designs get new IDs and, like the seed app \
                does, the import time as their last-updated date (--keep-dates keeps the file's dates); \
                nothing is overwritten; a failed import writes nothing. FILE '-' reads standard input \
                (at most 64 MB).
                """)
        )
        @OptionGroup var store: StoreOption
        @Argument(help: "The file to import, - for standard input, or a share link from 'weaver share'.")
        var file: String
        @Option(help: "Design numbers to import, e.g. 1,3 or 2-4.") var select: String?
        @Flag(help: "Import every design in the file.") var all = false
        @Flag(help: "Import nothing (review only).") var none = false
        @Flag(help: "Show the review and what would be imported; write nothing.") var dryRun = false
        @Flag(help: "Keep each design's last-updated date from the file instead of stamping the import time.")
        var keepDates = false

        func validate() throws {
            if [select != nil, all, none].filter({ $0 }).count > 1 {
                throw ValidationError("use only one of '--select', '--all' and '--none'")
            }
        }

        func run() throws {
            let lib = store.library
            let package =
                try file == "-"
                ? Self.readStandardInput()
                : Self.isShareLink(file)
                    ? Self.readLink(file) : DesignExchange.read(url: URL(fileURLWithPath: file), now: Date())
            for f in package.findings { printWarning("\(package.fileName): \(f)") }
            for n in package.notes { printWarning("\(package.fileName): \(n)") }
            let existing = try lib.summaries()
            let review = ImportReview(
                package: package, isPro: lib.isPro, existingCount: existing.count,
                library: existing.compactMap { try? lib.load($0.id) })

            let selection: [Int]
            if let select {
                selection = try review.parseSelection(select)
            } else if all {
                selection = try review.resolve(.all)
            } else if none {
                selection = []
            } else if file != "-" && isatty(0) == 1 && isatty(1) == 1 {
                FileHandle.standardOutput.write(Data(review.render().utf8))
                selection = try ask(review)
            } else {
                selection = review.defaultSelection
            }
            if !(file != "-" && isatty(0) == 1 && isatty(1) == 1 && select == nil && !all && !none) {
                FileHandle.standardOutput.write(Data(review.render(selected: selection).utf8))
            }
            if dryRun {
                print(
                    """
                    Dry run: would import \(selection.count) design\(selection.count == 1 ? "" : "s") \
                    (\(selection.map(String.init).joined(separator: ","))); nothing was written.
                    """
                )
                return
            }
            let result = try DesignImporter(library: lib).importDesigns(
                package, selection: selection, stampedAt: keepDates ? nil : Date())
            for s in result.imported { print("  + \(s.name) (\(s.id.uuidString))") }
            print(
                ImportReview.summary(imported: result.imported.count, skipped: result.skippedCount)
                    + (result.imagesWritten.isEmpty
                        ? ""
                        : " Stored \(result.imagesWritten.count) image\(result.imagesWritten.count == 1 ? "" : "s")."))
        }

        /// A share link rather than a file: what `weaver share` prints (a file of that name still wins).
        static func isShareLink(_ text: String) -> Bool {
            !FileManager.default.fileExists(atPath: text) && (text.contains("#ww") || text.hasPrefix("ww1."))
        }

        static func readLink(_ text: String) throws -> ExchangePackage {
            let link = try ShareLink.read(text)
            guard link.kind == .design else {
                throw DesignError(
                    "the link carries a \(link.kind.rawValue), not a design; play it with 'noise play --link'")
            }
            return try DesignExchange.parse(Data(link.json), fileName: "the link", now: Date())
        }

        /// Standard input, bounded like a file: more than the package limit is refused unread.
        static func readStandardInput(limits: DesignExchange.Limits = DesignExchange.Limits()) throws -> ExchangePackage
        {
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw in retryOnInterrupt { read(0, raw.baseAddress!, raw.count) }
                }
                if n < 0 { throw DesignError("standard input: \(SystemCallError.reason(errno))") }
                if n == 0 { break }
                data.append(contentsOf: buffer[0..<n])
                guard data.count <= limits.maxFileBytes else {
                    throw DesignError(
                        """
                        standard input: more than \(limits.maxFileBytes) bytes; the limit is \
                        \(limits.maxFileBytes) bytes
                        """
                    )
                }
            }
            guard !data.isEmpty else {
                throw DesignError(
                    "standard input: empty; expected a .wwdesign package, an array of designs or one design")
            }
            do {
                return try DesignExchange.parse(data, fileName: "standard input", now: Date(), limits: limits)
            } catch let e as DesignError {
                throw DesignError("standard input: \(e.message)")
            }
        }

        func ask(_ review: ImportReview) throws -> [Int] {
            let def = review.defaultSelection.map(String.init).joined(separator: ",")
            while true {
                print(
                    """
                    Import which designs? [Enter = \(def.isEmpty ? "none" : def); 'select all'; 'select none'; \
                    numbers like 1,3]:\u{20}
                    """,
                    terminator: "")
                fflush(nil)
                guard let line = readLine() else { throw DesignError("no answer; nothing was imported") }
                do {
                    return try review.parseSelection(line)
                } catch let e as DesignError {
                    print(e.message)
                }
            }
        }
    }
}

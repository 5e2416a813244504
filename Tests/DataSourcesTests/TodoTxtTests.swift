import Foundation
import TestSupport
import Testing

@testable import DataSources

@Suite("todo.txt format")
struct TodoTxtTests {
    @Test func everyElementOfTheFormat() throws {
        let data = DataFixtures.data("todo.txt")
        let file = try TodoTxtFile.parse(data)
        #expect(file.items.count == 9 && file.lineCount == 9)
        let dentist = file.items[0]
        #expect(dentist.line == 1 && !dentist.isDone && dentist.priority == "A" && dentist.priorityNumber == 1)
        #expect(dentist.creationDate == "2026-01-20" && dentist.completionDate == nil)
        #expect(
            dentist.title == "Call the dentist about the crown" && dentist.projects == ["Health"]
                && dentist.contexts == ["phone"])
        #expect(dentist.dueDate == "2026-01-24")
        let insurance = file.items[1]
        #expect(insurance.priority == "B" && insurance.creationDate == nil && insurance.dueDate == "2026-01-22")
        #expect(insurance.extensions.map(\.key) == ["t"] && insurance.extensions.map(\.value) == ["2026-01-15"])
        let milk = file.items[2]
        #expect(
            milk.priority == nil && milk.creationDate == "2026-01-18" && milk.contexts == ["shop"]
                && milk.projects == ["Groceries"])
        let tax = file.items[3]
        // Done: both dates; the priority it had lives on as pri:C.
        #expect(
            tax.isDone && tax.completionDate == "2026-01-23" && tax.creationDate == "2026-01-19" && tax.priority == "C")
        #expect(tax.title == "Send the tax form")
        let books = file.items[4]
        #expect(books.isDone && books.completionDate == "2026-01-21" && books.creationDate == nil && books.line == 5)
        // The blank line 6 is skipped, and counts as a line.
        let train = file.items[5]
        #expect(
            train.line == 7 && train.priority == "C" && train.dueDate == "2026-01-29" && train.contexts == ["laptop"])
        // A link is words, not a key:value extension.
        #expect(
            file.items[6].title == "Look at https://example.com/recipe for Sunday" && file.items[6].extensions.isEmpty)
        #expect(file.items[7].extensions.map(\.key) == ["rec"] && file.items[7].dueDate == "2026-01-25")
        // "(a)" is not a priority and 30 February is not a date.
        let lower = file.items[8]
        #expect(lower.priority == nil && lower.title == "(a) lower-case is not a priority" && lower.dueDate == nil)
        #expect(file.warnings == ["line 10: due:2026-02-30 is not a YYYY-MM-DD date; ignored"])
        // Byte ranges cover each line without its end.
        let text = [UInt8](data)
        #expect(
            String(decoding: text[train.byteRange], as: UTF8.self)
                == "(C) Book train tickets to Cork +Travel @laptop due:2026-01-29")
    }

    @Test func crlfLinesAndAFinalLineWithoutAnEnd() throws {
        let file = try TodoTxtFile.parse(Data("(B) One +p\r\nx 2026-01-01 Two\r\nThree".utf8))
        #expect(file.items.map(\.title) == ["One", "Two", "Three"])
        #expect(file.items[0].byteRange == 0..<10 && file.items[2].byteRange == 30..<35)
    }

    /// Hostile files: too big, binary, overlong lines and invalid UTF-8 are refused or skipped
    /// with the line named; the item count is capped.
    @Test func hostileFilesAreBounded() throws {
        var limits = TodoTxtLimits()
        limits.maxFileBytes = 1_000
        #expect(throws: DataSourceError.self) {
            _ = try TodoTxtFile.parse(Data(repeating: 65, count: 1_001), limits: limits)
        }
        do {
            _ = try TodoTxtFile.parse(Data("one\ntwo\nthr\u{0}ee\n".utf8))
            Issue.record("a NUL byte was accepted")
        } catch let e as DataSourceError {
            #expect(e.description == "line 3: a NUL byte; this is not a todo.txt (text) file")
        }
        var small = TodoTxtLimits()
        small.maxLineBytes = 20
        small.maxItems = 2
        var bytes = Array("ok one\n".utf8) + Array(String(repeating: "x", count: 30).utf8) + [10]
        bytes += [0x62, 0xFF, 0xFE, 10] + Array("ok two\nok three\nok four\n".utf8)
        let file = try TodoTxtFile.parse(Data(bytes), limits: small)
        #expect(file.items.map(\.title) == ["ok one", "ok two"] && file.lineCount == 6)
        #expect(
            file.warnings == [
                "line 2: 30 bytes, longer than 20; skipped", "line 3: not UTF-8 text; skipped",
                "6 tasks; only the first 2 are read",
            ])
    }
}

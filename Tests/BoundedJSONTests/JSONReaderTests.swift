import BoundedJSON
import CivilDates
import Foundation
import SharedStore
import Testing

/// The one strict reader, its one error type, decoding from the parsed tree and the one ISO 8601 type.
@Suite struct JSONReaderTests {
    @Test func aFailureNamesTheDocumentPathValueAndRange() throws {
        let doc = try JSONReader.parse(
            Data(#"{"layers":[{},{},{"lowCutHz":5,"name":"pink"}]}"#.utf8), document: "night.json")
        let layer = try doc.required("layers").array(maxCount: 8)[2]
        #expect(throws: JSONFieldError.self) { _ = try layer.required("lowCutHz").number(in: 10...20_000) }
        do {
            _ = try layer.required("lowCutHz").number(in: 10...20_000)
        } catch let e as JSONFieldError {
            #expect(e.path == "layers[2].lowCutHz")
            #expect(e.value == "5")
            #expect(e.allowedRange == 10...20_000)
            #expect(e.description == "night.json: layers[2].lowCutHz: 5 is outside 10…20000")
        }
        do {
            _ = try layer.required("name").number()
        } catch let e as JSONFieldError {
            #expect(
                e.description == "night.json: layers[2].name: expected a number, found string" && e.value == "\"pink\"")
        }
        do {
            _ = try layer.required("highCutHz")
        } catch let e as JSONFieldError {
            #expect(e.description == "night.json: layers[2].highCutHz: missing" && e.value == nil)
        }
        do {
            _ = try JSONReader.parse(Data(#"{"a":1,"a":2}"#.utf8), document: "x")
            Issue.record("a duplicate key was accepted")
        } catch let e as JSONFieldError {
            #expect(e.path == "(top level)" && e.reason.contains("duplicate key"), "\(e)")
        }
    }

    struct Status: Codable, Equatable {
        struct Layer: Codable, Equatable {
            var volume: Double
            var colour: Float
            var enabled: Bool
        }
        var state: String
        var pid: Int32
        var layers: [Layer]
        var timerEndsAt: Date?
        var updatedAt: Date
    }

    @Test func decodingFromTheTreeMatchesJSONDecoder() throws {
        let text =
            #"""
            {"state":"playing","pid":4242,"layers":[{"volume":0.5,"colour":1.25,"enabled":true}],"timerEndsAt":null,\#
            "updatedAt":"2026-01-24T09:30:00Z"}
            """#
        let fromTree = try JSONValueDecoder.decode(Status.self, from: try JSONValue.parse(Data(text.utf8)))
        let d = JSONDecoder()
        d.dateDecodingStrategy = ISODate.decodingStrategy
        #expect(fromTree == (try d.decode(Status.self, from: Data(text.utf8))))
        #expect(fromTree.updatedAt == Date(timeIntervalSince1970: 1_769_247_000))

        // Failures carry the coding path, as JSONDecoder's do, so the store's messages name the field.
        func failure(_ text: String) -> String {
            do {
                _ = try JSONValueDecoder.decode(Status.self, from: try JSONValue.parse(Data(text.utf8)))
                return "decoded"
            } catch { return JSONDocument<Status>.describe(error) }
        }
        #expect(
            failure(text.replacingOccurrences(of: #""volume":0.5"#, with: #""volume":"loud""#))
                == "layers[0].volume: expected Double")
        #expect(
            failure(text.replacingOccurrences(of: #""pid":4242"#, with: #""pid":1.5"#)).hasPrefix(
                "pid: Parsed JSON number <1.5> does not fit in Int32"))
        #expect(failure(text.replacingOccurrences(of: #""state":"playing","#, with: "")) == "state: missing")
        #expect(
            failure(text.replacingOccurrences(of: "2026-01-24T09:30:00Z", with: "yesterday"))
                == "updatedAt: Expected date string to be ISO8601-formatted.")
    }

    @Test func isoDatesRoundTripAndTheCoderStrategiesUseTheSameText() throws {
        let at = Date(timeIntervalSince1970: 1_769_247_000)
        #expect(ISODate.format(at) == "2026-01-24T09:30:00Z")
        #expect(ISODate.parse("2026-01-24T10:30:00+01:00") == at)
        #expect(ISODate.parse("2026-01-24T09:30:00.250Z") == at.addingTimeInterval(0.25))
        #expect(ISODate.parse("2026-01-24 09:30") == nil)
        let e = JSONEncoder()
        e.dateEncodingStrategy = ISODate.encodingStrategy
        #expect(String(decoding: try e.encode([at]), as: UTF8.self) == #"["2026-01-24T09:30:00Z"]"#)
    }

    /// `1e400` parses (JSON has no limit on exponents) but only as infinity: the failure says the
    /// number is too large, with the range the caller gave, rather than "expected a number, found number".
    @Test func aNumberTooLargeForADoubleIsSaidToBeTooLarge() throws {
        let doc = try JSONReader.parse(
            Data(#"{"change":{"volume":1e400,"layer":-1e400,"hz":1e400}}"#.utf8), document: "request")
        let change = try doc.required("change")
        do {
            _ = try change.required("volume").number(in: 0...1)
            Issue.record("1e400 was read as a number")
        } catch {
            #expect(error.problem == .tooLarge && error.path == "change.volume" && error.allowedRange == 0...1)
            #expect(error.description == "request: change.volume: too large a number (beyond ±1.8e308); allowed 0…1")
            #expect(error.value == "a number above 1.8e308" && error.foundType == "number")
        }
        do {
            _ = try change.required("layer").wholeNumber(in: 0...3)
            Issue.record("-1e400 was read as a whole number")
        } catch {
            #expect(error.problem == .tooLarge)
            #expect(error.description == "request: change.layer: too large a number (beyond ±1.8e308); allowed 0…3")
            #expect(error.value == "a number below -1.8e308")
        }
        do {
            _ = try change.required("hz").number()
            Issue.record("1e400 was read as a number")
        } catch {
            #expect(error.problem == .tooLarge && error.allowedRange == nil)
            #expect(error.description == "request: change.hz: too large a number (beyond ±1.8e308)")
        }
    }

    /// Members taken one by one: leftovers are refused by path, and each failure says what kind
    /// it is so a reader with its own wording (the control socket) can word it.
    @Test func membersRefuseWhatNobodyTookAndFailuresSayTheirKind() throws {
        let doc = try JSONReader.parse(
            Data(#"{"layer":1.5,"change":{"volume":2,"zz":1,"muted":"yes"}}"#.utf8), document: "request")
        var top = try JSONMembers(doc)
        do {
            _ = try top.takeRequired("layer").wholeNumber(in: 0...3)
            Issue.record("1.5 was taken as a whole number")
        } catch {
            #expect(error.problem == .notWhole && error.path == "layer")
        }
        do {
            _ = try top.takeRequired("missing")
            Issue.record("a missing member was found")
        } catch {
            #expect(error.problem == .missing && error.path == "missing")
        }
        let changeReader = top.take("change")
        var change = try JSONMembers(try #require(changeReader))
        do {
            _ = try change.takeRequired("volume").number(in: 0...1)
            Issue.record("2 was inside 0…1")
        } catch {
            #expect(error.problem == .outOfRange && error.path == "change.volume" && error.allowedRange == 0...1)
            #expect(error.value == "2")
        }
        do {
            _ = try change.takeRequired("muted").bool()
            Issue.record("a string was taken as a boolean")
        } catch {
            #expect(error.problem == .wrongType(expected: "true or false") && error.foundType == "string")
        }
        do {
            try change.refuseRest()
            Issue.record("an unknown member was accepted")
        } catch {
            #expect(error.problem == .unknownField && error.path == "change.zz")
        }
        try top.refuseRest()
    }

    /// Milliseconds are truncated, never rounded into the next second (what `__iso` shows).
    @Test func isoDateWithMillisecondsTruncates() {
        let at = Date(timeIntervalSince1970: 1_769_247_000.2509)
        #expect(ISODate.format(at, fractionalSeconds: true) == "2026-01-24T09:30:00.250Z")
        #expect(ISODate.format(at, fractionalSeconds: false) == "2026-01-24T09:30:00Z")
        #expect(
            ISODate.format(Date(timeIntervalSince1970: 59.9999), fractionalSeconds: true) == "1970-01-01T00:00:59.999Z")
    }
}

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
            #"{"state":"playing","pid":4242,"layers":[{"volume":0.5,"colour":1.25,"enabled":true}],"timerEndsAt":null,"updatedAt":"2026-01-24T09:30:00Z"}"#
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
}

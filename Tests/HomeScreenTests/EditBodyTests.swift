import Foundation
import Testing

@testable import HomeScreen

/// The Editor's edit body, `{"field", "value"}` or `{"edits": [...]}`, read by the shared request
/// reader: at most `maximumEditsAtOnce` edits, all or nothing.
@Suite struct EditBodyTests {
    func edits(_ json: String) -> [String]? {
        DesignAPIRoutes.edits(Data(json.utf8))?.map { "\($0.field)=\($0.value)" }
    }

    @Test func oneEditOrAListOfThem() {
        #expect(edits(#"{"field":"style.padding","value":"8"}"#) == ["style.padding=8"])
        #expect(
            edits(
                #"{"edits":[{"field":"image.crop.small.x","value":"0.5"},{"field":"image.crop.small.y","value":"0"}]}"#)
                == ["image.crop.small.x=0.5", "image.crop.small.y=0"])
        let eight = Array(repeating: #"{"field":"a","value":"1"}"#, count: DesignAPIRoutes.maximumEditsAtOnce)
        #expect(edits(#"{"edits":[\#(eight.joined(separator: ","))]}"#)?.count == 8)
    }

    @Test func anythingElseIsRefusedWhole() {
        let nine = Array(repeating: #"{"field":"a","value":"1"}"#, count: DesignAPIRoutes.maximumEditsAtOnce + 1)
        for body in [
            #"{"edits":[\#(nine.joined(separator: ","))]}"#,
            #"{"edits":[]}"#,
            #"{"edits":null}"#,
            #"{"edits":{"field":"a","value":"1"}}"#,
            #"{"edits":[{"field":"a","value":"1"}],"field":"b","value":"2"}"#,
            #"{"edits":[{"field":"a","value":"1"},{"field":"b","value":2}]}"#,
            #"{"edits":[{"field":"a","value":"1"},{"field":"b"}]}"#,
            #"{"edits":[{"field":"a","value":"1","extra":true}]}"#,
            #"{"edits":[{"field":"a","value":"1"},"b=2"]}"#,
            #"{"field":"a"}"#,
            #"{"field":"a","value":null}"#,
            #"{"field":"a","value":1}"#,
            #"{"field":"a","value":"1","extra":1}"#,
            #"{}"#,
            #"[{"field":"a","value":"1"}]"#,
            #"{"field":"a","value":"1""#,
        ] {
            #expect(edits(body) == nil, "\(body)")
        }
    }

    /// The variables a tried button may see (`X-WidgetWeaver-Try`, or `trial` in a try body).
    @Test func triedVariablesAreFewShortStrings() {
        func header(_ json: String) -> [String: String]? {
            DesignAPIRoutes.trialVariables(json.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        }
        #expect(DesignAPIRoutes.trialVariables(nil) == [:] && DesignAPIRoutes.trialVariables("") == [:])
        #expect(header(#"{"count":"3","name":"x"}"#) == ["count": "3", "name": "x"])
        #expect(header("{}") == [:])
        let sixteen = (0..<DesignAPIRoutes.maximumTrialVariables).map { #""k\#($0)":"v""# }
        #expect(header("{\(sixteen.joined(separator: ","))}")?.count == DesignAPIRoutes.maximumTrialVariables)
        for refused in [
            "{\((sixteen + [#""k16":"v""#]).joined(separator: ","))}",
            #"{"\#(String(repeating: "k", count: 129))":"v"}"#,
            #"{"k":"\#(String(repeating: "v", count: 257))"}"#,
            #"{"k":3}"#, #"{"k":null}"#, #"{"k":{"a":"b"}}"#, #"["k"]"#, "null", #"{"k":"v""#,
        ] {
            #expect(header(refused) == nil, "\(refused.prefix(60))")
        }
    }
}

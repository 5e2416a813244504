import Foundation
import WidgetDesign

// libFuzzer entry: every input goes through the import parser with tight limits, so a hang,
// crash or unbounded allocation in the JSON parser, tolerant decoder or image checks shows up.
// Errors are expected (most inputs are not valid packages); only crashes count.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesignImport(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    var limits = DesignExchange.Limits()
    limits.maxFileBytes = 1 << 20
    limits.maxSpecs = 200
    limits.maxImages = 20
    if let package = try? DesignExchange.parse(
        data, fileName: "fuzz.wwdesign", now: Date(timeIntervalSince1970: 0), limits: limits)
    {
        // What import does next: review, then re-encode every design and decode it again cleanly.
        let review = ImportReview(package: package, isPro: false, existingCount: 1)
        _ = review.render()
        _ = try? review.parseSelection("1,2")
        for spec in package.specs {
            let again = try? WidgetSpec.decode(spec.encoded(), fallbackDate: Date(timeIntervalSince1970: 0))
            precondition(again?.0 == spec, "re-encoding changed a design")
            precondition(again?.1.isEmpty == true, "a re-encoded design has findings")
        }
    }
    return 0
}

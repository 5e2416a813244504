/// Numbers as the tables write them: whole numbers without a decimal point (`32`, not `32.0`).
public enum FieldFormat {
    public static func number(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }

    /// `0…32`
    public static func range(_ r: ClosedRange<Double>) -> String { "\(number(r.lowerBound))…\(number(r.upperBound))" }
}

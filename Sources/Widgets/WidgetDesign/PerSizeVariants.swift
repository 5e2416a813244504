/// What a design keeps per widget size (a matched set's variants, a Smart Photo's renders): an
/// optional value for each of small, medium and large, reached by family through one switch.
public protocol PerSizeVariants {
    associatedtype Variant
    var small: Variant? { get set }
    var medium: Variant? { get set }
    var large: Variant? { get set }
}

extension PerSizeVariants {
    public func variant(for family: DesignSizeFamily) -> Variant? { self[keyPath: Self.slot(family)] }

    mutating func setVariant(_ variant: Variant?, for family: DesignSizeFamily) {
        self[keyPath: Self.slot(family)] = variant
    }

    private static func slot(_ family: DesignSizeFamily) -> WritableKeyPath<Self, Variant?> {
        switch family {
        case .small: \.small
        case .medium: \.medium
        case .large: \.large
        }
    }
}

extension MatchedSet: PerSizeVariants {}
extension SmartPhotoSpec: PerSizeVariants {}

import FieldTable
import Foundation

/// What setting a per-size field does: the Smart Photo crop of each size and the matched set's
/// variants (`DesignFields.cropFields`, `DesignFields.matchedSetFields`).
extension DesignEditor {
    static let cropFields: [Field] = DesignFields.cropFields.map { spec in
        let parts = spec.key.split(separator: ".").map(String.init)  // image.crop.FAMILY.PART
        let family = DesignSizeFamily(rawValue: parts[2])!
        let part = parts[3]
        return Field(spec: spec) { s, v, f in
            let value = try number(v, f)
            try withCrop(&s, family) { rect in
                switch part {
                case "x": rect.x = value
                case "y": rect.y = value
                case "width": rect.width = value
                default: rect.height = value
                }
            }
        }
    }

    /// The crop of `family`'s Smart Photo render. A design with a plain image gets a Smart Photo
    /// whose master is that image; the edited size's render is the master itself, which tells the
    /// renderer to crop the master (a render the app prepared no longer matches the new crop).
    static func withCrop(
        _ s: inout WidgetSpec, _ family: DesignSizeFamily, _ body: (inout NormalisedRect) throws -> Void
    ) throws {
        let preparedAt = s.updatedAt
        try withImage(&s) { img in
            var smart = img.smartPhoto ?? SmartPhotoSpec(masterFileName: img.fileName, preparedAt: preparedAt)
            var variant =
                smart.variant(for: family)
                ?? SmartPhotoVariant(
                    renderFileName: smart.masterFileName, cropRect: .full, pixelSize: SmartPhotoSpec.renderSize(family))
            try body(&variant.cropRect)
            variant.renderFileName = smart.masterFileName
            smart.setVariant(variant, for: family)
            img.smartPhoto = smart
        }
    }

    static let matchedSetFields: [Field] = DesignFields.matchedSetFields.map { spec in
        let parts = spec.key.split(separator: ".").map(String.init)  // matchedSet.FAMILY[.PART…]
        let family = DesignSizeFamily(rawValue: parts[1])!
        let part = parts.dropFirst(2).joined(separator: ".")
        return Field(spec: spec) { s, v, f in
            switch part {
            case "":
                if try boolean(v, f) {
                    try withVariant(&s, family) { _ in }
                } else {
                    s.matchedSet?.setVariant(nil, for: family)
                    if s.matchedSet?.isEmpty == true { s.matchedSet = nil }
                }
            case "primaryText":
                let text = try text(v, f)
                try withVariant(&s, family) { $0.primaryText = text }
            case "secondaryText":
                let text = try text(v, f)
                try withVariant(&s, family) { $0.secondaryText = text.isEmpty ? nil : text }
            case "symbol":
                let name = try text(v.trimmingCharacters(in: .whitespaces), f)
                let base = s.symbol
                try withVariant(&s, family) { variant in
                    if name.isEmpty {
                        variant.symbol = nil
                    } else if variant.symbol == nil {
                        var symbol = base ?? SymbolSpec(name: name)
                        symbol.name = name
                        variant.symbol = symbol
                    } else {
                        variant.symbol?.name = name
                    }
                }
            case "image":
                let t = v.trimmingCharacters(in: .whitespaces)
                guard t.isEmpty || ImageSanitiser.sanitisedFileName(t) == t else {
                    throw DesignError(
                        "'\(t)' is not a bare file name (letters, digits, '.', '-', '_', space; no paths)")
                }
                let base = s.image
                try withVariant(&s, family) { variant in
                    if t.isEmpty {
                        variant.image = nil
                    } else if variant.image?.fileName != t {
                        // The design's image settings (fit, height, corners, filter), with this picture.
                        var image = base ?? ImageSpec(fileName: t)
                        image.fileName = t
                        image.smartPhoto = nil
                        variant.image = image
                    }
                }
            default:
                let template = try layoutTemplate(v)
                try withVariant(&s, family) { $0.layout.template = template }
            }
        }
    }

    /// `family`'s variant, made from the design's texts, symbol, image and layout when it has none.
    static func withVariant(
        _ s: inout WidgetSpec, _ family: DesignSizeFamily, _ body: (inout SpecVariant) throws -> Void
    )
        throws
    {
        var set = s.matchedSet ?? MatchedSet()
        var variant =
            set.variant(for: family)
            ?? SpecVariant(
                primaryText: s.primaryText, secondaryText: s.secondaryText, symbol: s.symbol, image: s.image,
                layout: s.layout)
        try body(&variant)
        set.setVariant(variant, for: family)
        s.matchedSet = set
    }
}

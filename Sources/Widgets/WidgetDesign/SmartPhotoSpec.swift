import Foundation

/// Fractions of a picture's width and height (0…1): the unit of `NormalisedRect`.
public enum ImageFraction {}

/// A rectangle in 0…1 image space, origin top-left (the seed app's `NormalisedRect`).
public typealias NormalisedRect = Rectangle<ImageFraction>

extension NormalisedRect {
    public static let full = NormalisedRect(x: 0, y: 0, width: 1, height: 1)

    /// The seed app trims a rectangle that runs past the image and never lets it be empty. (A
    /// rectangle already trimmed to the 0.0001 minimum at the edge, or ending at 1 within rounding,
    /// is accepted as is, so reading what we wrote finds nothing.)
    public var needsTrimming: Bool {
        let overX = x + width > 1 + 1e-9 && width > 0.0001
        let overY = y + height > 1 + 1e-9 && height > 0.0001
        return overX || overY || width == 0 || height == 0
    }

    /// Trimmed to the image, at least 0.0001 wide and tall.
    public var trimmedToImage: NormalisedRect {
        NormalisedRect(
            x: x, y: y, width: max(min(width, 1 - x), 0.0001), height: max(min(height, 1 - y), 0.0001))
    }
}

public struct PixelSize: Sendable, Hashable {
    /// At least 1.
    public var width: Int
    public var height: Int
}

/// One prepared per-size render of a Smart Photo: an image file in the store's `images/` folder
/// cropped from the master at `cropRect`, `pixelSize` pixels.
///
/// `rotationQuarterTurns` turns the master clockwise first, in quarter turns, and `cropRect` is in
/// the turned picture; `straightenDegrees` then turns the picture clockwise about the crop's
/// centre. (GUESS at the app's order; the app writes both beside `cropRect`.) Both are optional:
/// older versions of the app do not write them, and what was absent is written absent again.
public struct SmartPhotoVariant: Sendable, Hashable {
    public var renderFileName: String
    public var cropRect: NormalisedRect
    public var pixelSize: PixelSize
    public var straightenDegrees: Double?
    public var rotationQuarterTurns: Int?

    /// Quarter turns clockwise, 0…3.
    public var quarterTurns: Int { (((rotationQuarterTurns ?? 0) % 4) + 4) % 4 }
}

/// The widget size a render is for.
public enum DesignSizeFamily: String, Sendable, Hashable, CaseIterable {
    case small, medium, large
}

/// `image.smartPhoto`: the seed app's auto-cropped photo, a master image plus one prepared
/// render per widget size. All of its files live in `images/` and travel with the design in a
/// `.wwdesign` package. `shuffleManifestFileName` names the seed app's shuffle manifest (kept so
/// the phone finds it again; the exchange format does not carry the manifest itself).
public struct SmartPhotoSpec: Sendable, Hashable {
    public var masterFileName: String
    public var small: SmartPhotoVariant?
    public var medium: SmartPhotoVariant?
    public var large: SmartPhotoVariant?
    public var algorithmVersion = 1
    public var preparedAt: Date
    public var shuffleManifestFileName: String?

    /// Each size's crop trimmed to the image when it runs past it (the decoder's rule).
    mutating func trimCrops() {
        for family in DesignSizeFamily.allCases {
            guard var v = variant(for: family), v.cropRect.needsTrimming else { continue }
            v.cropRect = v.cropRect.trimmedToImage
            setVariant(v, for: family)
        }
    }

    /// The pixel size of a render made here: the family's size in points at 2× (the app writes
    /// the size it prepared; nothing here draws by it).
    static func renderSize(_ family: DesignSizeFamily) -> PixelSize {
        switch family {
        case .small: PixelSize(width: 340, height: 340)
        case .medium: PixelSize(width: 728, height: 340)
        case .large: PixelSize(width: 728, height: 764)
        }
    }

    /// Master first, then small, medium, large renders.
    public var fileNames: [String] {
        [masterFileName] + [small, medium, large].compactMap { $0?.renderFileName }
    }

    mutating func renameFiles(_ map: [String: String]) {
        if let n = map[masterFileName] { masterFileName = n }
        for kp in [\SmartPhotoSpec.small, \SmartPhotoSpec.medium, \SmartPhotoSpec.large] {
            if let f = self[keyPath: kp]?.renderFileName, let n = map[f] { self[keyPath: kp]?.renderFileName = n }
        }
    }
}

extension ImageSpec {
    /// The file to draw at `family`: the Smart Photo render for that size when there is one,
    /// else the base image (as the seed app's `fileNameForFamily`).
    public func fileName(for family: DesignSizeFamily) -> String {
        smartPhoto?.variant(for: family)?.renderFileName ?? fileName
    }

    /// Base image, Smart Photo master and renders, without duplicates, in that order.
    public var allFileNames: [String] {
        var seen = Set<String>()
        return ([fileName] + (smartPhoto?.fileNames ?? [])).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

import Foundation
import WidgetDesign
import WidgetInputs
import WidgetRender

/// Import Review's pictures: the design as the import would store it, with its embedded images.
extension RenderedBoard {
    public func renderReview(_ spec: WidgetSpec, family name: String, embeddedImages: [String: Data], now: Date) throws
        -> DraftRender
    {
        let family = try self.family(name)
        var inputs = RenderInputs.gather(
            for: spec, root: root, now: now, timeZone: .current, locale: Locale.current, appearance: appearance,
            extraVariables: [])
        // The file's own pictures, not the store's: a store image of the same name may be another
        // picture, and one the file brings is not in the store yet. `DesignExchange.parse` checked
        // each (format, bytes) as import does; decoding applies the renderer's pixel cap, as it
        // does to a stored image.
        for fileName in spec.referencedImageFileNames {
            guard let data = embeddedImages[fileName] else { continue }
            do {
                inputs.images[fileName] = try DesignImages.decode(data, name: fileName)
                inputs.imageFailures[fileName] = nil
            } catch {
                inputs.images[fileName] = nil
                inputs.imageFailures[fileName] = "\(error)"
            }
        }
        return try Self.draftRenderers.with { r in
            let layout = r.layout(design: spec, family: family, scale: 2, inputs: inputs)
            return DraftRender(
                bytes: try r.render(layout, format: .svg, images: inputs.images), warnings: layout.warnings, buttons: []
            )
        }
    }
}

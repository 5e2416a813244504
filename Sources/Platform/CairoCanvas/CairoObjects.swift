import CCairo

// The one Cairo wrapper (the widget renderer, the spectrum chart, the share QR code): surfaces and
// contexts owned by Swift objects, so none is leaked on a thrown error, and Cairo's status checked
// the same way everywhere.

/// An error from Cairo, naming the call and Cairo's own description (also the renderer's other
/// drawing errors: a PNG that cannot be encoded, an image that cannot be decoded).
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }

    public static func check(_ status: cairo_status_t, _ call: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw RenderError("\(call) failed: \(String(cString: cairo_status_to_string(status)))")
    }
}

/// Owns a `cairo_surface_t`.
public final class CairoSurface: @unchecked Sendable {
    public let pointer: OpaquePointer

    public init(owning pointer: OpaquePointer, call: String) throws {
        self.pointer = pointer
        try RenderError.check(cairo_surface_status(pointer), call)
    }

    deinit { cairo_surface_destroy(pointer) }

    public var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    public var height: Int { Int(cairo_image_surface_get_height(pointer)) }
}

/// Owns a `cairo_t`.
public final class CairoContext {
    public let pointer: OpaquePointer

    public init(surface: CairoSurface) throws {
        pointer = cairo_create(surface.pointer)
        try RenderError.check(cairo_status(pointer), "cairo_create")
    }

    deinit { cairo_destroy(pointer) }

    public func check(_ call: String) throws { try RenderError.check(cairo_status(pointer), call) }
}

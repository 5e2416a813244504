import CCairo

/// An error from Cairo, naming the call and Cairo's own description.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }

    static func check(_ status: cairo_status_t, _ call: String) throws {
        guard status != CAIRO_STATUS_SUCCESS else { return }
        throw RenderError("\(call) failed: \(String(cString: cairo_status_to_string(status)))")
    }
}

/// Owns a `cairo_surface_t`.
public final class CairoSurface: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer, call: String) throws {
        self.pointer = pointer
        try RenderError.check(cairo_surface_status(pointer), call)
    }

    deinit { cairo_surface_destroy(pointer) }

    var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    var height: Int { Int(cairo_image_surface_get_height(pointer)) }
}

/// Owns a `cairo_t`.
final class CairoContext {
    let pointer: OpaquePointer

    init(surface: CairoSurface) throws {
        pointer = cairo_create(surface.pointer)
        try RenderError.check(cairo_status(pointer), "cairo_create")
    }

    deinit { cairo_destroy(pointer) }

    func check(_ call: String) throws { try RenderError.check(cairo_status(pointer), call) }
}

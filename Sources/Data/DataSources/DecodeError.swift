import BoundedJSON

/// An answer from a server (or an imported file) that does not have the shape we asked for: the
/// strict reader's one error type, under the name this module's callers know.
public typealias DecodeError = JSONFieldError

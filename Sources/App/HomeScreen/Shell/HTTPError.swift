import Hummingbird

/// A refusal a handler throws: the status and the message the page shows (`{"error": MESSAGE}`), and the field it
/// is about when there is one (`{"error": …, "field": …}`, which the Editor puts beside that control).
/// `HTTPErrorMiddleware` turns it into the answer, in one place, inside `AccessMiddleware` so the answer still
/// carries the security headers.
struct HTTPError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    var field: String?

    init(_ status: HTTPResponse.Status, _ message: String, field: String? = nil) {
        self.status = status
        self.message = message
        self.field = field
    }

    /// The one refusal every route of an area needs when the server was started without a store (`weaver serve`
    /// always has one; tests start servers without).
    static let noStore = HTTPError(.notFound, "this server has no store")
    static let noLibrary = HTTPError(.notFound, "this server has no design library")

    var response: Response {
        guard let field else { return Routes.error(status, message) }
        return DesignAPIRoutes.json(.object(["error": .string(message), "field": .string(field)]), status: status)
    }
}

/// Maps a thrown `HTTPError` to its answer.
struct HTTPErrorMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return error.response
        }
    }
}

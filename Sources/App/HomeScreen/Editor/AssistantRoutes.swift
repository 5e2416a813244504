import BoundedJSON
import DesignAssistant
import Foundation
import Hummingbird
import Synchronization
import WidgetDesign

/// The Editor's "Describe" and "Ask for an edit" boxes: the same `DesignAssistant` as `weaver ai describe`
/// and `weaver ai edit`, its result put in the design's draft (never saved here; Save saves it). Without
/// `ai.json` in the store nothing is contacted: the routes answer how to set a model up. Writes pass
/// `AccessMiddleware` (Host, Origin, token) like every other; bodies are capped before they are read.
struct AssistantRoutes {
    let server: HomeScreenServer

    /// Words beyond this are refused before anything is asked (a description is a sentence or two).
    static let maximumTextCharacters = 2000
    /// One question to the model at a time per server: a small model on a CPU uses every core.
    static let asking = Mutex(false)

    @Sendable func settings(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let root = try server.requireStore()
        let answer: [String: JSONValue]
        do {
            guard let s = try AssistantSettings.load(from: root) else {
                return DesignAPIRoutes.json(.object(["configured": .bool(false), "setup": .string(Self.setUpText)]))
            }
            answer = [
                "configured": .bool(true), "model": .string(s.model), "url": .string(s.url.absoluteString),
                "api": .string(s.api.rawValue), "loopback": .bool(AssistantSettings.isLoopback(s.url)),
                "timeoutSeconds": .number(s.timeoutSeconds),
                "families": .array(DesignAssistant.families.map { .string($0) }),
            ]
        } catch {
            return DesignAPIRoutes.json(.object(["configured": .bool(false), "setup": .string("\(error)")]))
        }
        return DesignAPIRoutes.json(.object(answer))
    }

    static let setUpText =
        """
        No local model is set up, so nothing is contacted. Run 'weaver ai setup' (it finds Ollama or \
        llama-server on this machine), then reload this page.
        """

    /// `{"text": WORDS, "family": small|medium|large}`: a new design from the Classic start, in place of the
    /// open design's draft (its ID kept, so Save writes it over the open design).
    @Sendable func describe(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        let (text, family) = try Self.words(Data(buffer: body), family: true)
        return try await run(context) { assistant, current in
            var start = try DesignAssistant.startingDesign(now: Date())
            start.id = current.id
            return try assistant.describe(text, startingFrom: start, family: family)
        }
    }

    /// `{"text": WORDS}`: edits to the open design's draft (else the saved design).
    @Sendable func ask(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: HomeScreenServer.maximumBodyBytes)
        let (text, _) = try Self.words(Data(buffer: body), family: false)
        return try await run(context) { assistant, current in try assistant.edit(current, request: text) }
    }

    /// The words (and size) a box sends; anything else is refused before the model is asked.
    static func words(_ data: Data, family takesFamily: Bool) throws -> (String, String?) {
        let limits = JSONLimits(maxDepth: 1, maxValueCount: 4, maxStringBytes: 4 * maximumTextCharacters)
        let keys: Set<String> = takesFamily ? ["text", "family"] : ["text"]
        let shape = takesFamily ? #"{"text": WORDS, "family": "small"|"medium"|"large"}"# : #"{"text": WORDS}"#
        guard let o = RequestBody.object(data, limits: limits, allowed: keys, required: ["text"]),
            let raw = o.text("text")
        else {
            throw HTTPError(.badRequest, "the body must be \(shape)")
        }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw HTTPError(.unprocessableContent, "say what you want in words first") }
        guard text.count <= maximumTextCharacters else {
            throw HTTPError(
                .unprocessableContent, "the words are \(text.count) characters; at most \(maximumTextCharacters)")
        }
        var family: String?
        if takesFamily, o.has("family") {
            guard let f = o.text("family"), DesignAssistant.families.contains(f) else {
                throw HTTPError(.unprocessableContent, "'family' must be small, medium or large", field: "family")
            }
            family = f
        }
        return (text, family)
    }

    /// Asks the model off the server's threads (an answer can take minutes), then puts the result in the
    /// draft when anything changed. Refusals of the settings answer 409, failures of the model 502, each
    /// with its message; neither touches the draft or the store.
    func run(
        _ context: BasicRequestContext,
        _ work: @escaping @Sendable (DesignAssistant, WidgetSpec) throws -> DesignAssistant.Outcome
    ) async throws -> Response {
        let workshop = try server.requireWorkshop()
        let root = try server.requireStore()
        guard let raw = context.parameters.get("id"), Routes.isPlainID(raw), UUID(uuidString: raw) != nil else {
            throw HTTPError(.notFound, "no such design (a design ID is a UUID)")
        }
        let id = raw.uppercased()
        let current: WidgetSpec
        do {
            current = try server.drafts.draft(id) ?? workshop.design(id: id)
        } catch let e as NotFound {
            throw HTTPError(.notFound, e.description)
        }
        let settings: AssistantSettings
        do {
            settings = try AssistantSettings.required(from: root)
        } catch {
            throw HTTPError(.conflict, "\(error)")
        }
        let claimed = Self.asking.withLock { busy -> Bool in
            if busy { return false }
            busy = true
            return true
        }
        guard claimed else {
            throw HTTPError(.tooManyRequests, "the model is still answering another request; try again when it has")
        }
        defer { Self.asking.withLock { $0 = false } }
        let assistant = DesignAssistant(model: LocalModel(settings: settings))
        let outcome: DesignAssistant.Outcome
        do {
            outcome = try await Self.offServerThreads { try work(assistant, current) }
        } catch let e as AssistantError {
            throw HTTPError(.badGateway, e.message)
        }
        // What the page would see change (a new `updatedAt` alone is no change).
        var compared = outcome.design
        compared.updatedAt = current.updatedAt
        let changed = compared.encoded() != current.encoded()
        if changed { server.drafts.set(id, outcome.design) }
        let design = changed ? outcome.design : current
        let unsaved = changed || server.drafts.draft(id) != nil
        let resolved = workshop.resolvedTexts(design, now: Date())
        return DesignAPIRoutes.json(
            .object([
                "design": design.jsonValue, "unsaved": .bool(unsaved), "changed": .bool(changed),
                "resolved": .object(resolved.mapValues { JSONValue.string($0) }),
                "changes": .array(outcome.changes.map { .string($0) }),
                "refused": .array(
                    outcome.refusals.map { r in
                        .object([
                            "field": .string(r.field), "value": .string(r.value), "message": .string(r.reason),
                            "line": .string(r.line),
                        ])
                    }),
                "notes": .array(outcome.notes.map { .string($0) }),
                "model": .string(settings.model),
            ]))
    }

    /// The exchange blocks (libcurl, up to the time-out): on its own thread, not Swift's few shared ones.
    static func offServerThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }
}

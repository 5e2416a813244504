import Foundation
import SharedStore
import TemplateLanguage
import WidgetDataKeys
import WidgetDesign
import WidgetInputs
import WidgetRender

/// The Editor's side of the rendered board: the same library, renderer and store inputs as the
/// home screen, so a draft drawn here is the picture `weaver render` draws once it is saved.
extension RenderedBoard: DesignWorkshop {
    public func listings() throws -> [DesignListing] {
        let library = DesignLibrary(root: root)
        let defaultID = try? library.defaultID()
        var rows = try library.summaries()
        if let d = defaultID, let i = rows.firstIndex(where: { $0.id == d }) { rows.insert(rows.remove(at: i), at: 0) }
        return rows.map {
            DesignListing(
                id: $0.id.uuidString, name: $0.name, template: $0.template.rawValue, isDefault: $0.id == defaultID)
        }
    }

    func libraryID(_ id: String) throws -> UUID {
        guard let uuid = UUID(uuidString: id) else { throw NotFound("no design '\(id)' (a design ID is a UUID)") }
        return uuid
    }

    public func design(id: String) throws -> WidgetSpec {
        let uuid = try libraryID(id)
        do {
            return try DesignLibrary(root: root).load(uuid)
        } catch {
            throw NotFound("no design '\(id)'")
        }
    }

    public func save(id: String, _ spec: WidgetSpec, now: Date) throws -> WidgetSpec {
        let uuid = try libraryID(id)
        let library = DesignLibrary(root: root)
        guard (try? library.load(uuid)) != nil else { throw NotFound("no design '\(id)'") }
        return try library.update(uuid, now: now) { $0 = spec }
    }

    public func create(starter: String, name: String?, now: Date) throws -> WidgetSpec {
        guard let template = TemplateCatalogue.find(starter) else {
            throw DesignError("no template '\(starter)'; choose one of: \(TemplateCatalogue.ids)")
        }
        var spec = try template.design(now: now)
        if let name {
            var named = spec
            try DesignEditor.apply(["name=" + name], to: &named)
            spec = named
        }
        try DesignLibrary(root: root).add([spec])
        return spec
    }

    /// Drafts are drawn by their own renderers, one per core (up to 4), beside the home screen's.
    static let draftRenderers = RendererPool(capacity: min(4, ProcessInfo.processInfo.activeProcessorCount))

    public func renderDraft(
        _ spec: WidgetSpec, family name: String, format: DraftFormat, scale: Int, trial: [String: String], sample: Bool,
        appearance chosen: Appearance?, redraw: String?, now: Date
    ) throws -> DraftRender {
        let family = try self.family(name)
        guard WidgetRenderer.scales.contains(scale) else { throw DesignError("'scale' must be 1, 2 or 3") }
        // The same inputs as the home screen's tiles (`withLayout`), so a saved draft draws the
        // same picture there and in `weaver render`.
        let read = { [root, appearance] () -> RenderInputs in
            var inputs = RenderInputs.gather(
                for: spec, root: root, now: now, timeZone: .current, locale: Locale.current,
                appearance: chosen ?? appearance,
                extraVariables: trial.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            inputs.redrawsEachSecond = true
            if sample { inputs = SampleData.inputs(inputs) }
            return inputs
        }
        let inputs =
            redraw.map {
                draftInputs.inputs(
                    for: .init(redraw: $0, spec: spec, trial: trial, sample: sample, appearance: chosen ?? appearance),
                    read: read)
            } ?? read()
        return try Self.draftRenderers.with { r in
            let layout = r.layout(design: spec, family: family, scale: scale, inputs: inputs)
            let bytes: [UInt8]
            switch format {
            case .png: bytes = try r.render(layout, format: .png, images: inputs.images)
            case .svg: bytes = try r.render(layout, format: .svg, images: inputs.images)
            case .json: bytes = Array(r.json(layout).utf8)
            }
            return DraftRender(
                bytes: bytes, warnings: layout.warnings,
                buttons: layout.actions.map {
                    DraftButton(
                        label: Self.label($0), x: $0.rect.x, y: $0.rect.y, width: $0.rect.width, height: $0.rect.height)
                })
        }
    }

    public func tryButton(
        _ spec: WidgetSpec, family name: String, x: Double, y: Double, trial: [String: String], now: Date
    ) throws -> TrialPress {
        let family = try self.family(name)
        let inputs = RenderInputs.gather(
            for: spec, root: root, now: now, timeZone: .current, locale: Locale.current,
            appearance: appearance, extraVariables: trial.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let action: ActionArea? = Self.draftRenderers.with { r in
            r.layout(design: spec, family: family, scale: 1, inputs: inputs).action(at: Point(x: x, y: y))
        }
        guard let action else {
            throw NothingToTap("no button of the draft at \(Self.number(x)),\(Self.number(y)) in \(name)")
        }
        // The action bar's buttons are tried on the draft's values; the others only say what they would do.
        let tried: (key: String, value: String?)? =
            switch action.action {
            case .incrementVariable(let key, let amount):
                (key, Self.incremented(inputs.context.customVariables[KeyCanonicaliser.canonical(key)], by: amount))
            case .setVariableToNow(let key, let format):
                (key, NowFormat(format).text(for: now, timeZone: .current))
            case .resetVariable(let key, let value): (key, value)
            default: nil
            }
        if let tried {
            let key = KeyCanonicaliser.canonical(tried.key)
            guard let value = tried.value else {
                let current = inputs.context.customVariables[key] ?? ""
                return TrialPress(
                    message: "'\(key)' holds '\(current)', not a number: the button would change nothing",
                    key: nil, value: nil)
            }
            return TrialPress(
                message: "Tried \(Self.label(action)): \(key) would be \(value) (nothing saved)", key: key, value: value
            )
        }
        return TrialPress(
            message:
                """
                Tried \(Self.label(action)): on the widget it would \(Self.label(action).lowercased()) (nothing \
                done here)
                """,
            key: nil, value: nil)
    }

    /// What `incrementVariable` would store: a missing variable counts as 0, an amount of 0 as 1
    /// (the performer's rules); nil when the variable holds something that is not a number.
    static func incremented(_ current: String?, by amount: Int) -> String? {
        guard let number = current.map({ NumberText.parse($0) }) ?? 0 else { return nil }
        return NumberText.canonical(number + Double(amount == 0 ? 1 : amount))
    }

    public func resolvedTexts(_ spec: WidgetSpec, now: Date) -> [String: String] {
        var context = RenderInputs.gather(
            for: spec, root: root, now: now, timeZone: .current, locale: Locale.current,
            appearance: appearance
        ).context
        // As the layout engine writes {{__time}} for this design.
        if let format = spec.clockFormat {
            context.timeFormat = TimeTextFormat(twelveHour: format.isTwelveHour, seconds: format.showsSeconds)
        }
        let renderer = TemplateRenderer()
        var texts = ["primaryText": renderer.render(spec.primaryText, in: context)]
        if let secondary = spec.secondaryText { texts["secondaryText"] = renderer.render(secondary, in: context) }
        return texts
    }

    public func variables(now: Date) -> [(key: String, value: String)] {
        let inputs = RenderInputs.gather(
            for: nil, root: root, now: now, timeZone: .current, locale: Locale.current,
            appearance: appearance)
        let context = inputs.context
        let formatters = FormatterCache(locale: context.locale, timeZone: context.timeZone)
        var list = context.builtIns.entries(in: context, formatters: formatters)
        list += context.customVariables.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        return list
    }

    public func keysNotSetUp(now: Date) -> [(key: String, reason: String)] {
        let real = RenderInputs.gather(
            for: nil, root: root, now: now, timeZone: .current, locale: Locale.current, appearance: appearance)
        let formatters = FormatterCache(locale: real.context.locale, timeZone: real.context.timeZone)
        let live = Set(real.context.builtIns.entries(in: real.context, formatters: formatters).map(\.key))
        // The sample data runs through the same key sources as the real snapshots, so its keys are
        // every key those sources write: the list is not kept by hand.
        let sample = SampleData.inputs(real).context
        return sample.builtIns.entries(in: sample, formatters: formatters).compactMap { entry in
            guard !live.contains(entry.key),
                let reason = Self.notSetUpReasons.first(where: { entry.key.hasPrefix($0.prefix) })?.reason
            else { return nil }
            return (entry.key, reason)
        }
    }

    /// What a missing built-in key waits for, by key prefix.
    static let notSetUpReasons: [(prefix: String, reason: String)] = [
        ("__weather_", "weather is not set up yet (Data page)"),
        ("__steps_", "steps are not set up yet (Data page)"),
        ("__calendar_", "no calendar is set up yet (Data page)"),
        ("__reminders_", "no reminders list is set up yet (Data page)"),
        ("__activity_", "activity is not set up yet (Data page)"),
        ("__noise_", "the noise player has not run yet (Noise page)"),
    ]

    public func symbolNames() -> [String] {
        var seen = Set<String>()
        return SymbolMap.table.map(\.sf).filter { seen.insert($0).inserted }
    }

    public func importImage(_ data: Data) throws -> ImportedImage {
        // The one picture import into images/ (the CLI's 'designs set image=PATH' uses it too).
        let (name, picture): (String, DesignImages.ImportedPicture)
        do {
            (name, picture) = try DesignImages.importUpload(data, into: root)
        } catch let failure as DesignImages.StoreFailure {
            throw DesignError(failure.description)  // said to the page like every design refusal
        }
        return ImportedImage(
            fileName: name, pixelWidth: picture.pixelWidth, pixelHeight: picture.pixelHeight,
            scaledFromWidth: picture.scaledFrom?.width, scaledFromHeight: picture.scaledFrom?.height,
            damage: picture.damage)
    }

    public func photoTheme(fileName: String) throws -> PhotoTheme {
        guard ImageSanitiser.sanitisedFileName(fileName) == fileName else {
            throw NotFound("no picture '\(fileName)' (a bare file name in images/)")
        }
        let image: DecodedImage
        do {
            image = try DesignImages.load(fileName: fileName, in: root)
        } catch let e as DesignImages.Failure {
            if case .invalidName = e { throw NotFound(e.description) }
            if !FileManager.default.fileExists(atPath: root.images.appendingPathComponent(fileName).path) {
                throw NotFound("no picture '\(fileName)' in images/")
            }
            throw DesignError(e.description)
        }
        return PhotoTheme(image)
    }

    public func imageFile(fileName: String) throws -> (bytes: [UInt8], contentType: String) {
        guard ImageSanitiser.sanitisedFileName(fileName) == fileName else {
            throw NotFound("no picture '\(fileName)' (a bare file name in images/)")
        }
        let url = root.images.appendingPathComponent(fileName)
        guard let data = try? FileSystem.read(url, limit: DesignImages.maximumFileBytes) else {
            throw NotFound(
                "no picture '\(fileName)' in images/ (or larger than \(DesignImages.maximumFileBytes >> 20) MB)")
        }
        // Only what the store's pictures are: a page never gets other bytes labelled as an image.
        let bytes = [UInt8](data)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return (bytes, "image/png") }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return (bytes, "image/jpeg") }
        throw DesignError("'\(fileName)' is neither a PNG nor a JPEG")
    }

    public var isPro: Bool { ProEntitlement.isUnlocked(root).isUnlocked }

    public func unlockPro(now: Date) throws { try ProEntitlement.set(true, root: root, now: now) }

    public var widgetAppearance: Appearance { appearance }
}

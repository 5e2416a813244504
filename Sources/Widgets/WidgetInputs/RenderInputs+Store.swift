import Foundation
import NoiseEngine
import SharedStore
import Snapshots
import WidgetDataKeys
import WidgetDesign
import WidgetRender

/// The first of the widget pipeline's three layers: every file a render reads, read once into a
/// `RenderInputs` value; the layout (WidgetRender's `LayoutEngine`) and the drawing then read no file.
extension RenderInputs {
    /// Loads every input a design needs from the store: variables (Pro), built-in keys, the
    /// noise status / Last Mix, weather, calendar, reminders, and the design's images.
    /// Problems are passed to `warn` with the file they concern; nothing here throws.
    public static func gather(
        for design: WidgetSpec?, root: StoreRoot, now: Date, timeZone: TimeZone, locale: Locale,
        appearance: Appearance = .dark, isPro: Bool? = nil, extraVariables: [(String, String)] = [],
        warn: (String) -> Void = { _ in }
    ) -> RenderInputs {
        let pro: Bool
        if let isPro {
            pro = isPro
        } else {
            let entitlement = ProEntitlement.isUnlocked(root)
            entitlement.warnings.forEach(warn)
            pro = entitlement.isUnlocked
        }
        var context = RenderContext(
            now: now, timeZone: timeZone, locale: locale, isPro: pro, builtIns: BuiltInKeys.load(from: root, warn: warn)
        )
        if pro {
            do {
                context.addCustomVariables(
                    try VariableStore(root: root).load(onSetAside: { reason, url in
                        warn(SetAsideNotice.text(root.variables, reason: reason, movedTo: url))
                    }).map { ($0.key, $0.value) })
            } catch {
                warn("\(root.variables.path): \(error)")
            }
        }
        context.addCustomVariables(extraVariables)
        var inputs = RenderInputs(context: context, appearance: appearance)
        let template = design?.layout.template
        // A countdown may count to the sleep timer's end.
        // A Play Preset button says when its preset is the one playing.
        if template == .noiseMachine || template == .countdown || template == .presetButton || design == nil {
            inputs.noise = NoiseWidgetState.load(from: root, now: now, warn: warn)
        }
        if template == .presetButton, let id = design?.presetButton?.presetID {
            // Checked against the presets `noise play --preset` finds.
            inputs.presetNames = [:]
            if let loaded = try? PresetLibrary.standard().load(id) { inputs.presetNames?[id] = loaded.mix.name }
        }
        inputs.weather = WeatherState.load(from: root)
        inputs.calendar = CalendarSnapshot.load(from: root)
        inputs.reminders = RemindersSnapshot.load(from: root)
        if template == .forecast { inputs.forecast = ForecastSnapshot.load(from: root) }
        // Only a snapshot that did not load is looked at again (the loaders have their own limits).
        let shown: [SnapshotFile] =
            switch template {
            case .weather? where inputs.weather == nil: [.weather]
            case .nextUpCalendar? where inputs.calendar == nil: [.calendar]
            case .reminders? where inputs.reminders == nil: [.reminders]
            case .forecast? where inputs.forecast == nil: [.weather]
            default: []
            }
        for file in shown {
            if let problem = SnapshotReader.problem(file, in: root) {
                inputs.unreadableSnapshots.insert(file.fileName)
                warn("\(file.url(in: root).path): \(problem); showing the empty state (the next fetch rewrites it)")
            }
        }
        for fileName in design?.referencedImageFileNames ?? [] {
            do {
                let image = try DesignImages.load(fileName: fileName, in: root)
                inputs.images[fileName] = image
                if let damage = image.damage { warn("\(root.images.appendingPathComponent(fileName).path): \(damage)") }
            } catch {
                inputs.imageFailures[fileName] = "\(error)"
            }
        }
        return inputs
    }
}

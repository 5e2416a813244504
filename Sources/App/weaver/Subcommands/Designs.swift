import ArgumentParser
import BoundedJSON
import CLISupport
import FieldTable
import Foundation
import NoiseEngine
import WidgetDesign
import WidgetRender

extension Weaver {
    struct Designs: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "designs",
            abstract: "The design library: list, show, create, edit, delete and restore widget designs.",
            subcommands: [
                List.self, Show.self, New.self, Duplicate.self, Delete.self, Restore.self, Trash.self,
                Default.self, Set.self, Fields.self, Validate.self,
            ],
            defaultSubcommand: List.self
        )
    }
}

extension Weaver.Designs {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List saved designs, newest first.")
        @OptionGroup var store: StoreOption
        @Option(help: "Only designs whose name contains TEXT (ignores case and accents).") var search: String?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let lib = store.library
            let everything = try lib.summaries()
            let rows =
                search.map { text in
                    let key = DesignSummary.fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
                    return key.isEmpty ? everything : everything.filter { $0.searchKey.contains(key) }
                } ?? everything
            let def = try lib.defaultID()
            let setAside = lib.setAsideFiles()
            defer {
                if !setAside.isEmpty && !json {
                    print(
                        """
                        Set aside (could not be read; kept in \(store.root.designs.path)): \
                        \(setAside.joined(separator: ", "))
                        """)
                }
            }
            if json {
                printJSON(.array(rows.map { summaryJSON($0, defaultID: def) }))
                return
            }
            if rows.isEmpty {
                print(
                    search == nil
                        ? "No designs yet. Add one with 'weaver templates add classic' or 'weaver designs new'."
                        : "No designs match '\(search!)'.")
                return
            }
            var out = "  \(pad("ID", 36))  \(pad("NAME", 32))  \(pad("TEMPLATE", 14))  UPDATED\n"
            for r in rows {
                out +=
                    """
                    \(r.id == def ? "*" : " ") \(r.id.uuidString)  \(pad(clip(r.name, 32), 32))  \
                    \(pad(r.template.rawValue, 14))  \(displayDate(r.updatedAt))\(r.hasImage ? "  [image]" : "")\
                    \(r.repairs.isEmpty ? "" : "  [repaired]")\n
                    """
            }
            let slots = lib.freeSlotsLeft(currentCount: everything.count)
            out +=
                "\(rows.count) design\(rows.count == 1 ? "" : "s")"
                + (slots.map { " (free tier: \($0) of \(DesignLibrary.maxFreeDesigns) slots left)" } ?? "")
                + "; * = default\n"
            let repaired = rows.filter { !$0.repairs.isEmpty }
            if !repaired.isEmpty {
                out += "Repaired when read (the file is unchanged until the design is saved):\n"
                for r in repaired {
                    for repair in r.repairs {
                        out += "  \(clip(r.name, 32)) (\(r.id.uuidString.prefix(8))): \(repair)\n"
                    }
                }
            }
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one design.")
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name.") var design: String
        @Flag(help: "Print the design's JSON (the exchange format).") var json = false

        func run() throws {
            let lib = store.library
            let spec = try lib.load(lib.resolve(design).id)
            if json {
                FileHandle.standardOutput.write(spec.encoded())
                return
            }
            let isDefault = try lib.defaultID() == spec.id
            var lines = [
                "\(spec.name)\(isDefault ? "  (default)" : "")",
                "  id:         \(spec.id.uuidString)",
                "  updated:    \(displayDate(spec.updatedAt))",
                "  template:   \(spec.layout.template.rawValue) (\(spec.layout.template.displayName))",
                "  primary:    \(spec.primaryText)",
            ]
            if let s = spec.secondaryText { lines.append("  secondary:  \(s)") }
            if let s = spec.symbol {
                lines.append(
                    """
                      symbol:     \(s.name) size \(JSONValue.formatted(s.sizePoints)) \(s.weight.rawValue) \
                    \(s.renderingMode.rawValue) tint \(s.tint.rawValue) \(s.placement.rawValue)
                    """
                )
            }
            if let i = spec.image {
                lines.append(
                    """
                      image:      \(i.fileName) \(i.contentMode.rawValue) height \
                    \(JSONValue.formatted(i.heightPoints)) radius \(JSONValue.formatted(i.cornerRadiusPoints))
                    """
                        + (i.filter.map { ", filter \($0.token.rawValue) at \(JSONValue.formatted($0.intensity))" }
                            ?? ""))
                if let sp = i.smartPhoto {
                    let renders = DesignSizeFamily.allCases.compactMap { f in
                        sp.variant(for: f).map {
                            "\(f.rawValue) \($0.renderFileName) \($0.pixelSize.width)×\($0.pixelSize.height)"
                        }
                    }
                    lines.append(
                        "  smart:      master \(sp.masterFileName)"
                            + (renders.isEmpty ? "" : "; " + renders.joined(separator: "; ")))
                }
            }
            if let format = spec.clockFormat { lines.append("  clock format: \(format.rawValue)") }
            if let countdown = spec.countdown { lines.append("  countdown:  to \(countdown.target)") }
            if spec.layout.template == .clockIcon || spec.clockConfig != nil {
                let c = spec.effectiveClockConfig
                lines.append(
                    "  clock:      face \(c.face.rawValue), theme \(c.theme.rawValue)"
                        + (c.face == .icon
                            ? """
                            , dial \(c.effectiveDialColour.rawValue), second hand \
                            \(c.effectiveSecondHandColour.rawValue)
                            """
                            : "")
                        + (spec.clockConfig == nil ? " (no clockConfig: the legacy default)" : ""))
            }
            let l = spec.layout
            lines.append(
                """
                  layout:     \(l.axis.rawValue), \(l.alignment.rawValue), spacing \
                \(JSONValue.formatted(l.spacingPoints)), accent bar \
                \(l.showsAccentBar ? "on" : "off")\
                \(l.template == .poster ? ", overlay \(l.posterOverlayMode.rawValue)" : ""), \
                lines \(l.primaryLineLimitSmall)/\(l.primaryLineLimit) and \
                \(l.secondaryLineLimitSmall)/\(l.secondaryLineLimit)
                """
            )
            let st = spec.style
            lines.append(
                """
                  style:      accent \(st.accent.rawValue), background \(st.background.rawValue), overlay \
                \(st.backgroundOverlay.rawValue) at \(JSONValue.formatted(st.backgroundOverlayOpacity)), glow \
                \(st.backgroundGlowEnabled ? "on" : "off"), padding \(JSONValue.formatted(st.paddingPoints)), \
                radius \(JSONValue.formatted(st.cornerRadiusPoints))
                """
                    + (spec.layout.template == .weather || st.weatherScale != 1
                        ? ", weather scale \(JSONValue.formatted(st.weatherScale))" : ""))
            lines.append(
                """
                  text:       name \(st.nameTextStyle.rawValue), primary \(st.primaryTextStyle.rawValue), \
                secondary \(st.secondaryTextStyle.rawValue)
                """
            )
            for (i, a) in (spec.actionBar?.actions ?? []).enumerated() {
                let what =
                    switch a.kind {
                    case .incrementVariable: "increment \(a.variableKey) by \(a.incrementAmount)"
                    case .setVariableToNow: "set \(a.variableKey) to now (\(a.nowFormat.rawValue))"
                    case .resetVariable: "reset \(a.variableKey) to \(a.resetValue)"
                    case .openURL: "open \(a.url ?? "")"
                    }
                lines.append("  action.\(i + 1):   \"\(a.title)\": \(what)")
            }
            if let m = spec.matchedSet {
                let sizes = [("small", m.small), ("medium", m.medium), ("large", m.large)].filter { $0.1 != nil }.map(
                    \.0)
                lines.append("  matched:    \(sizes.joined(separator: ", "))")
            }
            print(lines.joined(separator: "\n"))
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new",
            abstract: "Create a design from a template's starter.",
            // `create` is the word the abstract and the Editor use; without the alias it fell through
            // to the default subcommand, so `weaver designs create --help` showed `list`'s help.
            usage: "weaver designs new [--template <template>] [--name <name>] [<options>]",
            aliases: ["create"])
        @OptionGroup var store: StoreOption
        @Option(help: "Template: \(TemplateCatalogue.ids) (or a layout token).") var template = "classic"
        @Option(help: "Name of the new design.") var name: String?

        func validate() throws {
            guard TemplateCatalogue.find(template) != nil else {
                throw ValidationError("'--template' must be one of: \(TemplateCatalogue.ids)")
            }
            if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > FieldLimits.maxNameCharacters
            {
                throw ValidationError("'--name' must be 1…\(FieldLimits.maxNameCharacters) characters")
            }
        }

        func run() throws {
            var spec = try TemplateCatalogue.find(template)!.design(now: Date())
            if let name { spec.name = name.trimmingCharacters(in: .whitespaces) }
            let lib = store.library
            try lib.add([spec])
            print("Created \(spec.name) (\(spec.id.uuidString)).")
            if try lib.defaultID() == spec.id {
                print(
                    """
                    It is the default design (your first): 'weaver render' draws it; choose another with 'weaver \
                    designs default DESIGN'.
                    """
                )
            }
        }
    }

    struct Duplicate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "duplicate", abstract: "Copy a design under a new ID.")
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name.") var design: String

        func run() throws {
            let lib = store.library
            let copy = try lib.duplicate(lib.resolve(design).id, now: Date())
            print("Created \(copy.name) (\(copy.id.uuidString)).")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Move a design to the trash ('weaver designs restore' brings it back).")
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name.") var design: String

        func run() throws {
            let lib = store.library
            let row = try lib.resolve(design)
            let wasDefault = try lib.delete(row.id)
            print(
                """
                Moved \(row.name) (\(row.id.uuidString)) to the trash. Restore it with 'weaver designs restore \
                \(row.id.uuidString)'.
                """
            )
            if wasDefault {
                print(
                    """
                    It was the default design; no default is set now (restoring it does not make it the default \
                    again). Set one with 'weaver designs default DESIGN'.
                    """
                )
            }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore", abstract: "Bring a design back from the trash.")
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name (see 'weaver designs trash').") var design: String

        func run() throws {
            let spec = try store.library.restore(design)
            print(
                """
                Restored \(spec.name) (\(spec.id.uuidString)). It is not the default design; make it so with \
                'weaver designs default \(spec.id.uuidString)'.
                """
            )
        }
    }

    struct Trash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trash", abstract: "List designs in the trash, or empty it with --empty.")
        @OptionGroup var store: StoreOption
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "Delete every design in the trash for good (they cannot be restored afterwards).") var empty = false

        func run() throws {
            if empty {
                let gone = try store.library.emptyTrash()
                if json {
                    printJSON(.array(gone.map { summaryJSON($0, defaultID: nil) }))
                    return
                }
                print(
                    gone.isEmpty
                        ? "The trash was already empty."
                        : "Deleted \(gone.count) design\(gone.count == 1 ? "" : "s") from the trash for good: "
                            + gone.map(\.name).joined(separator: ", ") + ".")
                return
            }
            let rows = try store.library.trashed()
            if json {
                printJSON(.array(rows.map { summaryJSON($0, defaultID: nil) }))
                return
            }
            if rows.isEmpty {
                print("The trash is empty.")
                return
            }
            for r in rows {
                print(
                    """
                    \(r.id.uuidString)  \(pad(clip(r.name, 32), 32))  \(pad(r.template.rawValue, 14))  \
                    \(displayDate(r.updatedAt))
                    """
                )
            }
        }
    }

    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default", abstract: "Show, set or clear (--clear) the default design.")
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name to make the default.") var design: String?
        @Flag(help: "Clear the default design (widgets then show none until one is set).") var clear = false

        func validate() throws {
            if clear && design != nil { throw ValidationError("give a design or '--clear', not both") }
        }

        func run() throws {
            let lib = store.library
            if clear {
                let had = try lib.defaultID()
                try lib.setDefault(nil)
                print(had == nil ? "No default design was set." : "Cleared the default design.")
            } else if let design {
                let row = try lib.resolve(design)
                try lib.setDefault(row.id)
                print("Default design: \(row.name) (\(row.id.uuidString)).")
            } else if let id = try lib.defaultID(), let row = try lib.summaries().first(where: { $0.id == id }) {
                print("Default design: \(row.name) (\(row.id.uuidString)).")
            } else {
                print("No default design is set. Set one with 'weaver designs default DESIGN'.")
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Edit a design: FIELD=VALUE... (saves with a new updatedAt).",
            discussion: "Fields (see 'weaver designs fields' for defaults and help):\n"
                + DesignEditor.fields.map { HelpText.hanging($0.names.joined(separator: ", "), $0.allowed) }.joined(
                    separator: "\n")
        )
        @OptionGroup var store: StoreOption
        @Argument(help: "Design ID, unique ID prefix, or name.") var design: String
        @Argument(help: "Assignments, e.g. name=Morning accent=pink style.background=aurora.") var assignments: [String]

        func validate() throws {
            if assignments.isEmpty { throw ValidationError("give at least one FIELD=VALUE") }
        }

        func run() throws {
            let lib = store.library
            let row = try lib.resolve(design)
            // image=PATH: the picture is checked now and copied into images/ once the edit applies.
            let (assignments, pictures) = try ImageImport.prepare(assignments, images: store.root.images)
            // Check the assignments before taking the lock, so a typo never touches the file.
            var probe = try lib.load(row.id)
            let presetBefore = probe.presetButton
            try DesignEditor.apply(assignments, to: &probe)
            // A Play Preset design's preset must be one `noise play --preset` finds.
            if let id = probe.presetButton?.presetID, probe.presetButton != presetBefore {
                do { _ = try PresetLibrary.standard().load(id) } catch {
                    throw DesignError("presetButton.preset: \(error.message)")
                }
            }
            let added = try ImageImport.copy(pictures, images: store.root.images)
            let spec: WidgetSpec
            do {
                spec = try lib.update(row.id, now: Date()) { try DesignEditor.apply(assignments, to: &$0) }
            } catch {
                ImageImport.remove(added)  // nothing refers to them
                throw error
            }
            for warning in DesignWarnings.atSave(spec, isPro: lib.isPro) { printWarning(warning) }
            if spec.layout.template == .poster && spec.image == nil {
                printWarning(
                    """
                    a poster without an image shows only its background; set one with 'image=PATH' (the picture is \
                    copied into the store)
                    """
                )
            }
            if let img = spec.image,
                !FileManager.default.fileExists(atPath: store.root.images.appendingPathComponent(img.fileName).path)
            {
                printWarning("image '\(img.fileName)' is not in \(store.root.images.path)")
            }
            print("Saved \(spec.name) (\(spec.id.uuidString)).")
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Check a design file (a spec, an array of specs, or a .wwdesign package) and list every finding.",
            discussion: "Exits 0 when the file is clean, 1 when it has findings or cannot be read."
        )
        @Argument(help: "The file to check.") var file: String

        func run() throws {
            let url = URL(fileURLWithPath: file)
            let package = try DesignExchange.read(url: url, now: Date())
            for f in package.findings { print("\(file): \(f)") }
            for n in package.notes { print("\(file): note: \(n)") }
            let count = package.specs.count
            print(
                """
                \(count) design\(count == 1 ? "" : "s"), \(package.images.count) embedded \
                image\(package.images.count == 1 ? "" : "s"), \(package.findings.count) \
                finding\(package.findings.count == 1 ? "" : "s").
                """
            )
            if !package.findings.isEmpty { throw ExitCode(1) }
        }
    }
}

extension Weaver.Designs {
    /// The design field table (`DesignFields`) as text, JSON or the Markdown of docs/designs.md.
    struct Fields: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fields",
            abstract: "Every design field: its key, range or values, default and help.",
            discussion:
                """
                --json prints the table as GET /api/fields serves its \"design\" member; --markdown prints the \
                tables of docs/designs.md.
                """
        )
        @Flag(help: "The table as JSON.") var json = false
        @Flag(help: "The table as Markdown (docs/designs.md's field tables).") var markdown = false

        func validate() throws {
            if json && markdown { throw ValidationError("give either '--json' or '--markdown', not both") }
        }

        func run() throws {
            let table = DesignFields.table
            if json {
                print(FieldJSON.array(table))
            } else if markdown {
                print(FieldMarkdown.tables(table), terminator: "")
            } else {
                for group in table.groups {
                    let rows = table.fields.filter { $0.group == group }
                    guard !rows.isEmpty else { continue }
                    print("\(group):")
                    for f in rows {
                        print(
                            HelpText.hanging(
                                f.names.joined(separator: ", "),
                                "\(f.allowedText)\(f.isOptional ? " | none" : ""). \(f.label): \(f.help)"))
                    }
                }
            }
        }
    }
}

import ArgumentParser
import CLISupport

extension Weaver.Render {
    /// `weaver render …` read without argument-parser, for the plain spellings a status bar or
    /// script repeats every minute (issue 41 item 25): the command name, at most one DESIGN, and
    /// each option at most once as `--name value` or `--name=value` (`-o value` too). argument-parser
    /// finds a command's options through Mirror and dynamic casts, whose first uses scan every
    /// protocol conformance and demangle type names in this static binary: 17 % of a `weaver render`
    /// (perf record, 30 renders of the small Noise Machine PNG), more than the drawing.
    ///
    /// Nil for anything else — another spelling, a repeated option, a value that starts with a
    /// dash, `--`, help — and for every input its checks refuse: argument-parser then reads the same
    /// arguments, so every message, usage line and exit status stays argument-parser's. A `--` always
    /// goes there (RenderCommandTests compares the two readings through it).
    static func quickParse(_ arguments: [String]) -> Weaver.Render? {
        guard arguments.first == "render" else { return nil }
        // Plain locals and a switch rather than a table of names: a Dictionary's first use here
        // instantiates its generic metadata (~0.05 ms).
        var design, template, family, appearance, now, tz, locale, store, scale, format, output, backdrop: String?
        var pro = false, watch = false
        var i = 1
        while i < arguments.count {
            let word = arguments[i]
            i += 1
            if !word.hasPrefix("-") {
                // One DESIGN; "help" is left to argument-parser, which may read it as a request for help.
                guard design == nil, word != "help" else { return nil }
                design = word
                continue
            }
            if word == "--pro" {
                guard !pro else { return nil }
                pro = true
                continue
            }
            if word == "--watch" {
                guard !watch else { return nil }
                watch = true
                continue
            }
            var name = word, value: String
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            } else {
                guard i < arguments.count else { return nil }
                value = arguments[i]
                i += 1
            }
            // A value that starts with a dash (an option, or a negative number) is argument-parser's to judge.
            guard value == "-" || !value.hasPrefix("-") else { return nil }
            func take(_ slot: inout String?) -> Bool {
                guard slot == nil else { return false }
                slot = value
                return true
            }
            let taken: Bool
            switch name {
            case "--template": taken = take(&template)
            case "--family": taken = take(&family)
            case "--appearance": taken = take(&appearance)
            case "--now": taken = take(&now)
            case "--tz": taken = take(&tz)
            case "--locale": taken = take(&locale)
            case "--store": taken = take(&store)
            case "--scale": taken = take(&scale)
            case "--format": taken = take(&format)
            case "-o", "--output": taken = take(&output)
            case "--backdrop": taken = take(&backdrop)
            default: taken = false
            }
            guard taken else { return nil }
        }

        // The defaults are those the properties declare (RenderCommandTests compares a bare `render`).
        var clock = ClockOptions()
        clock.now = now
        clock.tz = tz
        clock.locale = locale
        var storeOption = StoreOption()
        storeOption.path = store
        var selection = WidgetSelection()
        selection.design = design
        selection.template = template
        selection.family = family ?? "small"
        selection.appearance = appearance ?? "dark"
        selection.pro = pro
        selection.clock = clock
        selection.store = storeOption
        var render = Weaver.Render()
        render.selection = selection
        if let scale {
            guard let pixels = Int(scale) else { return nil }
            render.scale = pixels
        } else {
            render.scale = 2
        }
        render.format = format
        render.output = output ?? "-"
        render.backdrop = backdrop
        render.watch = watch
        do {
            try clock.validate()
            try selection.validate()
            try render.validate()
        } catch {
            return nil
        }
        return render
    }
}

import Foundation
import WidgetDataKeys
import WidgetDesign

extension TemplateContext {
    // MARK: - Classic

    func classic() {
        defaultBackdrop()
        let area = contentRect()
        let layout = spec.layout
        let align = horizontalAlignment
        var y = area.minY
        let bottomReserve = reservedBottom()
        let maxY = area.maxY - bottomReserve

        if let s = spec.symbol, s.placement == .aboveName {
            let size = min(spec.style.symbolSizePoints, area.height / 3)
            let cx: Double =
                switch align {
                case .leading: area.minX + size / 2
                case .centre: area.midX
                case .trailing: area.maxX - size / 2
                }
            _ = b.symbol(
                s.name, centre: Point(x: cx, y: y + size / 2), size: size, colour: symbolTint(s),
                weight: TextStyleMetrics.weight(s.weight), field: "symbol.name")
            y += size + layout.spacingPoints
        }
        y = header(in: area, y: y)
        y = inlineImage(x: area.minX, y: y, width: area.width, maxY: maxY)
        y = contentStack(x: area.minX, y: y, width: area.width, maxY: maxY, align: align)
        b.textLines = drawnLines(name: name, primary: primary, secondary: secondary)
        footer(in: area, after: y)
    }

    /// What draws the design's image at this size: the Smart Photo render for the size when it is
    /// loaded; else its master, turned, cropped and straightened as the render would be; else the
    /// base image. nil when none of them is loaded. A render named as the master is a crop made in
    /// the Editor, which prepares no render: the master is cropped.
    func imageSource(_ image: ImageSpec) -> (key: String, crop: ImageCrop?)? {
        let size: DesignSizeFamily? =
            switch family {
            case .small: .small
            case .medium: .medium
            case .large: .large
            default: nil
            }
        if let size, let smart = image.smartPhoto, let variant = smart.variant(for: size) {
            if variant.renderFileName != smart.masterFileName, inputs.images[variant.renderFileName] != nil {
                return (variant.renderFileName, nil)
            }
            if inputs.images[smart.masterFileName] != nil {
                let r = variant.cropRect
                return (
                    smart.masterFileName,
                    ImageCrop(
                        x: r.x, y: r.y, width: r.width, height: r.height,
                        quarterTurns: variant.quarterTurns, straightenDegrees: variant.straightenDegrees ?? 0)
                )
            }
        }
        return inputs.images[image.fileName] != nil ? (image.fileName, nil) : nil
    }

    /// The primitive that draws `source` (see `imageSource`).
    func imagePrimitive(
        _ source: (key: String, crop: ImageCrop?), contentMode: ImageFit, cornerRadius: Double, blurred: Bool = false
    ) -> Primitive {
        if let crop = source.crop, !blurred {
            return .croppedImage(key: source.key, crop: crop, contentMode: contentMode, cornerRadius: cornerRadius)
        }
        return .image(key: source.key, contentMode: contentMode, cornerRadius: cornerRadius, blurred: blurred)
    }

    /// The design's image in Classic (the seed draws images only on posters): `image.height`
    /// points tall at most, half the space left at most, with `image.cornerRadius`, fill or fit.
    /// A missing or unreadable image draws a placeholder and warns. Returns the y below it.
    func inlineImage(x: Double, y: Double, width: Double, maxY: Double) -> Double {
        guard let image = spec.image else { return y }
        let height = min(image.heightPoints, max(0, (maxY - y) / 2))
        guard height >= 16 else { return y }
        let rect = Rect(x: x, y: y, width: width, height: height)
        if let source = imageSource(image) {
            b.add(
                .image, rect,
                imagePrimitive(
                    source, contentMode: image.contentMode == .fit ? .fit : .fill,
                    cornerRadius: image.cornerRadiusPoints))
        } else {
            b.warnings.append(
                """
                image.fileName: \(inputs.imageFailures[image.fileName] ?? "image '\(image.fileName)' not loaded"); \
                drawing the placeholder
                """
            )
            b.fill(rect, .solid(palette.quaternaryFill), radius: image.cornerRadiusPoints)
            _ = b.symbol(
                "photo", centre: Point(x: rect.midX, y: rect.midY), size: min(22, height * 0.6),
                colour: palette.secondary)
        }
        return rect.maxY + spec.layout.spacingPoints
    }

    /// The name row (always leading, as the seed does), with a `beforeName` symbol. Returns the
    /// y below it.
    func header(in area: Rect, y: Double, includeSymbol: Bool = true) -> Double {
        let nameRun = self.nameRun, nameText = nameRun.text
        let symbol = includeSymbol ? spec.symbol.flatMap { $0.placement == .beforeName ? $0 : nil } : nil
        guard !nameText.isEmpty || symbol != nil else { return y }
        let lineHeight = b.lineHeightOf(nameRun)
        var x = area.minX
        var rowHeight = lineHeight
        if let s = symbol {
            let size = max(10, min(s.sizePoints, 28))
            rowHeight = max(lineHeight, size)
            _ = b.symbol(
                s.name, centre: Point(x: x + size / 2, y: y + rowHeight / 2), size: size, colour: symbolTint(s),
                weight: TextStyleMetrics.weight(s.weight), field: "symbol.name")
            x += size + 6
        }
        if !nameText.isEmpty {
            b.addText(nameRun, x: x, y: y + (rowHeight - lineHeight) / 2, width: area.maxX - x)
        }
        return y + rowHeight + spec.layout.spacingPoints
    }

    /// The design's name as the header row draws it.
    var nameRun: TextRun {
        run(name, spec.style.nameTextStyle, fallback: .caption, colour: palette.primary, weight: 600)
    }

    /// Primary and secondary (or the list), vertical or side by side per `layout.axis`.
    func contentStack(
        x: Double, y: Double, width: Double, maxY: Double, align: TextAlignment,
        secondaryFallback: TextStyleToken = .caption2
    ) -> Double {
        let layout = spec.layout
        let primaryLines = isSmall ? layout.primaryLineLimitSmall : layout.primaryLineLimit
        let secondaryLines = isSmall ? layout.secondaryLineLimitSmall : layout.secondaryLineLimit
        let p = primary, s = secondary
        let list = ListParser.parse(s)
        let primaryRun = run(
            p, spec.style.primaryTextStyle, fallback: .title3, colour: palette.primary, lines: primaryLines)
        if layout.axis == .horizontal, list == nil, !p.isEmpty, !s.isEmpty {
            let columnWidth = (width - layout.spacingPoints) / 2
            let r1 = b.addText(primaryRun, x: x, y: y, width: columnWidth, align: .leading, maxY: maxY)
            let secondaryRun = run(
                s, spec.style.secondaryTextStyle, fallback: secondaryFallback, colour: palette.secondary,
                lines: secondaryLines)
            let r2 = b.addText(
                secondaryRun, x: x + columnWidth + layout.spacingPoints, y: y, width: columnWidth, align: .leading,
                maxY: maxY)
            return max(r1?.maxY ?? y, r2?.maxY ?? y) + layout.spacingPoints
        }
        var cursor = y
        if !p.isEmpty {
            let beforePrimary = b.elements.count
            var pr = primaryRun
            var pillWidth = 0.0
            if let list, list.isChecklist {
                // The checklist pill ("done/total") sits at the end of the primary line.
                let pill = run(
                    "\(list.doneCount)/\(list.items.count)", size: 11, weight: 600, colour: palette.secondary,
                    tabular: true)
                let m = b.measure(pill, width: 100)
                pillWidth = m.width + 20
                let rect = Rect(x: x + width - pillWidth, y: cursor, width: pillWidth, height: m.height + 10)
                b.fill(rect, .solid(accent.opacity(0.16)), radius: rect.height / 2, stroke: accent.opacity(0.28))
                b.addText(pill, x: rect.minX + 10, y: rect.minY + 5, width: m.width + 1)
                pr.lineLimit = 1
            }
            let primaryWidth = width - (pillWidth > 0 ? pillWidth + 10 : 0)
            guard
                let r = b.addText(pr, x: x, y: cursor, width: primaryWidth, align: align, maxY: maxY)
                    ?? addShrunk(pr, x: x, y: cursor, width: primaryWidth, align: align, maxY: maxY)
            else {
                // The primary text is what the widget is for: never show the secondary (nor the
                // checklist pill of its line) without it.
                b.elements.removeSubrange(beforePrimary...)
                b.warnings.append(
                    """
                    primaryText: no room for one line between y \(Int(cursor)) and \(Int(maxY)) pt (the action \
                    bar, padding and image take the rest); not drawn
                    """
                )
                return y
            }
            cursor = r.maxY + 6
        }
        if let list {
            cursor = listRows(list, x: x, y: cursor, width: width, maxY: maxY, secondaryFallback: secondaryFallback)
        } else if !s.isEmpty {
            let sr = run(
                s, spec.style.secondaryTextStyle, fallback: secondaryFallback, colour: palette.secondary,
                lines: secondaryLines)
            // Making room as the seed does: fewer lines, then smaller type (to its 0.75 minimum),
            // then a smaller primary line too; when even that does not fit, the line is left out
            // and a warning says so (every rendition then leaves it out: see `drawnLines`).
            if let r = b.addText(sr, x: x, y: cursor, width: width, align: align, maxY: maxY)
                ?? addShrunk(sr, x: x, y: cursor, width: width, align: align, maxY: maxY)
                ?? shrinkPrimary(for: sr, x: x, width: width, align: align, maxY: maxY)
            {
                cursor = r.maxY + 6
            } else {
                b.warnings.append(
                    """
                    secondaryText: no room for one line between y \(Int(cursor)) and \(Int(maxY)) pt, even at 0.75 \
                    of its size (the action bar, padding and image take the rest); not drawn
                    """
                )
            }
        }
        return cursor - 6 + layout.spacingPoints
    }

    /// When the secondary line fits nowhere, the primary text (the last element added, one line
    /// or more) is set again on one line, shrunk in steps to 0.75 of its style's size (never
    /// below, even when it was already shrunk to fit), until a 0.75-size secondary line fits under
    /// it; then both are placed. Returns the secondary's rect, or nil with the primary left as it
    /// was.
    func shrinkPrimary(for secondary: TextRun, x: Double, width: Double, align: TextAlignment, maxY: Double) -> Rect? {
        guard let last = b.elements.last, case .text(let placed) = last.primitive, placed.text == primary else {
            return nil
        }
        let top = last.rect.minY
        let fullSize = TextStyleMetrics.font(spec.style.primaryTextStyle, fallback: .title3).size
        var small = secondary
        small.lineLimit = 1
        small.sizePoints = secondary.sizePoints * 0.75
        let secondaryHeight = b.lineHeightOf(small)
        for step in 1...5 {
            var p = placed
            p.lineLimit = 1
            p.sizePoints = min(placed.sizePoints, fullSize * (1 - Double(step) * 0.05))
            guard top + b.lineHeightOf(p) + 6 + secondaryHeight <= maxY else { continue }
            b.elements.removeLast()
            guard let pr = b.addText(p, x: x, y: top, width: width, align: align, maxY: maxY) else {
                b.elements.append(last)
                return nil
            }
            if let r = b.addText(small, x: x, y: pr.maxY + 6, width: width, align: align, maxY: maxY) { return r }
            b.elements.removeLast()
            b.elements.append(last)
            return nil
        }
        return nil
    }

    /// The text rendition (`--format txt`, the page's accessible name) of the name, primary and
    /// secondary: each only when it was drawn, so no rendition says what the picture does not
    /// show. A list secondary is its drawn items (and "+N more").
    func drawnLines(name: String, primary: String, secondary: String) -> [String] {
        let shown = Set(b.elements.compactMap(\.text))
        // A text cut with "…" is said as drawn.
        var drawnAs: [String: String] = [:]
        for case .text(let run) in b.elements.map(\.primitive) where drawnAs[run.text] == nil {
            drawnAs[run.text] = run.isTruncated ? (run.shownText ?? run.text) : run.text
        }
        var lines = [name, primary].filter { !$0.isEmpty && shown.contains($0) }.map { drawnAs[$0] ?? $0 }
        guard !secondary.isEmpty else { return lines }
        if let list = ListParser.parse(secondary) {
            let drawn = list.items.filter { shown.contains($0.text) }
            guard !drawn.isEmpty else { return lines }
            if drawn.count == list.items.count {
                lines.append(secondary)
            } else {
                let rows = secondary.split(whereSeparator: \.isNewline).map(String.init)
                    .filter { row in drawn.contains { !$0.text.isEmpty && row.hasSuffix($0.text) } }
                lines.append(
                    (rows
                        + (shown.contains("+\(list.items.count - drawn.count) more")
                            ? ["+\(list.items.count - drawn.count) more"] : []))
                        .joined(separator: "\n"))
            }
        } else if shown.contains(secondary) {
            lines.append(drawnAs[secondary] ?? secondary)
        }
        return lines
    }

    /// `run` on one line, shrunk in steps to 0.75 of its size (the seed's minimum scale for
    /// labels) until one line fits above `maxY`; nil when not even that fits.
    func addShrunk(_ run: TextRun, x: Double, y: Double, width: Double, align: TextAlignment, maxY: Double) -> Rect? {
        for step in 1...5 {
            var r = run
            r.lineLimit = 1
            r.sizePoints = run.sizePoints * (1 - Double(step) * 0.05)
            if let rect = b.addText(r, x: x, y: y, width: width, align: align, maxY: maxY) { return rect }
        }
        return nil
    }

    func listRows(
        _ list: ListParser.List, x: Double, y: Double, width: Double, maxY: Double, secondaryFallback: TextStyleToken
    ) -> Double {
        let capacity = isSmall ? 3 : (family == .medium ? 6 : 10)
        let rowSpacing: Double = isSmall ? 7 : 8
        let iconSize: Double = isSmall ? 12 : 13
        var cursor = y
        var shown = 0
        for (index, item) in list.items.prefix(capacity).enumerated() {
            let r = TextRun(
                text: item.text,
                sizePoints: TextStyleMetrics.font(spec.style.secondaryTextStyle, fallback: secondaryFallback).size,
                colour: item.done ? palette.secondary : palette.primary, lineLimit: 1, strikethrough: item.done)
            let lh = b.lineHeightOf(r)
            // Keep a line for "+N more" when items would remain after this one.
            let remaining = list.items.count - index - 1
            guard cursor + lh + (remaining > 0 ? lh + rowSpacing : 0) <= maxY else { break }
            let icon = list.isChecklist ? (item.done ? "checkmark.circle.fill" : "circle") : "circle.fill"
            let iconColour = list.isChecklist ? accent.opacity(item.done ? 0.95 : 0.55) : accent.opacity(0.55)
            let dot = list.isChecklist ? iconSize : 6
            _ = b.symbol(icon, centre: Point(x: x + iconSize / 2, y: cursor + lh / 2), size: dot, colour: iconColour)
            b.addText(r, x: x + iconSize + 8, y: cursor, width: width - iconSize - 8)
            cursor += lh + rowSpacing
            shown += 1
        }
        let more = list.items.count - shown
        if more > 0 {
            let r = run(
                "+\(more) more", spec.style.secondaryTextStyle, fallback: secondaryFallback, colour: palette.secondary,
                weight: 600)
            if let rect = b.addText(r, x: x, y: cursor + 2, width: width, maxY: maxY) {
                cursor = rect.maxY + rowSpacing
            }
        }
        return cursor - rowSpacing + 6
    }

    /// Space the action bar and accent bar need at the bottom.
    func reservedBottom() -> Double {
        var h = 0.0
        if spec.layout.showsAccentBar { h += 5 + spec.layout.spacingPoints }
        if showsActionBar { h += 44 + 10 }
        return h
    }

    var showsActionBar: Bool {
        inputs.context.isPro && !(spec.actionBar?.actions.isEmpty ?? true)
    }

    /// The action bar and the accent bar, pinned to the bottom of `area`.
    func footer(in area: Rect, after y: Double) {
        var bottom = area.maxY
        if spec.layout.showsAccentBar {
            let bar = Rect(x: area.minX, y: bottom - 5, width: area.width, height: 5)
            b.fill(bar, .solid(accent.opacity(0.9)), radius: 2.5)
            bottom = bar.minY - spec.layout.spacingPoints
        }
        if showsActionBar { actionBar(Rect(x: area.minX, y: bottom - 44, width: area.width, height: 44)) }
    }

    /// Up to two buttons sharing the width (HStack spacing 10), height 44, radius 14.
    func actionBar(_ rect: Rect) {
        guard let bar = spec.actionBar else { return }
        let actions = Array(bar.actions.prefix(2))
        let w = (rect.width - Double(actions.count - 1) * 10) / Double(actions.count)
        let prominent = bar.style == .prominent
        for (i, a) in actions.enumerated() {
            let r = Rect(x: rect.minX + Double(i) * (w + 10), y: rect.minY, width: w, height: rect.height)
            b.fill(
                r, .solid(accent.opacity(prominent ? 0.20 : 0.12)), radius: 14,
                stroke: accent.opacity(prominent ? 0.30 : 0.16), kind: .button)
            let title = Self.actionTitle(a)
            let label = run(title, .caption, fallback: .caption, colour: palette.primary, weight: 600)
            let m = b.measure(label, width: r.width - 24)
            var contentWidth = m.width
            if a.systemImage != nil { contentWidth += 14 + 8 }
            var x = r.midX - contentWidth / 2
            if let image = a.systemImage, !image.isEmpty {
                _ = b.symbol(
                    image, centre: Point(x: x + 7, y: r.midY), size: 14, colour: accent, weight: 600,
                    field: "actionBar.actions[\(i)].systemImage")
                x += 22
            }
            b.addText(label, x: x, y: r.midY - m.height / 2, width: min(m.width + 1, r.maxX - 12 - x))
            b.action(
                ActionArea(id: a.id.uuidString, action: WidgetAction(a), title: title, rect: r))
        }
    }

    static func actionTitle(_ a: ActionSpec) -> String {
        let t = a.title.trimmingCharactersInWhitespace()
        if !t.isEmpty { return String(t.prefix(24)) }
        return ActionArea.untitledActionBarTitle(for: renderedKind(a.kind))
    }

    static func renderedKind(_ kind: WidgetActionKindToken) -> WidgetActionKind {
        switch kind {
        case .incrementVariable: .incrementVariable
        case .setVariableToNow: .setVariableToNow
        case .resetVariable: .resetVariable
        case .openURL: .openURL
        }
    }

    // MARK: - Hero

    func hero() {
        defaultBackdrop()
        // The seed adds style.padding again inside: P + padding (32 pt by default), halved on small.
        let extraInset = min(spec.style.paddingPoints, 16) / (isSmall ? 2 : 1)
        var area = contentRect().insetBy(extraInset)
        let primaryLine = b.lineHeightOf(
            run(primary, spec.style.primaryTextStyle, fallback: .title3, colour: palette.primary, lines: 1))
        if showsActionBar, !primary.isEmpty {
            // With the action bar (54 pt) a medium widget has no room left for the primary text
            // under a large padding: the second, inner inset then gives up its height first.
            let header = nameRun
            let nameLine = header.text.isEmpty ? 0 : b.lineHeightOf(header) + spec.layout.spacingPoints
            if area.height < nameLine + primaryLine + 54 { area = contentRect().insetBy(dx: extraInset, dy: 0) }
        }
        let align = horizontalAlignment
        let large = family == .large
        let firstContent = b.elements.count
        var y = header(in: area, y: area.minY, includeSymbol: false)
        let symbolCap: Double = isSmall ? 44 : (large ? 96 : 64)
        let symbolSize =
            spec.symbol.map {
                min(max(spec.style.symbolSizePoints, $0.sizePoints) * (large ? 2 : 1), area.height / 2, symbolCap)
            } ?? 0
        let spacing = spec.layout.spacingPoints
        // On large the symbol stands alone at the top and the text sits at the bottom.
        let leftWidth = area.width - (symbolSize > 0 && !large ? symbolSize + spacing : 0)
        let maxY = area.maxY - (showsActionBar ? 54 : 0)
        // The accent bar gives its room up before the primary text does (a medium hero with an
        // action bar has ~30 pt for both).
        let showsBar = spec.layout.showsAccentBar && (primary.isEmpty || maxY - 5 - spacing - y >= primaryLine)
        let barSpace = showsBar ? 5 + spacing : 0
        y = contentStack(
            x: area.minX, y: y, width: leftWidth, maxY: maxY - barSpace, align: align, secondaryFallback: .body)
        if showsBar {
            b.fill(
                Rect(x: area.minX, y: min(y, maxY - 5), width: leftWidth, height: 5), .solid(accent.opacity(0.9)),
                radius: 2.5)
            y = min(y, maxY - 5) + 5
        }
        if large {
            let shift = maxY - y
            if shift > 0 {
                for i in firstContent..<b.elements.count { b.elements[i].rect.y += shift }
            }
        }
        if let s = spec.symbol {
            let top =
                large ? area.minY : (b.elements[firstContent...].first { $0.kind == .text }?.rect.minY ?? area.minY)
            _ = b.symbol(
                s.name, centre: Point(x: area.maxX - symbolSize / 2, y: top + symbolSize / 2), size: symbolSize,
                colour: symbolTint(s), weight: TextStyleMetrics.weight(s.weight), field: "symbol.name")
        }
        if showsActionBar { actionBar(Rect(x: area.minX, y: area.maxY - 44, width: area.width, height: 44)) }
        b.textLines = drawnLines(name: name, primary: primary, secondary: secondary)
    }

    // MARK: - Poster

    func poster() {
        let style = spec.style
        if let image = spec.image, let source = imageSource(image) {
            b.fill(bounds, .solid(palette.systemBackground), kind: .background)
            if image.contentMode == .fit {
                let o: Double = isSmall ? 10 : (family == .medium ? 14 : 16)
                let m = max(10, 0.85 * o)
                b.add(.image, bounds, imagePrimitive(source, contentMode: .fill, cornerRadius: 0, blurred: true))
                b.fill(bounds, .solid(RGBA.black.opacity(0.25)))
                let card = bounds.insetBy(o)
                b.fill(
                    card, .solid(RGBA.white.opacity(0.14)), radius: image.cornerRadiusPoints + m,
                    stroke: RGBA.white.opacity(0.10))
                b.add(
                    .image, card.insetBy(m),
                    imagePrimitive(source, contentMode: .fit, cornerRadius: image.cornerRadiusPoints))
            } else {
                b.add(.image, bounds, imagePrimitive(source, contentMode: .fill, cornerRadius: 0))
            }
            if style.backgroundOverlayOpacity > 0 {
                b.fill(
                    bounds,
                    Palette.scaled(
                        palette.background(style.backgroundOverlay, accent: accent, bounds: bounds),
                        opacity: style.backgroundOverlayOpacity))
            }
        } else {
            defaultBackdrop()
            if let image = spec.image {
                b.warnings.append(
                    """
                    image.fileName: \
                    \(inputs.imageFailures[image.fileName] ?? "image '\(image.fileName)' not loaded"); drawing the \
                    placeholder
                    """
                )
            }
            let hint = spec.image == nil ? "Add a photo: weaver designs set NAME image=PATH" : "Photo unavailable"
            let hr = run(hint, .caption, fallback: .caption, colour: palette.secondary, lines: 2)
            let m = b.measure(hr, width: bounds.width - 28)
            let total = 22 + 10 + m.height
            var y =
                spec.layout.posterOverlayMode == .caption && !spec.layout.alignment.isTopAnchored
                ? bounds.minY + 20 : bounds.midY - total / 2
            if family == .small { y = bounds.minY + 16 }
            _ = b.symbol(
                spec.image == nil ? "photo" : "exclamationmark.triangle.fill", centre: Point(x: bounds.midX, y: y + 11),
                size: 22, colour: palette.secondary, weight: 600)
            b.addText(hr, x: bounds.minX + 14, y: y + 32, width: bounds.width - 28, align: .centre)
        }
        b.textLines = drawnLines(name: name, primary: primary, secondary: secondary)
        guard spec.layout.posterOverlayMode == .caption else { return }
        let top = spec.layout.alignment.isTopAnchored
        // The scrim, from the caption edge.
        let stops = [(0.0, 0.72), (0.18, 0.46), (0.45, 0.18), (0.70, 0.06), (0.85, 0.02), (1.0, 0.0)].map {
            GradientStop($0.0, RGBA.black.opacity($0.1))
        }
        let start = Point(x: bounds.midX, y: top ? bounds.minY : bounds.maxY)
        let end = Point(x: bounds.midX, y: top ? bounds.maxY : bounds.minY)
        b.fill(bounds, .linear(start: start, end: end, stops: stops))
        // Caption: leading, spacing 10, non-small line limits even on small.
        let pad = max(2, style.paddingPoints)
        let width = bounds.width - 2 * pad
        var runs: [TextRun] = []
        if !name.isEmpty {
            runs.append(shadowed(run(name, style.nameTextStyle, fallback: .caption, colour: RGBA.white.opacity(0.92))))
        }
        let p = primary.isEmpty ? "Hello" : primary
        runs.append(
            shadowed(
                run(
                    p, style.primaryTextStyle, fallback: .title3, colour: .white, lines: spec.layout.primaryLineLimit,
                    weight: 600)))
        if !secondary.isEmpty {
            runs.append(
                shadowed(
                    run(
                        secondary, style.secondaryTextStyle, fallback: .caption2, colour: RGBA.white.opacity(0.85),
                        lines: spec.layout.secondaryLineLimit)))
        }
        let heights = runs.map { b.measure($0, width: width).height }
        let total = heights.reduce(0, +) + Double(max(0, runs.count - 1)) * 6
        var y = top ? bounds.minY + pad : bounds.maxY - pad - total
        y = max(bounds.minY + 4, y)
        for (r, h) in zip(runs, heights) {
            b.addText(r, x: bounds.minX + pad, y: y, width: width, maxY: bounds.maxY - 2)
            y += h + 6
        }
    }

    func shadowed(_ r: TextRun) -> TextRun {
        var r = r
        r.shadow = true
        return r
    }
}

/// The seed's list detection for the secondary text (`parseListIfPossible`).
enum ListParser {
    struct Item {
        var text: String
        var done: Bool
    }
    struct List {
        var items: [Item]
        var isChecklist: Bool
        var doneCount: Int { items.filter(\.done).count }
    }

    static func parse(_ text: String) -> List? {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmingCharactersInWhitespace() }.filter {
            !$0.isEmpty
        }
        guard lines.count >= 2 else { return nil }
        var items: [Item] = []
        var prefixed = 0
        var checkbox = false
        for line in lines {
            let (body, kind) = strip(line)
            if kind != .none { prefixed += 1 }
            if kind == .checkOpen || kind == .checkDone { checkbox = true }
            items.append(Item(text: body, done: kind == .checkDone))
        }
        guard prefixed >= 2 else { return nil }
        return List(items: items, isChecklist: checkbox || items.contains(where: \.done))
    }

    enum Kind { case none, bullet, checkOpen, checkDone }

    static func strip(_ line: String) -> (String, Kind) {
        let checks: [(String, Kind)] = [
            ("- [ ]", .checkOpen), ("- [x]", .checkDone), ("- [X]", .checkDone), ("* [ ]", .checkOpen),
            ("* [x]", .checkDone), ("[ ]", .checkOpen), ("[x]", .checkDone), ("[X]", .checkDone),
            ("✅", .checkDone), ("☑", .checkDone), ("✔", .checkDone), ("✓", .checkDone), ("☐", .checkOpen),
            ("x ", .checkDone),
        ]
        for (p, k) in checks where line.hasPrefix(p) {
            return (String(line.dropFirst(p.count)).trimmingCharactersInWhitespace(), k)
        }
        for p in ["•", "-", "*", "–", "—", "·"] where line.hasPrefix(p) {
            return (String(line.dropFirst(p.count)).trimmingCharactersInWhitespace(), .bullet)
        }
        // "1." / "1)"
        let digits = line.prefix { $0.isNumber }
        if !digits.isEmpty, digits.count <= 3 {
            let rest = line.dropFirst(digits.count)
            if rest.hasPrefix(".") || rest.hasPrefix(")") {
                return (String(rest.dropFirst()).trimmingCharactersInWhitespace(), .bullet)
            }
        }
        return (line, .none)
    }
}

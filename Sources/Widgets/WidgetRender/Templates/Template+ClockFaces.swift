import Foundation
import WidgetDesign

/// The three clock faces of the seed app's Clock (Designer), laid out as elements (discs, lines,
/// polygons, text) in the tree. Proportions follow the seed's face views, as fractions of the
/// dial radius R; sizes the seed draws below a pixel at widget size (second-hand width, pips,
/// minute dots) have a floor so they still show.
///
/// - **Ceramic** (legacy; 4 numerals): near-black domed dial, 60 minute dots, metal batons with
///   accent caps at the eight other hours, accent pips at 3, 6 and 9, numerals 12/3/6/9, a
///   wedge hour hand, needle minute hand, accent second hand.
/// - **Icon** (12 numerals): a flat dial in the dial colour, 60 ticks (longer every five), twelve
///   numerals, a tapered hour hand, needle minute hand, and the chosen second-hand colour.
/// - **Segmented**: a gunmetal bezel, a ring of twelve olive blocks carrying upright numerals,
///   matte ticks inside, bar hands, a yellow second hand with end bar and counterweight.
extension TemplateContext {
    func clockFace(
        _ face: ClockFaceToken, centre: Point, outerRadius: Double, palette p: ClockFacePalette, hands: ClockHandAngles
    ) {
        switch face {
        case .ceramic: ceramicFace(centre: centre, outerRadius: outerRadius, p, hands)
        case .icon: iconFace(centre: centre, outerRadius: outerRadius, p, hands)
        case .segmented: segmentedFace(centre: centre, outerRadius: outerRadius, p, hands)
        }
    }

    // MARK: - Faces

    func ceramicFace(centre c: Point, outerRadius: Double, _ p: ClockFacePalette, _ hands: ClockHandAngles) {
        let r = metalBezel(c, outerRadius, p)
        domedDial(c, r, p)
        // Minute dots (the pips stand in for them at 3, 6 and 9).
        let dot = max(1.3, r * 0.016)
        for i in 0..<60 where i == 0 || i % 15 != 0 {
            disc(ClockGeometry.point(c, r * 0.922, Double(i) * 6), dot / 2, .solid(p.minuteDot))
        }
        // Batons with accent caps at the hours without a numeral.
        let batonLength = r * 0.155, batonWidth = max(2, r * 0.034), cap = max(1.5, r * 0.026)
        for h in [1, 2, 4, 5, 7, 8, 10, 11] {
            let deg = Double(h) * 30
            let outer = r * 0.815 + batonLength / 2
            polygon(
                ClockGeometry.bar(
                    c, degrees: deg, inner: outer - batonLength, outer: outer, baseWidth: batonWidth,
                    tipWidth: batonWidth),
                metal(c, r, [p.batonBright, p.batonMid, p.batonDark]))
            polygon(
                ClockGeometry.bar(
                    c, degrees: deg, inner: outer - cap, outer: outer, baseWidth: batonWidth, tipWidth: batonWidth),
                .solid(p.accent))
        }
        let pip = max(2.6, r * 0.036)
        for h in [3, 6, 9] {
            let at = ClockGeometry.point(c, r * 0.922, Double(h) * 30)
            b.fill(
                Rect(x: at.x - pip / 2, y: at.y - pip / 2, width: pip, height: pip), .solid(p.accent),
                radius: pip * 0.32)
        }
        for (n, deg) in [("12", 0.0), ("3", 90), ("6", 180), ("9", 270)] {
            numeral(n, at: ClockGeometry.point(c, r * 0.70, deg), size: r * 0.30, weight: 700, colour: p.numeral)
        }
        hourHand(c, r, p, hands.hour, length: r * 0.52, width: r * 0.18, tipFraction: 0)
        minuteNeedle(c, r, p, hands.minute, length: r * 0.84, width: max(2, r * 0.034))
        secondHand(
            c, hands.second, length: r * 0.90, width: max(1, r * 0.012), tip: max(2.6, r * 0.035), colour: p.secondHand)
        hub(c, base: max(3, r * 0.047), cap: max(2, r * 0.027), p)
    }

    func iconFace(centre c: Point, outerRadius: Double, _ p: ClockFacePalette, _ hands: ClockHandAngles) {
        let r = metalBezel(c, outerRadius, p)
        let dial = ClockGeometry.disc(c, r)
        b.add(
            .shape, dial,
            .ellipse(fill: .solid(p.iconDial), stroke: p.dialEdge.opacity(0.22), strokeWidth: max(0.6, r * 0.013)))
        for i in 0..<60 {
            let major = i % 5 == 0
            let length = r * (major ? 0.115 : 0.062)
            let from = ClockGeometry.point(c, r * 0.95 - length, Double(i) * 6),
                to = ClockGeometry.point(c, r * 0.95, Double(i) * 6)
            b.add(
                .line, ClockGeometry.bounds([from, to]),
                .line(
                    from: from, to: to, colour: major ? p.majorTick : p.minorTick,
                    width: major ? max(1.4, r * 0.024) : max(0.6, r * 0.009), roundCaps: false))
        }
        // Twelve numerals on a 0.72 R circle, each drawn in closer where it would reach the ticks
        // (the wide "10", "11", "12" and their neighbours).
        for n in 1...12 {
            numeral(
                "\(n)", centreRadius: r * 0.72, within: r * 0.795, c, degrees: Double(n) * 30, size: r * 0.22,
                weight: 700, colour: p.numeral)
        }
        hourHand(c, r, p, hands.hour, length: r * 0.52, width: r * 0.18, tipFraction: 0.42)
        minuteNeedle(c, r, p, hands.minute, length: r * 0.84, width: max(2, r * 0.046))
        secondHand(
            c, hands.second, length: r * 0.90, width: max(1, r * 0.012), tip: max(2.6, r * 0.035), colour: p.secondHand)
        hub(c, base: max(2.6, r * 0.034), cap: max(2, r * 0.027), p)
    }

    func segmentedFace(centre c: Point, outerRadius ro: Double, _ p: ClockFacePalette, _ hands: ClockHandAngles) {
        let r = ro * 0.90
        // Gunmetal bezel, lit from the top-leading side, with a dark gutter before the ring.
        shadowRing(c, ro)
        b.add(
            .shape, ClockGeometry.disc(c, ro),
            .ellipse(
                fill: metal(c, ro, ClockFacePalette.segmentedBezel.reversed()), stroke: RGBA.black.opacity(0.55),
                strokeWidth: 1))
        b.add(
            .shape, ClockGeometry.disc(c, r + max(1, r * 0.02)),
            .ellipse(fill: .solid(RGBA(hex: 0x07090C)), stroke: nil, strokeWidth: 0))
        domedDial(c, r, p)
        // The ring: a dark bed, twelve olive blocks with a hairline gap, upright numerals.
        let bedOuter = r * 0.985, bedInner = r * 0.79, channel = max(0.8, r * 0.012)
        b.add(
            .ring, ClockGeometry.disc(c, bedOuter),
            .arc(
                colour: ClockFacePalette.segmentedBed, lineWidth: bedOuter - bedInner, startDegrees: 0, endDegrees: 360,
                roundCaps: false))
        let blockOuter = bedOuter - channel, blockInner = bedInner + channel, mid = (blockOuter + blockInner) / 2
        let gapDegrees = max(1.2, r * 0.02) / mid * 180 / .pi
        for h in 0..<12 {
            let deg = Double(h) * 30
            let points = ClockGeometry.sector(
                c, inner: blockInner, outer: blockOuter, start: deg - 15 + gapDegrees / 2,
                end: deg + 15 - gapDegrees / 2)
            let box = ClockGeometry.bounds(points)
            let stops = h % 2 == 0 ? ClockFacePalette.segmentedBlockEven : ClockFacePalette.segmentedBlockOdd
            polygon(points, metal(box, stops))
            b.add(
                .ring, ClockGeometry.disc(c, blockOuter),
                .arc(
                    colour: RGBA.white.opacity(0.16), lineWidth: max(0.6, r * 0.008),
                    startDegrees: deg - 15 + gapDegrees / 2, endDegrees: deg + 15 - gapDegrees / 2, roundCaps: false))
            numeral(
                h == 0 ? "12" : "\(h)", at: ClockGeometry.point(c, mid, deg), size: (blockOuter - blockInner) * 0.78,
                weight: 800,
                colour: ClockFacePalette.segmentedNumeral)
        }
        // Ticks inside the ring: blocky every five minutes, thin otherwise.
        let tickOuter = bedInner - r * 0.035
        for i in 0..<60 {
            let five = i % 5 == 0
            let length = r * (five ? 0.07 : 0.045)
            let from = ClockGeometry.point(c, tickOuter - length, Double(i) * 6),
                to = ClockGeometry.point(c, tickOuter, Double(i) * 6)
            b.add(
                .line, ClockGeometry.bounds([from, to]),
                .line(
                    from: from, to: to, colour: ClockFacePalette.segmentedTick.opacity(five ? 0.78 : 0.48),
                    width: five ? max(2, r * 0.036) : max(0.7, r * 0.014), roundCaps: false))
        }
        // Bar hands, then the yellow second hand with its end bar and counterweight.
        let hour = ClockGeometry.bar(
            c, degrees: hands.hour, inner: 0, outer: r * 0.50, baseWidth: r * 0.17, tipWidth: r * 0.17 * 0.68)
        let minute = ClockGeometry.bar(
            c, degrees: hands.minute, inner: 0, outer: r * 0.74, baseWidth: r * 0.13, tipWidth: r * 0.13 * 0.86)
        for (shape, width) in [(hour, r * 0.17), (minute, r * 0.13)] {
            let d = max(1, width * 0.07)
            polygon(ClockGeometry.offset(shape, dx: d, dy: d), .solid(p.handShadow.opacity(0.7)))
            polygon(shape, metal(c, r, [p.handLight, p.handMid, p.handDark]))
        }
        let yellow = metal(c, r, ClockFacePalette.segmentedSecond)
        let stem = max(1, r * 0.014), tip = ClockGeometry.point(c, r * 0.74, hands.second)
        polygon(
            ClockGeometry.bar(c, degrees: hands.second, inner: 0, outer: r * 0.74, baseWidth: stem, tipWidth: stem),
            yellow)
        let endBar = max(5, r * 0.075)
        polygon(
            ClockGeometry.bar(
                tip, degrees: hands.second + 90, inner: -endBar / 2, outer: endBar / 2, baseWidth: max(1.5, stem * 1.6),
                tipWidth: max(1.5, stem * 1.6)), yellow)
        polygon(leaf(c, degrees: hands.second + 180, length: r * 0.16, width: max(3, r * 0.045)), yellow)
        disc(
            c, max(4, r * 0.10),
            .radial(
                centre: Point(x: c.x - r * 0.03, y: c.y - r * 0.03), radius: r * 0.12,
                stops: [GradientStop(0, RGBA(hex: 0x3A4150)), GradientStop(1, p.hubBase)]))
        disc(
            c, max(2, r * 0.052),
            .radial(
                centre: Point(x: c.x - r * 0.02, y: c.y - r * 0.02), radius: r * 0.07,
                stops: [GradientStop(0, p.hubCapLight), GradientStop(1, p.hubCapDark)]))
    }

    // MARK: - Shared pieces

    /// The Ceramic and Icon bezel: a soft shadow, a thin metal rim (ring A), a deep matte ring
    /// (B) and a faint inner ring (C), in the seed's proportions. Returns the dial radius.
    func metalBezel(_ c: Point, _ ro: Double, _ p: ClockFacePalette) -> Double {
        let r = ro / 1.062
        let ringA = max(0.8, r * 0.010), ringC = max(0.6, r * 0.0095)
        shadowRing(c, ro)
        b.add(
            .shape, ClockGeometry.disc(c, ro),
            .ellipse(fill: metal(c, ro, [p.bezelBright, p.bezelMid, p.bezelDark]), stroke: nil, strokeWidth: 0))
        b.add(
            .shape, ClockGeometry.disc(c, ro - ringA),
            .ellipse(fill: metal(c, ro, p.bezelMatte), stroke: nil, strokeWidth: 0))
        b.add(
            .shape, ClockGeometry.disc(c, r + ringC),
            .ellipse(
                fill: metal(c, r, [RGBA.white.opacity(0.22), RGBA.white.opacity(0.06), RGBA.black.opacity(0.22)]),
                stroke: nil, strokeWidth: 0))
        return r
    }

    /// A soft shadow just outside the bezel.
    func shadowRing(_ c: Point, _ ro: Double) {
        let spread = max(3, ro * 0.05)
        b.add(
            .shape, ClockGeometry.disc(c, ro + spread),
            .ellipse(
                fill: .radial(
                    centre: Point(x: c.x, y: c.y + spread * 0.3), radius: ro + spread,
                    stops: [
                        GradientStop(0, RGBA.black.opacity(0.32)),
                        GradientStop((ro - 1) / (ro + spread), RGBA.black.opacity(0.32)),
                        GradientStop(1, RGBA.black.opacity(0)),
                    ]), stroke: nil, strokeWidth: 0))
    }

    /// The Ceramic (and Segmented) dial: centre → mid → edge, a vignette, a faint dome
    /// highlight towards the top-leading side, and a dark occlusion line at the edge.
    func domedDial(_ c: Point, _ r: Double, _ p: ClockFacePalette) {
        let dial = ClockGeometry.disc(c, r)
        b.add(
            .shape, dial,
            .ellipse(
                fill: .radial(
                    centre: c, radius: r,
                    stops: [GradientStop(0, p.dialCentre), GradientStop(0.6, p.dialMid), GradientStop(1, p.dialEdge)]),
                stroke: nil, strokeWidth: 0))
        b.add(
            .shape, dial,
            .ellipse(
                fill: .radial(
                    centre: c, radius: r,
                    stops: [GradientStop(0.55, RGBA.black.opacity(0)), GradientStop(1, RGBA.black.opacity(0.22))]),
                stroke: nil, strokeWidth: 0))
        b.add(
            .shape, dial,
            .ellipse(
                fill: .radial(
                    centre: ClockGeometry.point(c, r * 0.35, -45), radius: r * 0.8,
                    stops: [GradientStop(0, RGBA.white.opacity(0.06)), GradientStop(1, RGBA.white.opacity(0))]),
                stroke: p.dialEdge, strokeWidth: max(1, r * 0.013)))
    }

    /// The seed's hour hand: a short stem from the hub, then a wedge (`tipFraction` 0, Ceramic)
    /// or a taper to `tipFraction` of the width (Icon), over an offset shadow.
    func hourHand(
        _ c: Point, _ r: Double, _ p: ClockFacePalette, _ degrees: Double, length: Double, width: Double,
        tipFraction: Double
    ) {
        let stemLength = length * 0.20
        let stem = ClockGeometry.bar(
            c, degrees: degrees, inner: 0, outer: stemLength, baseWidth: width * 0.40, tipWidth: width * 0.40)
        let blade = ClockGeometry.bar(
            c, degrees: degrees, inner: stemLength * 0.9, outer: length, baseWidth: width * 0.92,
            tipWidth: width * tipFraction)
        let d = max(1, width * 0.06)
        polygon(ClockGeometry.offset(stem, dx: d, dy: d), .solid(p.handShadow.opacity(0.42)))
        polygon(ClockGeometry.offset(blade, dx: d, dy: d), .solid(p.handShadow.opacity(0.55)))
        let paint = metal(c, r, [p.handLight, p.handMid, p.handDark])
        polygon(stem, paint)
        polygon(blade, paint)
    }

    /// The seed's minute needle: a straight shaft ending in a point as long as the hand is wide.
    func minuteNeedle(_ c: Point, _ r: Double, _ p: ClockFacePalette, _ degrees: Double, length: Double, width: Double)
    {
        let needle = ClockGeometry.bar(
            c, degrees: degrees, inner: 0, outer: length, baseWidth: width * 0.8, tipWidth: 0,
            taperFrom: length - width * 0.95)
        let d = max(1, width * 0.3)
        polygon(ClockGeometry.offset(needle, dx: d, dy: d), .solid(p.handShadow.opacity(0.40)))
        polygon(needle, metal(c, r, [p.handLight, p.handMid, p.handDark]))
    }

    /// A thin second hand ending in a small square.
    func secondHand(_ c: Point, _ degrees: Double, length: Double, width: Double, tip: Double, colour: RGBA) {
        polygon(
            ClockGeometry.bar(c, degrees: degrees, inner: 0, outer: length, baseWidth: width, tipWidth: width),
            .solid(colour.opacity(0.92)))
        polygon(
            ClockGeometry.bar(
                c, degrees: degrees, inner: length - tip / 2, outer: length + tip / 2, baseWidth: tip, tipWidth: tip),
            .solid(colour))
    }

    /// Two stacked discs: the dark base and a lit metal cap.
    func hub(_ c: Point, base: Double, cap: Double, _ p: ClockFacePalette) {
        disc(c, base, .solid(p.hubBase))
        disc(
            c, cap,
            .radial(
                centre: Point(x: c.x - cap * 0.5, y: c.y - cap * 0.5), radius: cap * 1.9,
                stops: [GradientStop(0, p.hubCapLight), GradientStop(1, p.hubCapDark)]))
    }

    /// A lens-shaped counterweight from the centre towards `degrees`.
    func leaf(_ c: Point, degrees: Double, length: Double, width: Double) -> [Point] {
        var side: [Point] = [], other: [Point] = []
        for i in 0...10 {
            let f = Double(i) / 10
            let half = width / 2 * sin(.pi * f)
            let along = ClockGeometry.point(c, length * f, degrees)
            side.append(ClockGeometry.point(along, half, degrees + 90))
            other.append(ClockGeometry.point(along, half, degrees - 90))
        }
        return side + other.reversed()
    }

    // MARK: - Elements

    func polygon(_ points: [Point], _ paint: Paint) {
        b.add(.shape, ClockGeometry.bounds(points), .polygon(points: points, fill: paint))
    }

    func disc(_ c: Point, _ radius: Double, _ paint: Paint) {
        b.add(.shape, ClockGeometry.disc(c, radius), .ellipse(fill: paint, stroke: nil, strokeWidth: 0))
    }

    /// Metal lit from the top-leading corner: `stops` spread evenly across the box around the
    /// face (light → mid → dark), so every hand and mark shares one light direction.
    func metal(_ c: Point, _ radius: Double, _ stops: [RGBA]) -> Paint {
        metal(ClockGeometry.disc(c, radius), stops)
    }

    func metal(_ box: Rect, _ stops: [RGBA]) -> Paint {
        let n = Double(max(1, stops.count - 1))
        return .linear(
            start: Point(x: box.minX, y: box.minY), end: Point(x: box.maxX, y: box.maxY),
            stops: stops.enumerated().map { GradientStop(Double($0.offset) / n, $0.element) })
    }

    /// A numeral centred on `at`.
    func numeral(_ text: String, at: Point, size: Double, weight: Int, colour: RGBA) {
        let t = run(text, size: size, weight: weight, colour: colour, tabular: true)
        let m = b.measure(t, width: size * 4)
        b.addText(t, x: at.x - m.width / 2, y: at.y - m.height / 2, width: m.width + 0.5)
    }

    /// A numeral towards `degrees`, centred `centreRadius` from the face's centre, or closer when
    /// its digits (their width, and the figure height, 0.73 em in Inter) would reach past `within`.
    func numeral(
        _ text: String, centreRadius: Double, within: Double, _ c: Point, degrees: Double, size: Double, weight: Int,
        colour: RGBA
    ) {
        let m = b.measure(run(text, size: size, weight: weight, colour: colour, tabular: true), width: size * 4)
        let a = degrees * .pi / 180
        let reach = abs(sin(a)) * m.width / 2 + abs(cos(a)) * size * 0.73 / 2
        numeral(
            text, at: ClockGeometry.point(c, min(centreRadius, within - reach), degrees), size: size, weight: weight,
            colour: colour)
    }
}

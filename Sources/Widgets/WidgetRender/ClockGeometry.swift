import Foundation

/// Plain geometry for clock faces, in widget points. Angles are degrees clockwise from 12
/// o'clock; a radius is measured from the face's centre.
enum ClockGeometry {
    /// The point `radius` from `centre` towards `degrees`.
    static func point(_ centre: Point, _ radius: Double, _ degrees: Double) -> Point {
        let a = degrees * .pi / 180
        return Point(x: centre.x + sin(a) * radius, y: centre.y - cos(a) * radius)
    }

    /// A radial bar from `inner` to `outer` along `degrees`: `baseWidth` wide at `inner`,
    /// `tipWidth` at `outer` (0: a point). With `taperFrom` the sides stay `baseWidth` apart up to
    /// that radius and only then narrow to the tip (a needle).
    static func bar(
        _ centre: Point, degrees: Double, inner: Double, outer: Double, baseWidth: Double, tipWidth: Double,
        taperFrom: Double? = nil
    ) -> [Point] {
        let a = degrees * .pi / 180
        let u = (x: sin(a), y: -cos(a)), n = (x: cos(a), y: sin(a))
        func at(_ r: Double, _ side: Double) -> Point {
            Point(x: centre.x + u.x * r + n.x * side, y: centre.y + u.y * r + n.y * side)
        }
        var left = [at(inner, -baseWidth / 2)], right = [at(inner, baseWidth / 2)]
        if let taperFrom, taperFrom > inner, taperFrom < outer {
            left.append(at(taperFrom, -baseWidth / 2))
            right.append(at(taperFrom, baseWidth / 2))
        }
        if tipWidth > 0 {
            left.append(at(outer, -tipWidth / 2))
            right.append(at(outer, tipWidth / 2))
        } else {
            left.append(at(outer, 0))
        }
        return left + right.reversed()
    }

    /// An annular sector between `inner` and `outer` from `start` to `end` degrees, the arcs
    /// as straight segments at most ~2° long.
    static func sector(_ centre: Point, inner: Double, outer: Double, start: Double, end: Double) -> [Point] {
        let steps = max(2, Int((abs(end - start) / 2).rounded(.up)))
        var points: [Point] = []
        for i in 0...steps { points.append(point(centre, outer, start + (end - start) * Double(i) / Double(steps))) }
        for i in (0...steps).reversed() {
            points.append(point(centre, inner, start + (end - start) * Double(i) / Double(steps)))
        }
        return points
    }

    /// The smallest rectangle holding `points`.
    static func bounds(_ points: [Point]) -> Rect {
        let xs = points.map(\.x), ys = points.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    static func offset(_ points: [Point], dx: Double, dy: Double) -> [Point] {
        points.map { Point(x: $0.x + dx, y: $0.y + dy) }
    }

    /// A circle's rect.
    static func disc(_ centre: Point, _ radius: Double) -> Rect {
        Rect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)
    }
}

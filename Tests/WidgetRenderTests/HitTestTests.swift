import Foundation
import TestSupport
import Testing
import WidgetDataKeys
import WidgetDesign

@testable import WidgetRender

@Suite struct HitTestTests {
    let renderer = WidgetRenderer()

    func noise(_ f: WidgetFamily) -> WidgetLayout {
        renderer.layout(design: Fixtures.design("noise-machine"), family: f, scale: 2, inputs: Fixtures.inputs())
    }

    @Test func actionAtAPointIsTheButtonUnderIt() throws {
        let l = noise(.small)
        for a in l.actions {
            let centre = Point(x: a.rect.midX, y: a.rect.midY)
            #expect(l.action(at: centre)?.id == a.id)
        }
        let third = try #require(l.actions.first { $0.layer == 3 })
        #expect(l.action(at: Point(x: third.rect.minX + 1, y: third.rect.minY + 1))?.kind == .toggleLayer)
        #expect(l.action(at: Point(x: third.rect.maxX, y: third.rect.midY))?.layer != 3)  // right edge is outside
    }

    @Test func emptySpaceFindsNoActionButNamesTheNearest() throws {
        let l = noise(.small)
        // Between the header and the layer row there is no button.
        let p = Point(x: 150, y: 100)
        #expect(l.action(at: p) == nil)
        let nearest = try #require(l.nearestAction(to: p))
        #expect(nearest.action.kind == .toggleLayer && nearest.action.layer == 4)
        #expect(nearest.distance > 0 && nearest.distance < 30)
    }

    @Test func noActionsMeansNoNearest() {
        let l = renderer.layout(design: Fixtures.design("classic"), family: .small, scale: 2, inputs: Fixtures.inputs())
        #expect(l.actions.isEmpty && l.nearestAction(to: Point(x: 1, y: 1)) == nil)
    }

    @Test func actionsDoNotOverlap() {
        for f in WidgetFamily.allCases {
            let l = noise(f)
            for (i, a) in l.actions.enumerated() {
                for b in l.actions[(i + 1)...] {
                    let overlaps =
                        a.rect.minX < b.rect.maxX && b.rect.minX < a.rect.maxX && a.rect.minY < b.rect.maxY
                        && b.rect.minY < a.rect.maxY
                    #expect(!overlaps, "\(f): \(a.id) overlaps \(b.id)")
                }
            }
        }
    }
}

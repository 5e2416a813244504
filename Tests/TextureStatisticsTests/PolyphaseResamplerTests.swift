import Foundation
import Testing

@testable import TextureStatistics

@Suite struct PolyphaseResamplerTests {
    static func tone(_ hz: Double, rate: Double, seconds: Double) -> [Double] {
        (0..<Int(rate * seconds)).map { sin(2 * Double.pi * hz * Double($0) / rate) }
    }

    static func rms(_ x: ArraySlice<Double>) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(x.count)).squareRoot() }

    @Test func keepsTonesBelowTheNewNyquistAndRemovesThoseAbove() {
        let r = PolyphaseResampler(inputRate: 44100, outputRate: 20000)
        #expect(r.up == 200 && r.down == 441)
        let x = Self.tone(1000, rate: 44100, seconds: 1)
        let y = r.process(x)
        #expect(y.count == 20000)
        let middle = y[2000..<18000]
        #expect(abs(Self.rms(middle) - 0.5.squareRoot()) < 0.005, "\(Self.rms(middle))")
        // The same tone at the new rate, sample for sample (no delay).
        let want = Self.tone(1000, rate: 20000, seconds: 1)
        let err = zip(middle, want[2000..<18000]).map { abs($0 - $1) }.max()!
        #expect(err < 0.01, "\(err)")
        let high = r.process(Self.tone(15000, rate: 44100, seconds: 1))
        #expect(Self.rms(high[2000..<18000]) < 0.003, "aliased: \(Self.rms(high[2000..<18000]))")
    }

    @Test func decimatingKeepsDCAndLength() {
        let r = PolyphaseResampler(up: 1, down: 50)
        let y = r.process([Double](repeating: 1, count: 10_001))
        #expect(y.count == 201)
        #expect(abs(y[100] - 1) < 1e-3)
        #expect(y[0] < 0.6)  // the signal is zero before its start
    }
}

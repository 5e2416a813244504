/// A parameter that moves to a new target along a straight line over a set number of frames
/// (AudioKit's `ParameterRamper`), then lands exactly on the target, so no rounding drift builds up.
///
/// Real-time safety: plain arithmetic; no allocation.
public struct ParameterRamp: Sendable {
    public private(set) var value: Float
    public private(set) var target: Float
    var step: Float = 0
    var remainingFrames: Int = 0

    public init(_ value: Float) {
        self.value = value
        self.target = value
    }

    public var isRamping: Bool { remainingFrames > 0 }

    /// Heads for `target`, arriving after `frames` frames (0: jump now).
    public mutating func setTarget(_ target: Float, frames: Int) {
        self.target = target
        if frames <= 0 || target == value {
            value = target
            remainingFrames = 0
            step = 0
        } else {
            step = (target - value) / Float(frames)
            remainingFrames = frames
        }
    }

    /// Moves `frames` frames along the line and returns the new value.
    @discardableResult
    public mutating func advance(_ frames: Int) -> Float {
        if remainingFrames > 0 {
            if frames >= remainingFrames {
                value = target
                remainingFrames = 0
            } else {
                value += step * Float(frames)
                remainingFrames -= frames
            }
        }
        return value
    }
}

import Testing

@testable import NoiseDSP

/// A texture faded to noise lets go of its voices in the sub-block the fade ends: the layer stops
/// rendering the texture from then on, so voices kept past that point would ring again, from
/// mid-life, when a texture fades back in.
@Suite struct TextureFadeOutTests {
    @Test func aFadeToNoiseEndsWithNoVoicesLeft() {
        let generator = TextureGenerator(sampleRate: 48000, channelCount: 2, seed: 7, frameCapacity: 480)
        generator.reseed(7)
        generator.set(TextureSettings(kind: .drops, densityPerSecond: 200, brightness: 0.6))
        var blocks = 0
        while generator.activeCount == 0 && blocks < 100 {
            generator.render(frameCount: 480)
            blocks += 1
        }
        #expect(generator.activeCount > 0, "200 drops a second start a voice within a second")
        // A 20 ms fade to noise: exactly two sub-blocks of 480 frames.
        generator.set(.noise, rampFrames: 960)
        generator.render(frameCount: 480)
        #expect(generator.isActive)
        generator.render(frameCount: 480)
        #expect(!generator.isActive, "the fade has reached noise, so the layer renders no more texture")
        #expect(generator.activeCount == 0)
    }
}

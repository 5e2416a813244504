import NoiseDSP
import AudioOutput
public enum NoiseEngineModule {}

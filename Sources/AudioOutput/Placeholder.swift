import CPulse
import CALSA
import CNoiseSupport
public enum AudioOutputModule {}

import Hummingbird

public enum HomeScreenModule {}

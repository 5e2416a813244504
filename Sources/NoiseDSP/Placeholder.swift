public enum NoiseDSPModule {}

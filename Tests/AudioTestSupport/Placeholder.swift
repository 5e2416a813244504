public enum AudioTestSupportModule {}

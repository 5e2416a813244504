// The widget design model lives here (issue 6).
public enum WidgetDesignModule {}

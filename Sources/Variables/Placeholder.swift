// The template variables engine lives here (issue 5).
public enum VariablesModule {}

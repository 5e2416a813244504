import CBuildStamp

/// What `noise --version` and `weaver --version` print.
public enum BuildInfo {
    /// The release number. The Makefile reads it from here for the Debian package.
    public static let version = "0.10.0"
    /// Short git commit (with "-dirty" when the tree had changes), or "unknown".
    public static let gitCommit = String(cString: cbs_git_commit())
    /// yyyy-mm-dd (UTC), or "unknown".
    public static let buildDate = String(cString: cbs_build_date())

    /// `0.10.0 (commit 1a2b3c4d5e6f, built 2026-11-23)`.
    public static var versionLine: String { "\(version) (commit \(gitCommit), built \(buildDate))" }
}

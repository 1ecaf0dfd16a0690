import ArgumentParser

/// The exit statuses showhide documents in Docs/Usage.md.
public enum ExitStatus {
    /// Everything asked for was done.
    public static let success = ExitCode(0)
    /// The command ran, but some files could not be read or processed; they are listed.
    public static let someFilesFailed = ExitCode(1)
    /// What was asked for does not exist (a photo id not in the catalogue).
    public static let notFound = ExitCode(2)
    /// A wrong argument or option (ArgumentParser's usage status, EX_USAGE).
    public static let usage = ExitCode(64)
    /// The catalogue or another resource the whole command needs could not be opened (EX_UNAVAILABLE).
    public static let unavailable = ExitCode(69)
    /// The export's folder or zip file could not be written, or exists and may not be replaced (EX_CANTCREAT).
    public static let cannotCreate = ExitCode(73)
}

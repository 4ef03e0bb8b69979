import Foundation

/// Where command output goes: results to standard output, diagnostics to standard error.
/// Diagnostics quote what scripts, state files and arguments hold, so their control characters
/// are shown escaped (`VisibleText`), never sent to the terminal.
enum Terminal {
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes text as it is, without a newline.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ line: String) {
        diagnostic("wayfinder: " + line)
    }

    /// A line for the person at the terminal, on standard error.
    static func note(_ line: String) {
        diagnostic(line)
    }

    static func warning(_ line: String) {
        diagnostic("warning: " + line)
    }

    /// What a script prints or warns, on standard error (never mixed into a command's results).
    static func scriptOutput(_ text: String) {
        diagnostic(text)
    }

    private static func diagnostic(_ text: String) {
        FileHandle.standardError.write(Data((VisibleText.escapedKeepingLayout(text) + "\n").utf8))
    }
}

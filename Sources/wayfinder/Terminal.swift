import Foundation

/// Where command output goes: results to standard output, diagnostics to standard error.
enum Terminal {
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes text as it is, without a newline.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data(("wayfinder: " + line + "\n").utf8))
    }

    /// A line for the person at the terminal, on standard error, as it is.
    static func note(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func warning(_ line: String) {
        FileHandle.standardError.write(Data(("warning: " + line + "\n").utf8))
    }
}

import Foundation
import WayfinderLua
#if canImport(Glibc)
import Glibc
#endif

/// What `wayfinder run` waits for: a command line typed (or piped) on standard input, or, with
/// `--watch`, a change to the app's files. Standard input is read as it comes (not through
/// stdio's buffer) so both can be waited for at once with `poll(2)`. On a terminal (`editing`)
/// it is read key by key in raw mode through the line editor (arrows, history, Ctrl keys);
/// otherwise line by line, as a script feeds it.
final class CommandInput {
    enum Event: Equatable {
        case line(String)
        case filesChanged([String])
        case end
    }

    private let watcher: DirectoryWatcher?
    private var pending: [UInt8] = []
    private var ended = false
    private var rawMode: RawMode?
    private var decoder = KeyDecoder()
    private var editor = LineEditor()
    private var keys: [KeyDecoder.Key] = []
    /// The line being edited as the terminal shows it (typing into a secret field masked), one
    /// character for each typed.
    var shown: (String) -> String = { $0 }

    init(watcher: DirectoryWatcher?, editing: Bool = false) {
        self.watcher = watcher
        if editing { rawMode = RawMode(STDIN_FILENO) }
    }

    /// Gives the terminal back its own settings (also done when this goes).
    func close() {
        rawMode?.restore()
        rawMode = nil
    }

    func next() -> Event {
        guard rawMode != nil else { return nextLine() }
        redrawLine()
        while true {
            while !keys.isEmpty {
                switch editor.handle(keys.removeFirst()) {
                case .editing:
                    if keys.isEmpty { redrawLine() }
                case .submitted(let line):
                    Terminal.write("\n")
                    return .line(line)
                case .ended:
                    Terminal.write("\n")
                    return .end
                }
            }
            if ended { return .end }
            if let watcher {
                let changed = watcher.changes()
                if !changed.isEmpty { return .filesChanged(changed) }
            }
            waitForInput()
        }
    }

    /// The prompt and the line being edited, the cursor where the editor has it.
    private func redrawLine() {
        let back = editor.text.count - editor.cursor
        Terminal.write("\r\u{1B}[K> " + shown(editor.line) + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }

    private func nextLine() -> Event {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
            if ended {
                guard pending.isEmpty else {
                    defer { pending = [] }
                    return .line(String(decoding: pending, as: UTF8.self))
                }
                return .end
            }
            if let watcher {
                let changed = watcher.changes()
                if !changed.isEmpty { return .filesChanged(changed) }
            }
            waitForInput()
        }
    }

    /// Blocks until standard input has something (or ends), or the watcher may have news.
    private func waitForInput() {
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        if let fd = watcher?.fileDescriptor { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), watcher?.pollTimeout ?? -1)
        if ready < 0 && errno != EINTR {
            ended = true
            return
        }
        guard descriptors[0].revents != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            if rawMode != nil {
                keys += decoder.keys(Array(buffer[..<count]))
            } else {
                pending += buffer[..<count]
            }
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            ended = true
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// The terminal without its own line editing and echo, so `wayfinder run` reads keys as they are
/// typed; the settings it had are put back by `restore` (and when this goes). Ctrl-C arrives as
/// a key too (it quits), so the terminal is never left raw by a signal.
final class RawMode {
    private let descriptor: Int32
    private var saved = termios()
    private var active = false

    /// nil when `descriptor` is not a terminal.
    init?(_ descriptor: Int32) {
        self.descriptor = descriptor
        guard tcgetattr(descriptor, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
        active = true
    }

    func restore() {
        guard active else { return }
        active = false
        _ = tcsetattr(descriptor, TCSANOW, &saved)
    }

    deinit { restore() }
}

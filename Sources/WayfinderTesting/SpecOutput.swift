import CLuaShim
import Foundation

/// A spec file's `io.stdout` or `io.stderr` (lua/wayfinder/spec_io.lua): what it writes goes where
/// its print goes, a line at a time. A line not yet ended waits for its end or the test's end
/// (``endLine()``); one longer than ``lineLimit`` goes in pieces of that length.
final class SpecOutput {
    /// The most bytes a line not yet ended is kept for.
    static let lineLimit = 1 << 20

    private let sink: (String) -> Void
    private var pending = [UInt8]()

    init(sink: @escaping (String) -> Void) {
        self.sink = sink
    }

    func take(_ bytes: UnsafeBufferPointer<UInt8>) {
        pending.append(contentsOf: bytes)
        if let end = pending.lastIndex(of: UInt8(ascii: "\n")) {
            sink(String(decoding: pending[..<end], as: UTF8.self))
            pending.removeSubrange(...end)
        }
        while pending.count >= Self.lineLimit {
            sink(String(decoding: pending.prefix(Self.lineLimit), as: UTF8.self))
            pending.removeFirst(Self.lineLimit)
        }
    }

    func endLine() {
        guard !pending.isEmpty else { return }
        sink(String(decoding: pending, as: UTF8.self))
        pending.removeAll()
    }

    /// A C stream writing here; it keeps this object until it closes.
    func stream() -> UnsafeMutablePointer<FILE>? {
        let context = Unmanaged.passRetained(self).toOpaque()
        let made = wf_spec_sink_stream({ context, bytes, count in
            guard let context, let bytes else { return }
            let output = Unmanaged<SpecOutput>.fromOpaque(context).takeUnretainedValue()
            bytes.withMemoryRebound(to: UInt8.self, capacity: count) { output.take(UnsafeBufferPointer(start: $0, count: count)) }
        }, { context in
            guard let context else { return }
            Unmanaged<SpecOutput>.fromOpaque(context).release()
        }, context)
        if made == nil { Unmanaged<SpecOutput>.fromOpaque(context).release() }
        return made
    }
}

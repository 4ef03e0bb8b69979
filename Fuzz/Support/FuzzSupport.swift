// Shared by every fuzz target (compiled into each one; see scripts/fuzz).

/// The fuzzer's bytes as text. Invalid UTF-8 is repaired (U+FFFD), as every API under test takes a
/// String; percent escapes are how a URL carries arbitrary bytes.
func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    guard let data, size > 0 else { return "" }
    return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// A property of the library that must hold for every input. A broken one is a crash, so libFuzzer
/// keeps the input as a reproducer like any other trap.
func require(_ condition: Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if condition { return }
    fatalError("fuzz property broken: " + message(), file: file, line: line)
}

/// Text for messages: quoted and escaped so control characters stay visible.
func quoted(_ text: String) -> String { text.debugDescription }

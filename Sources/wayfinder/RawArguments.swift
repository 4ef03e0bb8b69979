import Foundation

/// Command-line arguments whose bytes are not UTF-8. Swift reads each argument into a String with
/// U+FFFD in place of the bad bytes, so a URL would match with a character it never had; `match`
/// and `open` look their URLs up here first and answer a no-match with the reason.
enum RawArguments {
    /// Why, by the argument as Swift read it.
    static let notUTF8: [String: String] = {
        var found = [String: String]()
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
            if String(validating: bytes, as: UTF8.self) == nil {
                let offset = firstInvalid(bytes)
                found[String(decoding: bytes, as: UTF8.self)] = "the URL is not valid UTF-8 (byte \(offset + 1) of \(bytes.count))"
            }
        }
        return found
    }()

    private static func firstInvalid(_ bytes: [UInt8]) -> Int {
        var length = bytes.count
        while length > 0 && String(validating: bytes[0..<length], as: UTF8.self) == nil { length -= 1 }
        return length
    }
}

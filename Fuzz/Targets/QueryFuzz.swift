// Query parsing (Codec/QueryString.swift) and the percent-encoding under it. Properties: a query
// that parses writes back (format) to text that parses to the same pairs in the same order; any
// text survives escape then unescape; escape writes only unreserved characters and escapes.
import Wayfinder

@_cdecl("LLVMFuzzerTestOneInput")
public func queryFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(data, size)

    if let items = try? QueryString.parse(text) {
        for (key, value) in items {
            require(!key.isEmpty, "parse(\(quoted(text))) kept an empty key")
            switch value {
            case .string, .bool(true): break
            case .array(let list):
                require(list.count >= 2, "parse(\(quoted(text))) made a list of \(list.count) for '\(key)'")
                for element in list {
                    switch element {
                    case .string, .bool(true): break
                    default: require(false, "parse(\(quoted(text))) put \(element) in the list for '\(key)'")
                    }
                }
            default: require(false, "parse(\(quoted(text))) gave \(value) for '\(key)'")
            }
        }
        do {
            let written = try QueryString.format(items)
            let again = try QueryString.parse(written)
            require(Array(again.keys) == Array(items.keys) && again == items,
                    "parse(\(quoted(text))) = \(items), written as \(quoted(written)), reads back as \(again)")
        } catch {
            require(false, "parse(\(quoted(text))) = \(items) does not write back and read: \(error)")
        }
    }

    if let plain = try? PercentEncoding.unescape(text) {
        // Every raw byte but '%' stays; each escape becomes one byte.
        require(plain.utf8.count <= text.utf8.count, "unescape(\(quoted(text))) grew to \(quoted(plain))")
    }
    let escaped = PercentEncoding.escape(text)
    require(escaped.utf8.allSatisfy(isEscapeOutput), "escape(\(quoted(text))) = \(quoted(escaped)) has a reserved character")
    do {
        let back = try PercentEncoding.unescape(escaped)
        require(back == text, "escape(\(quoted(text))) = \(quoted(escaped)) unescapes to \(quoted(back))")
    } catch {
        require(false, "escape(\(quoted(text))) = \(quoted(escaped)) does not unescape: \(error)")
    }
    return 0
}

private func isEscapeOutput(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"):
        return true
    default:
        return false
    }
}

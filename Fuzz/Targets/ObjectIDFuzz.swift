// decode_id: ObjectID.decode on any text. Properties (Codec/ObjectID.swift): decoding is strict so
// one object has exactly one token, so a token that decodes re-encodes to itself; and any text
// encodes to a token that decodes back to it.
import Wayfinder

@_cdecl("LLVMFuzzerTestOneInput")
public func objectIDFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = fuzzText(data, size)

    if let decoded = try? ObjectID.decode(text) {
        let again = ObjectID.encode(decoded)
        require(again == text, "token \(quoted(text)) decodes to \(quoted(decoded)), which encodes to \(quoted(again))")
    }

    let token = ObjectID.encode(text)
    require(token.utf8.allSatisfy(isBase64URL), "encode(\(quoted(text))) = \(quoted(token)) leaves the base64url alphabet")
    do {
        let back = try ObjectID.decode(token)
        require(back == text, "encode(\(quoted(text))) = \(quoted(token)) decodes to \(quoted(back))")
    } catch {
        require(false, "encode(\(quoted(text))) = \(quoted(token)) does not decode: \(error)")
    }
    return 0
}

private func isBase64URL(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        return true
    default:
        return false
    }
}

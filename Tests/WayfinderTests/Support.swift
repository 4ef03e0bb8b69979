import Foundation
import Testing
@testable import Wayfinder

/// The conformance vectors, copied into Tests/Fixtures.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func load(_ name: String) throws -> Value {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try JSON.decode(text)
    }
}

/// A small seeded generator (SplitMix64), so shuffles and property tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func table(_ patterns: [String]) throws -> RouteTable<String> {
    let table = RouteTable<String>()
    for pattern in patterns { try table.add(pattern, target: pattern) }
    return table
}

/// The winning pattern text, or nil for no match.
func winner(_ table: RouteTable<String>, _ url: String) throws -> String? {
    try table.match(url).match?.route.pattern.text
}

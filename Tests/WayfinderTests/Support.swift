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

func table(_ patterns: [String]) throws -> RouteTable<String> {
    let table = RouteTable<String>()
    for pattern in patterns { try table.add(pattern, target: pattern) }
    return table
}

/// The winning pattern text, or nil for no match.
func winner(_ table: RouteTable<String>, _ url: String) throws -> String? {
    try table.match(url).match?.route.pattern.text
}

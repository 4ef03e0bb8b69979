import Foundation
import Testing
@testable import Wayfinder
import TestSupport

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

/// Patterns and URLs drawn from small vocabularies, so that generated tables hold many routes a
/// URL could open and the property tests over them meet contested matches often.
struct RouteGrammar {
    var hosts: [String]
    var segments: [String]
    var queries: [String]
    var fragments: [String]
    var urlHosts: [String]
    var urlSegments: [String]
    var urlQueries: [String]
    var urlFragments: [String]
    /// Path segments are fewer than this, in patterns and URLs alike.
    var depths: UInt64

    private func pick<T>(_ items: [T], _ generator: inout SeededGenerator) -> T {
        items[Int(generator.next() % UInt64(items.count))]
    }

    /// A pattern: its text without the fragment (which generated routes take as their target),
    /// and with it. A catch-all segment comes only last; query keys are not repeated.
    func pattern(_ generator: inout SeededGenerator) -> (text: String, withFragment: String) {
        var text = "tt://" + pick(hosts, &generator)
        let depth = Int(generator.next() % depths)
        for level in 0..<depth {
            let segment = pick(segments, &generator)
            if segment == "(r:path)" && level != depth - 1 { continue }
            text += "/" + segment
        }
        var keys = Set<String>()
        var pairs = [String]()
        for _ in 0..<Int(generator.next() % 3) {
            let pair = pick(queries, &generator)
            if keys.insert(String(pair.prefix(1))).inserted { pairs.append(pair) }
        }
        if !pairs.isEmpty { text += "?" + pairs.joined(separator: "&") }
        return (text, text + pick(fragments, &generator))
    }

    func url(_ generator: inout SeededGenerator) -> String {
        var url = "tt://" + pick(urlHosts, &generator)
        for _ in 0..<Int(generator.next() % depths) { url += "/" + pick(urlSegments, &generator) }
        let pairs = (0..<Int(generator.next() % 3)).map { _ in pick(urlQueries, &generator) }
        if !pairs.isEmpty { url += "?" + pairs.joined(separator: "&") }
        return url + pick(urlFragments, &generator)
    }
}

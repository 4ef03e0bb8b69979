import Wayfinder

/// The resident size a RouteTable of `count` routes adds: RSS after adding them minus RSS before,
/// with the pattern texts already made (they are the app's, not the table's).
func routeTableResidentMiB(count: Int) throws -> Double {
    let set = RouteSet(routeCount: count, urlCount: 0, seed: 1)
    let texts = set.routes.map(\.wayfinderPattern)
    let before = residentBytes()
    let table = RouteTable<Int>()
    for (id, text) in texts.enumerated() { try table.add(text, target: id) }
    let after = residentBytes()
    guard table.count == count else { throw BenchError("the table holds \(table.count) routes, not \(count)") }
    withExtendedLifetime((table, texts)) {}
    return Double(after - before) / Double(1 << 20)
}

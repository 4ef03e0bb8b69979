import Foundation
import Wayfinder
@_spi(Benchmarks) import WayfinderLua

struct OpenResult {
    /// One `nav:open` of a create-mode route with a class constructor plus one `nav:back()`,
    /// driven from one Lua loop.
    let openBackNs: Double
    /// The floor: `pcall` of the same constructor on a new instance, from the same kind of loop.
    let floorNs: Double
    /// The same constructor called from Swift through the host (`callLua`) (informational).
    let swiftCallNs: Double
}

struct GrowthResult {
    let fromCycles: Int
    let toCycles: Int
    let rssGrowthKiB: Double
    let luaGrowthKiB: Double
    let liveHandlesBefore: Int
    let liveHandlesAfter: Int
}

/// open/back from Lua against the floor of a protected call of the same constructor.
///
/// The floor is a Lua loop calling `pcall(construct, id)`, where `construct` makes the instance
/// (`setmetatable({}, Item)`) and runs `Item:initWithItem(id)`. That is the work an open cannot
/// avoid (a new instance, its constructor, under protection), driven exactly as the open loop is
/// driven, so the ratio is what Wayfinder adds: the crossing into Swift, reading and matching
/// the URL, the tree, the crossing back into Lua and the hooks, and back. A pcall from Swift
/// would put one of those crossings inside the floor and flatter the ratio; it is shown as an
/// information line instead.
final class OpenBench {
    let host: WayfinderHost
    private let openLoop: Value.Handle
    private let floorLoop: Value.Handle
    private let swiftTarget: Value.Handle
    private(set) var cyclesRun = 0

    init() throws {
        let directory = try BenchApps.temporaryDirectory("open")
        try BenchApps.write(BenchApps.openApp, to: directory.appendingPathComponent("app.lua"))
        host = try BenchApps.load(directory)
        try host.launch()
        openLoop = try Self.function(BenchApps.openLoop, named: "=open-loop", in: host)
        floorLoop = try Self.function(BenchApps.floorLoop, named: "=floor-loop", in: host)
        guard case .handle(let target)? = try host.runLua(BenchApps.swiftCallTarget, chunkName: "=swift-call").first else {
            throw BenchError("the Swift-call target did not come back as a function")
        }
        swiftTarget = target
        try? FileManager.default.removeItem(at: directory)
    }

    /// A loop's chunk as a function of its arguments (`...`), compiled once.
    private static func function(_ chunk: String, named name: String, in host: WayfinderHost) throws -> Value.Handle {
        guard case .handle(let function)? = try host.runLua("return function(...)\n" + chunk + "\nend", chunkName: name).first else {
            throw BenchError("the loop \(name) did not come back as a function")
        }
        return function
    }

    /// Runs `count` open/back cycles; nanoseconds taken.
    func cycles(_ count: Int) throws -> Double {
        var failed = Value.null
        let elapsed = try timed { failed = try host.callLua(openLoop, [.int(Int64(count))]).first ?? .null }
        guard failed == .int(0) else { throw BenchError("nav:open failed \(failed) times in the open loop") }
        guard host.tree.entryCount == 1 else {
            throw BenchError("the tree holds \(host.tree.entryCount) entries after open/back, not 1")
        }
        cyclesRun += count
        return elapsed
    }

    func floor(_ count: Int) throws -> Double {
        var failed = Value.null
        let elapsed = try timed { failed = try host.callLua(floorLoop, [.int(Int64(count))]).first ?? .null }
        guard failed == .int(0) else { throw BenchError("the constructor failed \(failed) times in the floor loop") }
        return elapsed
    }

    func swiftCalls(_ count: Int) throws -> Double {
        let host = host
        let target = swiftTarget
        return try timed {
            for i in 0..<count { try host.callLua(target, [.int(Int64(i & 15) + 1)]) }
        }
    }

    func measure(iterations: Int, rounds: Int) throws -> OpenResult {
        // Warm-up: the instruction caches, the Lua strings interned, the allocator's free lists.
        _ = try cycles(iterations / 10 + 1)
        _ = try floor(iterations / 10 + 1)
        _ = try swiftCalls(iterations / 10 + 1)
        var open = [Double](), floor = [Double](), swift = [Double]()
        for _ in 0..<rounds {
            open.append(try cycles(iterations) / Double(iterations))
            floor.append(try self.floor(iterations) / Double(iterations))
            swift.append(try swiftCalls(iterations) / Double(iterations))
        }
        return OpenResult(openBackNs: median(open), floorNs: median(floor), swiftCallNs: median(swift))
    }

    /// Resident growth between `from` and `to` open/back cycles in total, each reading taken
    /// after a full Lua collection, so garbage not yet collected does not count as growth.
    func growth(from: Int, to: Int) throws -> GrowthResult {
        if cyclesRun < from { _ = try cycles(from - cyclesRun) }
        try host.collectLuaGarbage()
        let rssBefore = residentBytes()
        let luaBefore = host.luaMemoryInUse
        let handlesBefore = host.luaLiveHandleCount
        let start = cyclesRun
        var remaining = to - start
        while remaining > 0 {
            let chunk = min(remaining, 100_000)
            _ = try cycles(chunk)
            remaining -= chunk
        }
        try host.collectLuaGarbage()
        return GrowthResult(fromCycles: start, toCycles: cyclesRun,
                            rssGrowthKiB: Double(residentBytes() - rssBefore) / 1024,
                            luaGrowthKiB: Double(host.luaMemoryInUse - luaBefore) / 1024,
                            liveHandlesBefore: handlesBefore, liveHandlesAfter: host.luaLiveHandleCount)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

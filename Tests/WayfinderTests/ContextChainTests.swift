import Testing
@testable import Wayfinder

/// ControllerContext's sixteen cases (each test names the case of its suite it follows), plus the
/// rules where Wayfinder differs on purpose.
@Suite("Context chain")
struct ContextChainTests {
    final class Owner {}

    /// context1 <- context2 <- ... : each layer wraps the previous one.
    func chain(_ count: Int, innermostName: String? = nil) -> [ContextChain] {
        var layers = [ContextChain(name: innermostName)]
        for _ in 1..<max(count, 1) { layers.append(ContextChain(inner: layers.last)) }
        return layers
    }

    /// ControllerContext's case 1.
    @Test func aValueSetOnALayerIsReadBack() throws {
        let context = ContextChain()
        try context.set("Key:0:0", "Level 0 - Key 0")
        #expect(try context.get("Key:0:0") == "Level 0 - Key 0")
    }

    /// ControllerContext's case 2.
    @Test func readsWalkInwardNeverOutward() throws {
        let c = chain(2)
        try c[0].set("Key:0:0", "Level 0 - Key 0")
        try c[1].set("Key:1:0", "Level 1 - Key 0")
        #expect(try c[1].get("Key:0:0") == "Level 0 - Key 0")
        #expect(try c[1].get("Key:1:0") == "Level 1 - Key 0")
        #expect(try c[0].get("Key:1:0") == nil, "reads walk inward, never outward")
    }

    /// ControllerContext's case 3.
    @Test func theOutermostLayerReadsEveryInnerLayer() throws {
        let c = chain(4)
        for level in 0..<3 { try c[level].set("Key:\(level):0", .string("Level \(level) - Key 0")) }
        for level in 0..<3 { #expect(try c[3].get("Key:\(level):0") == .string("Level \(level) - Key 0")) }
    }

    /// ControllerContext's case 4.
    @Test func aNamedGetReadsOnlyTheNamedLayer() throws {
        let c = chain(4, innermostName: "base")
        try c[0].set("Key:0:0", "Level 0 - Key 0")
        try c[1].set("Key:1:0", "Level 1 - Key 0")
        #expect(try c[3].get("Key:0:0", in: "base") == "Level 0 - Key 0")
        #expect(try c[3].get("Key:1:0", in: "base") == nil, "a named get reads only that layer")
    }

    /// ControllerContext's case 5.
    @Test func anUnnamedRemoveActsOnTheCalledLayerOnly() throws {
        let c = chain(3)
        for level in 0..<3 { try c[level].set("Key:\(level):0", "v") }
        #expect(try c[2].remove("Key:2:0"))
        #expect(try c[2].get("Key:2:0") == nil)
        // Wayfinder: an unnamed remove acts on the called layer only; inner layers keep their values.
        #expect(try !c[2].remove("Key:1:0"))
        #expect(try c[2].get("Key:1:0") == "v")
        #expect(try c[1].remove("Key:1:0"))
        #expect(try c[2].get("Key:1:0") == nil)
        #expect(try c[0].remove("Key:0:0"))
        #expect(try c[2].get("Key:0:0") == nil)
    }

    /// ControllerContext's case 6.
    @Test func aNamedSetAndRemoveReachTheNamedLayer() throws {
        let c = chain(2, innermostName: "base")
        try c[1].set("Base Key:0:0", "Base Level 0 - Key 0", in: "base")
        #expect(try c[0].get("Base Key:0:0", in: "base") == "Base Level 0 - Key 0")
        #expect(try c[1].get("Base Key:0:0", in: "base") == "Base Level 0 - Key 0")
        try c[1].set("Base Key:0:0", "Base Level 0 - Key 0 - A", in: "base")
        #expect(try c[0].get("Base Key:0:0", in: "base") == "Base Level 0 - Key 0 - A")
        // ControllerContext's unnamed remove reached into the base layer; Wayfinder's needs the name.
        #expect(try !c[1].remove("Base Key:0:0"))
        #expect(try c[1].get("Base Key:0:0") == "Base Level 0 - Key 0 - A")
        #expect(try c[1].remove("Base Key:0:0", in: "base"))
        #expect(try c[0].get("Base Key:0:0") == nil)
        #expect(try c[1].get("Base Key:0:0") == nil)
    }

    /// ControllerContext's case 7.
    @Test func anUnnamedSetShadowsTheNamedLayerWithoutChangingIt() throws {
        let c = chain(2, innermostName: "base")
        try c[1].set("Base Key:0:0", "Base Level 0 - Key 0", in: "base")
        try c[1].set("Base Key:0:0", "Changed")
        #expect(try c[1].get("Base Key:0:0", in: "base") == "Base Level 0 - Key 0")
        #expect(try c[1].get("Base Key:0:0") == "Changed")
    }

    /// ControllerContext's case 8.
    @Test func aStoredNilIsAnEntryThatReadsAsNil() throws {
        let context = ContextChain(name: "base")
        try context.set("testNil", .null)
        #expect(try context.get("testNil") == nil)
        #expect(context.keys == ["testNil"], "a stored nil is an entry")
    }

    /// ControllerContext's case 9.
    @Test func aStoredNilInANamedLayerReadsAsNil() throws {
        let context = ContextChain(name: "base")
        try context.set("testNil", .null, in: "base")
        #expect(try context.get("testNil", in: "base") == nil)
    }

    /// ControllerContext's case 10.
    @Test func aStoredNilInANamedLayerReadsAsNilFromAnOuterLayer() throws {
        let base = ContextChain(name: "base")
        try base.set("testNil", .null, in: "base")
        let outer = ContextChain(inner: base)
        #expect(try outer.get("testNil", in: "base") == nil)
    }

    @Test func aStoredNilHidesInnerValuesUntilRemoved() throws {
        let c = chain(2)
        try c[0].set("color", "Blue")
        try c[1].set("color", .null)
        #expect(try c[1].get("color") == nil)
        try c[1].remove("color")
        #expect(try c[1].get("color") == "Blue")
    }

    /// ControllerContext's case 11.
    @Test func keysListEachKeyOnceOutermostLayerFirst() throws {
        let c = chain(3, innermostName: "base")
        for level in 0..<3 { for k in 0..<2 { try c[level].set("K:\(level):\(k)", .string("V:\(level):\(k)")) } }
        try c[2].set("K:0:0", "shadow")
        #expect(c[2].keys == ["K:2:0", "K:2:1", "K:0:0", "K:1:0", "K:1:1", "K:0:1"])
    }

    /// ControllerContext's case 12.
    @Test func anObserverHearsSetsOfItsKeyOnlyWithItsOwner() throws {
        let c = chain(2, innermostName: "base")
        let owner = Owner()
        var seen: [String] = []
        var owners: [ObjectIdentifier] = []
        try c[1].observe("key1", owner: owner) { o, value, key in
            owners.append(ObjectIdentifier(o))
            seen.append("\(key)=\(value)")
        }
        try c[1].set("key1", "obj1")
        try c[1].set("other", "x")
        #expect(seen == ["key1=\"obj1\""])
        #expect(owners == [ObjectIdentifier(owner)], "the owner comes back to the callback")
    }

    /// ControllerContext's case 13 and 14.
    @Test func anUnobservedOwnerHearsNothingMore() throws {
        let context = ContextChain()
        let owner = Owner(), other = Owner()
        var calls = 0
        try context.observe("key1", owner: owner) { _, _, _ in calls += 1 }
        try context.observe("key1", owner: other) { _, _, _ in calls += 10 }
        context.unobserve(owner)
        try context.set("key1", "obj1")
        #expect(calls == 10)
        context.unobserve(other)
        try context.set("key1", "obj2")
        #expect(calls == 10)
        #expect(context.observerCount(for: "key1") == 0)
    }

    /// ControllerContext's case 15.
    @Test func anObserverGoesWithItsOwner() throws {
        let context = ContextChain()
        var calls = 0
        do {
            let owner = Owner()
            try context.observe("key1", owner: owner) { _, _, _ in calls += 1 }
            try context.set("key1", "while alive")
        }
        try context.set("key1", "after")
        #expect(calls == 1)
        #expect(context.observerCount(for: "key1") == 0)
    }

    /// ControllerContext's case 16.
    @Test func arraysAreValues() throws {
        let context = ContextChain(name: "base")
        try context.set("arraySetTest", ["one"])
        #expect(try context.get("arraySetTest")?.arrayValue?.first == "one")
    }

    @Test func namedSetsNotifyTheLayerTheyReach() throws {
        let c = chain(2, innermostName: "app")
        let owner = Owner()
        var outer = 0, inner = 0
        try c[1].observe("user", owner: owner) { _, _, _ in outer += 1 }
        try c[0].observe("user", owner: owner) { _, _, _ in inner += 1 }
        try c[1].set("user", "42", in: "app")
        #expect((outer, inner) == (0, 1))
    }

    @Test func observerErrorsDoNotUndoTheSetOrStopOthers() throws {
        struct Boom: Error {}
        let context = ContextChain()
        let a = Owner(), b = Owner()
        var reached = false
        try context.observe("k", owner: a) { _, _, _ in throw Boom() }
        try context.observe("k", owner: b) { _, _, _ in reached = true }
        let failures = try context.set("k", 1)
        #expect(failures.count == 1 && failures[0].key == "k")
        #expect(reached)
        #expect(try context.get("k") == 1)
    }

    @Test func badKeysAndNamesAreErrorsThatChangeNothing() throws {
        let c = chain(2, innermostName: "app")
        #expect(throws: ContextError.invalidKey("an empty string")) { try c[1].set("", 1) }
        #expect(throws: ContextError.invalidKey("an empty string")) { try c[1].get("") }
        #expect(throws: ContextError.noContextNamed("nope")) { try c[1].set("k", 1, in: "nope") }
        #expect(throws: ContextError.noContextNamed("nope")) { try c[1].get("k", in: "nope") }
        #expect(c[1].keys.isEmpty)
    }

    @Test func theOutermostLayerOfANameWins() throws {
        let app = ContextChain(name: "flow")
        let middle = ContextChain(name: "flow", inner: app)
        let outer = ContextChain(inner: middle)
        try outer.set("k", "v", in: "flow")
        #expect(middle.entries["k"] == "v")
        #expect(app.entries["k"] == nil)
    }

    @Test func typedFieldsAreChecked() throws {
        let context = ContextChain(fields: ["age": .int, "name": .string, "score": .number])
        try context.set("age", 3)
        try context.set("score", 2.5)
        try context.set("age", .null)
        #expect(throws: ContextError.wrongType(field: "age", expected: .int, got: "a string")) { try context.set("age", "x") }
        #expect(throws: ContextError.wrongType(field: "name", expected: .string, got: "an integer")) { try context.set("name", 5) }
        #expect(try context.get("age") == nil)
    }

    @Test func dumpListsEveryLayerOutermostFirst() throws {
        let app = ContextChain(name: "app")
        try app.set("userId", "12345")
        let flow = ContextChain(inner: app)
        try flow.set("color", "Blue")
        try flow.set("size", 3)
        try flow.set("gone", .null)
        try flow.set("list", ["a", 2])
        #expect(flow.dump() == """
            1:--- (unnamed) ---
            1:color = Blue
            1:size = 3
            1:gone = nil
            1:list = {"a", 2}
            0:--- app ---
            0:userId = 12345
            """)
    }
}

import Testing
@testable import Wayfinder

/// Tab numbers as scripts, specs and the CLI give them (from 1) become indexes in one place.
@Suite("Tab numbers")
struct TabNumberTests {
    @Test("tab number n selects index n - 1; numbers that name no tab select nothing")
    func tabNumbers() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        #expect(try h.navigator.select(tabNumber: 2))
        #expect(h.navigator.tree.selectedTab == 1)
        #expect(try h.navigator.select(tabNumber: 1))
        #expect(h.navigator.tree.selectedTab == 0)
        for number in [Int64(0), -1, 3, Int64.min, Int64.max] {
            #expect(try !h.navigator.select(tabNumber: number), "tab \(number)")
            #expect(h.navigator.tree.selectedTab == 0, "tab \(number)")
        }
    }
}

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

    @Test("numbers and indexes convert both ways, and only numbers from 1 name a tab")
    func conversions() {
        for index in [0, 1, 7] { #expect(TabNumber.index(of: TabNumber.number(of: index)) == index) }
        #expect(TabNumber.number(of: 0) == 1)
        for number in [Int64(0), -1, Int64.min] { #expect(TabNumber.index(of: number) == nil, "tab \(number)") }
        #expect(TabNumber.index(of: .max) == Int(Int64.max - 1))
    }
}

import Foundation
import Testing
import Wayfinder
import WayfinderLua
import WayfinderUpdates

/// A `WayfinderHost` configured with updates: it installs bundles from bytes the app downloaded,
/// runs the newest good one from its next launch (or at once through a reload that keeps the
/// tree), and falls back to the shipped app when a bundle no longer verifies.
@Suite("WayfinderHost with BundleUpdates")
struct HostUpdatesTests {
    let directory: TemporaryDirectory
    let key = Curve25519SigningKey()

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("shop/app.lua", BundleApps.shipped)
    }

    func bundle(_ source: String, version: Int, key: Curve25519SigningKey? = nil) throws -> [UInt8] {
        try BundleBuilder.bundle(files: ["app.lua": Array(source.utf8)],
                                 manifest: BundleManifest(app: "shop", version: version, host: .current, entry: "app.lua", files: [:]),
                                 key: key ?? self.key)
    }

    func host(trusting keys: [Curve25519PublicKey]? = nil) throws -> (host: WayfinderHost, updates: BundleUpdates, warnings: Warnings) {
        let warnings = Warnings()
        let updates = BundleUpdates(directory: directory.subpath("updates"), trusting: keys ?? [key.publicKey], warn: { warnings.add($0) })
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: directory.subpath("shop")))
        configuration.stateStore = FileStateStore(path: directory.subpath("shop.json"))
        configuration.updates = updates
        configuration.warn = { warnings.add($0) }
        let host = try WayfinderHost(configuration)
        try host.launch()
        return (host, updates, warnings)
    }

    final class Warnings: @unchecked Sendable {
        var lines: [String] = []
        func add(_ line: String) { lines.append(line) }
    }

    @Test func bytesInstalledRunFromTheNextLaunch() throws {
        let first = try host()
        #expect(first.updates.running == nil)
        #expect(throws: (any Error).self) { try first.host.open("tt://page/7") }
        let installed = try first.host.installBundle(try bundle(BundleApps.v1, version: 1), into: first.updates, shippedName: "shop")
        #expect(installed.version == 1)
        // The running app is still the shipped one.
        #expect(throws: (any Error).self) { try first.host.open("tt://page/7") }
        try first.host.persist()

        let second = try host()
        #expect(second.updates.running?.version == 1)
        _ = try second.host.open("tt://page/7")
        #expect(second.host.tree.visible?.url == "tt://page/7")
        #expect(second.warnings.lines.isEmpty, "\(second.warnings.lines)")
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("updates/launch.json")), "a launch that got to its screen is not counted")
    }

    @Test func aReloadTakesANewBundleAtOnceAndKeepsTheTree() throws {
        let first = try host()
        try first.host.installBundle(try bundle(BundleApps.v1, version: 1), into: first.updates, shippedName: "shop")
        let running = try host()
        _ = try running.host.open("tt://page/7")
        try running.host.installBundle(try bundle(BundleApps.v4, version: 2), into: running.updates, shippedName: "shop")
        try running.host.reload(from: running.updates.newestApp(shipped: try AppSource(path: directory.subpath("shop"))))
        // The tree is kept, through the new bundle's migrate (version 1 to 2 moves pages to items).
        #expect(running.host.tree.visible?.url == "tt://item/7")
        _ = try running.host.open("tt://four")
        #expect(running.host.tree.visible?.url == "tt://four")
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("updates/launch.json")), "a reload counts no launch")
    }

    @Test func refusedBytesChangeNothingAndNameTheCheck() throws {
        let first = try host()
        try first.host.installBundle(try bundle(BundleApps.v1, version: 2), into: first.updates, shippedName: "shop")
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.subpath("updates/bundles"))
        #expect(throws: BundleRefusal(.version, "version 2 is not newer than version 2, installed")) {
            try first.host.installBundle(try bundle(BundleApps.v1, version: 2), into: first.updates, shippedName: "shop")
        }
        #expect(throws: BundleRefusal(.signature, "not signed by a trusted key")) {
            try first.host.installBundle(try bundle(BundleApps.v1, version: 3, key: Curve25519SigningKey()), into: first.updates, shippedName: "shop")
        }
        #expect(throws: BundleRefusal(.host, "needs host 99.0.0, this host is \(HostVersion.current)")) {
            let future = try BundleBuilder.bundle(files: ["app.lua": Array(BundleApps.v1.utf8)],
                                                  manifest: BundleManifest(app: "shop", version: 4, host: HostVersion(major: 99, minor: 0, patch: 0), entry: "app.lua", files: [:]),
                                                  key: key)
            try first.host.installBundle(future, into: first.updates, shippedName: "shop")
        }
        #expect(throws: BundleRefusal(.app, "a bundle of the app 'other', not 'shop'")) {
            let other = try BundleBuilder.bundle(files: ["app.lua": Array(BundleApps.v1.utf8)],
                                                 manifest: BundleManifest(app: "other", version: 5, host: .current, entry: "app.lua", files: [:]), key: key)
            try first.host.installBundle(other, into: first.updates, shippedName: "shop")
        }
        let broken = try bundle("local wf = require 'wayfinder'\nwf.map:from('tt://home', nil)\n", version: 6)
        do {
            try first.host.installBundle(broken, into: first.updates, shippedName: "shop")
            Issue.record("a bundle whose map does not register was installed")
        } catch {
            #expect(error.check == .load && error.reason.hasPrefix("the app does not load: app.lua:2:"), "\(error)")
        }
        let syntax = try BundleBuilder.bundle(files: ["app.lua": Array(BundleApps.v1.utf8), "screens/bad.lua": Array("return {".utf8)],
                                              manifest: BundleManifest(app: "shop", version: 7, host: .current, entry: "app.lua", files: [:]), key: key)
        do {
            try first.host.installBundle(syntax, into: first.updates, shippedName: "shop")
            Issue.record("a bundle with a file that does not compile was installed")
        } catch {
            #expect(error.check == .load && error.reason.contains("screens/bad.lua:1:"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.subpath("updates/bundles")) == before)
    }

    @Test func anInstallKeepsThreeGoodBundlesAndDropsBadOnes() throws {
        let first = try host()
        func installed() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.subpath("updates/bundles")).filter { !$0.hasPrefix(".") }.sorted()
        }
        for version in 1...3 { try first.host.installBundle(try bundle(BundleApps.v1, version: version), into: first.updates, shippedName: "shop") }
        try directory.write("updates/bad/2", "marked bad by the test")
        try first.host.installBundle(try bundle(BundleApps.v1, version: 4), into: first.updates, shippedName: "shop")
        #expect(try installed() == ["1.wfb", "3.wfb", "4.wfb"])
        try first.host.installBundle(try bundle(BundleApps.v1, version: 5), into: first.updates, shippedName: "shop")
        #expect(try installed() == ["3.wfb", "4.wfb", "5.wfb"])
        #expect(first.updates.directory.badReason(2) == "marked bad by the test")
        #expect(throws: BundleRefusal(.version, "version 2 is not newer than version 5, installed")) {
            try first.host.installBundle(try bundle(BundleApps.v1, version: 2), into: first.updates, shippedName: "shop")
        }
    }

    @Test func aBundleThatNoLongerVerifiesIsSkippedForTheShippedApp() throws {
        let first = try host()
        try first.host.installBundle(try bundle(BundleApps.v1, version: 1), into: first.updates, shippedName: "shop")
        // The key was rotated out: the installed bundle is not run, and nothing is marked bad.
        let rotated = try host(trusting: [Curve25519SigningKey().publicKey])
        #expect(rotated.updates.running == nil)
        #expect(rotated.warnings.lines.contains { $0.contains("bundle 1 in") && $0.contains("signature check failed") }, "\(rotated.warnings.lines)")
        #expect(rotated.updates.directory.badReason(1) == nil)
        let back = try host()
        #expect(back.updates.running?.version == 1)
    }
}

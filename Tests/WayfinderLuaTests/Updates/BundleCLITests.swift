import Foundation
import Testing
import WayfinderUpdates

/// Updates over the air through the command line, from a fresh key to a bundle rolled back: the
/// bundle commands and `open --updates --trust` on one app, "shop" (BundleApps).
@Suite("wayfinder bundle: build, install, fetch, run, refuse, roll back")
struct BundleCLITests {
    let directory: TemporaryDirectory
    let shop: String
    let keys: String
    let updates: String
    let state: String

    init() throws {
        directory = try TemporaryDirectory()
        shop = directory.subpath("shipped/shop")
        keys = directory.subpath("keys")
        updates = directory.subpath("updates")
        state = directory.subpath("shop.json")
        try directory.write("shipped/shop/app.lua", BundleApps.shipped)
        let made = try WayfinderCLI.run(["bundle", "keygen", keys])
        #expect(made.status == 0, "\(made.stderr)")
    }

    var trusted: [String] { ["--updates", updates, "--trust", keys + "/signing.pub"] }

    /// Bundle `version` of `source`, signed with the key in `keyDirectory` (the trusted one unless said).
    func build(_ source: String, version: Int, keyDirectory: String? = nil) throws -> String {
        let app = directory.subpath("v\(version)-\(UUID().uuidString.prefix(6))/shop")
        try directory.write(String(app.dropFirst(directory.path.count + 1)) + "/app.lua", source)
        let output = directory.subpath("shop-\(version)-\(UUID().uuidString.prefix(6)).wfb")
        let built = try WayfinderCLI.run(["bundle", "build", app, "--version", "\(version)", "--key", (keyDirectory ?? keys) + "/signing.key", "-o", output])
        #expect(built.status == 0, "\(built.stderr)")
        return output
    }

    func open(_ urls: [String] = []) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["open", shop] + urls + ["--state", state] + trusted)
    }

    func install(_ bundle: String) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["bundle", "install", bundle, "--state", state] + trusted)
    }

    /// Every file under the updates directory with its bytes.
    func contents() throws -> [String: Data] {
        var found = [String: Data]()
        guard let walk = FileManager.default.enumerator(atPath: updates) else { return found }
        for case let path as String in walk {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: updates + "/" + path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { found[path] = try Data(contentsOf: URL(fileURLWithPath: updates + "/" + path)) }
        }
        return found
    }

    @Test func keygenRefusesToReplaceAKeyAndKeepsTheSigningKeyPrivate() throws {
        let again = try WayfinderCLI.run(["bundle", "keygen", keys])
        #expect(again.status == 2)
        #expect(again.stderr.contains("signing.key: already exists"), "\(again.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: keys + "/signing.key")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func runTakesItsAppFromTheUpdates() throws {
        #expect(try install(try build(BundleApps.v1, version: 1)).status == 0)
        let shipped = try WayfinderCLI.run(["run", shop, "--no-state"], input: "o tt://page/7\nq\n")
        #expect(shipped.stdout.contains("! cannot open 'tt://page/7'"), "\(shipped.stdout)")
        let updated = try WayfinderCLI.run(["run", shop, "--no-state"] + trusted, input: "o tt://page/7\nq\n")
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(!updated.stdout.contains("! cannot open"), "\(updated.stdout)")
        #expect(updated.stdout.contains("tt://page/7"), "\(updated.stdout)")
        let untrusting = try WayfinderCLI.run(["run", shop, "--no-state", "--updates", updates], input: "q\n")
        #expect(untrusting.status == 2 && untrusting.stderr.contains("--updates needs at least one --trust KEY"), "\(untrusting.stderr)")
    }

    @Test func testRunsTheSpecsOnTheNewestBundleOfTheirApp() throws {
        try directory.write("shipped/shop/spec/page_spec.lua", """
            local wf = require "wayfinder"
            it("opens a page", function()
              local app = assert(wf.testing.launch("shop"))
              assert.is_true(app:open("tt://page/7"))
            end)
            """)
        let shipped = try WayfinderCLI.run(["test", "shop/spec"], directory: directory.subpath("shipped"))
        #expect(shipped.stdout.contains("0 passed, 1 failed"), "\(shipped.stdout)\(shipped.stderr)")
        #expect(try install(try build(BundleApps.v1, version: 1)).status == 0)
        let updated = try WayfinderCLI.run(["test", "shop/spec"] + trusted, directory: directory.subpath("shipped"))
        #expect(updated.status == 0 && updated.stdout.contains("1 passed, 0 failed"), "\(updated.stdout)\(updated.stderr)")
        #expect(!FileManager.default.fileExists(atPath: updates + "/launch.json"), "a spec's launch counts nothing toward rolling back")
    }

    @Test func fetchRefusesPlainHttpElsewhereAndCutsOffALargeDownload() throws {
        let remote = try WayfinderCLI.run(["bundle", "fetch", "http://example.com/shop.wfb"] + trusted)
        #expect(remote.status == 2 && remote.stderr.contains("plain http is only for this machine"), "\(remote.stderr)")
        let large = try BundleServer.start(serving: Data(count: BundleLimits.archiveBytes + 1), etag: "\"large\"")
        defer { large.stop() }
        let cut = try WayfinderCLI.run(["bundle", "fetch", large.url] + trusted)
        #expect(cut.status == 1 && cut.stderr.contains("more than \(BundleLimits.archiveBytes)"), "\(cut.stderr)")
        #expect(!FileManager.default.fileExists(atPath: updates + "/bundles"))
    }

    @Test func fromAFreshKeyToARolledBackBundle() throws {
        // Bundle 1: installed, and `open` runs it (the shipped app has no pages).
        let v1 = try build(BundleApps.v1, version: 1)
        let verified = try WayfinderCLI.run(["bundle", "verify", v1, "--trust", keys + "/signing.pub"])
        #expect(verified.status == 0 && verified.stdout.contains("shop version 1"), "\(verified.stderr)")
        let shipped = try WayfinderCLI.run(["open", shop, "tt://page/7"])
        #expect(shipped.status == 1, "the shipped app has no pages: \(shipped.stdout)")
        let installed = try install(v1)
        #expect(installed.status == 0, "\(installed.stderr)")
        let first = try open(["tt://page/7"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "stack: tt://home > tt://page/7\nvisible: tt://page/7\n", "\(first.stdout)")

        // Bundle 2, fetched from a loopback server: the next launch runs it, the tree migrated.
        let v2 = try build(BundleApps.v2, version: 2)
        let served = try Data(contentsOf: URL(fileURLWithPath: v2))
        let server = try BundleServer.start(serving: served, etag: "\"v2\"")
        defer { server.stop() }
        let fetched = try WayfinderCLI.run(["bundle", "fetch", server.url, "--state", state] + trusted)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.contains("installed shop version 2"), "\(fetched.stdout)")
        let again = try WayfinderCLI.run(["bundle", "fetch", server.url, "--state", state] + trusted)
        #expect(again.status == 0 && again.stdout.contains("not modified"), "\(again.stdout) \(again.stderr)")
        #expect(server.conditionalRequests == ["\"v2\""])
        let second = try open()
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "stack: tt://home (not loaded) > tt://item/7\nvisible: tt://item/7\n", "\(second.stdout)")

        // Copies of bundle 2 that must be refused, each naming its check, the directory unchanged.
        let before = try contents()
        for (bundle, reason) in try refusedCopies(of: v2) {
            let refused = try install(bundle)
            #expect(refused.status == 1, "\(reason): \(refused.stdout)")
            #expect(refused.stderr.contains(reason), "\(refused.stderr)")
            #expect(try contents() == before, "a refusal changed the updates directory: \(reason)")
        }

        // Bundle 3 passes its checks, then breaks every launch once the mood is broken.
        let v3 = try build(BundleApps.v3, version: 3)
        #expect(try install(v3).status == 0)
        let broken = try open(["tt://mood/broken"])
        #expect(broken.status == 0, "\(broken.stderr)")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        for _ in 1...2 {
            let failed = try open()
            #expect(failed.status == 2, "\(failed.stdout)")
            #expect(failed.stderr.contains("no screen in a broken mood"), "\(failed.stderr)")
            #expect(try String(contentsOfFile: state, encoding: .utf8) == saved)
        }
        let rolledBack = try open()
        #expect(rolledBack.status == 0, "\(rolledBack.stderr)")
        #expect(rolledBack.stdout == "stack: tt://home (not loaded) > tt://item/7\nvisible: tt://item/7\n", "\(rolledBack.stdout)")
        #expect(rolledBack.stderr.contains("warning: bundle 3 stopped the last 2 launches before they showed a screen (the last one failed with"),
                "\(rolledBack.stderr)")
        #expect(!rolledBack.stderr.contains("set aside") && !rolledBack.stderr.contains("moved to"), "\(rolledBack.stderr)")
        #expect(try String(contentsOfFile: updates + "/bad/3", encoding: .utf8).contains("no screen in a broken mood"))
        let after = try open()
        #expect(after.status == 0 && after.stderr.isEmpty, "bundle 3 is never tried again: \(after.stderr)")

        // A bundle that would break on the state as it is now is refused before it runs.
        let v5 = try build(BundleApps.v3, version: 5)
        let caught = try install(v5)
        #expect(caught.status == 1)
        #expect(caught.stderr.contains("load check failed: the saved state cannot be restored"), "\(caught.stderr)")
        // A newer good bundle is tried.
        let v6 = try build(BundleApps.v4, version: 6)
        #expect(try install(v6).status == 0)
        let newest = try open(["tt://four"])
        #expect(newest.status == 0, "\(newest.stderr)")
        #expect(newest.stdout.hasSuffix("visible: tt://four\n"), "\(newest.stdout)")
    }

    /// Copies of `bundle` (version 2, installed) that the install must refuse, with the reason each
    /// refusal must give.
    func refusedCopies(of bundle: String) throws -> [(String, String)] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: bundle)))
        let signing = try BundleKeys.signingKey(at: keys + "/signing.key")
        let verified = try AppBundle(bytes: bytes, trusting: [signing.publicKey])
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = directory.subpath(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        // One byte of a file changed, its signed manifest kept.
        var tampered = verified.files
        tampered["app.lua"]![0] ^= 0x20
        let manifestEntries: [(name: String, bytes: [UInt8])] = [("manifest.json", verified.manifestBytes), ("manifest.sig", verified.signature)]
        let changed = try BundleBuilder.archive(manifestEntries + tampered.keys.sorted().map { ("app/" + $0, tampered[$0]!) })
        // One byte of the archive changed.
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x01
        // Signed by a key that is not trusted.
        let stranger = directory.subpath("stranger")
        #expect(try WayfinderCLI.run(["bundle", "keygen", stranger]).status == 0)
        let untrusted = try build(BundleApps.v2, version: 7, keyDirectory: stranger)
        // A path that leaves the bundle, in a bundle signed with the trusted key.
        var escaping = verified.files
        escaping["../evil.lua"] = Array("return 1".utf8)
        let escapingArchive = try BundleBuilder.archive(manifestEntries + escaping.keys.sorted().map { ("app/" + $0, escaping[$0]!) })
        // An older version.
        let older = try build(BundleApps.v1, version: 1)
        return [
            (try write("changed.wfb", changed), "hash check failed: 'app.lua' does not match its SHA-256 in the manifest"),
            (try write("flipped.wfb", flipped), "check failed:"),
            (untrusted, "signature check failed: not signed by a trusted key"),
            (try write("escaping.wfb", escapingArchive), "path check failed: 'app/../evil.lua': leaves the bundle ('..')"),
            (older, "version check failed: version 1 is not newer than version 2, installed"),
        ]
    }
}

/// A loopback HTTP server that serves one bundle with an ETag, answering 304 to a request that
/// sends it back, and remembers the `If-None-Match` it was sent. It answers on a thread of its
/// own, so tests that block the shared executors (running the command line) cannot starve it.
final class BundleServer: @unchecked Sendable {
    let url: String
    private let listener: Int32
    private let body: Data
    private let etag: String
    private let lock = NSLock()
    private var heard: [String] = []

    var conditionalRequests: [String] { lock.withLock { heard } }

    private init(listener: Int32, port: UInt16, body: Data, etag: String) {
        self.listener = listener
        self.body = body
        self.etag = etag
        url = "http://127.0.0.1:\(port)/shop.wfb"
    }

    static func start(serving body: Data, etag: String) throws -> BundleServer {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        let server = BundleServer(listener: listener, port: UInt16(bigEndian: address.sin_port), body: body, etag: etag)
        Thread.detachNewThread { server.serve() }
        return server
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                head += buffer[..<count]
            }
            let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
            let sent = lines.first { $0.lowercased().hasPrefix("if-none-match:") }.map { $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces) }
            if let sent { lock.withLock { heard.append(sent) } }
            var response: Data
            if sent == etag {
                response = Data("HTTP/1.1 304 Not Modified\r\nETag: \(etag)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            } else {
                response = Data("HTTP/1.1 200 OK\r\nETag: \(etag)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
                response.append(body)
            }
            response.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let count = send(connection, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                    if count <= 0 { break }
                    offset += count
                }
            }
            close(connection)
        }
    }

    /// Stops accepting: the thread ends at its next accept.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

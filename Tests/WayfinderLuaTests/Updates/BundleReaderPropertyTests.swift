import Foundation
import TestSupport
import Testing
import WayfinderUpdates

/// The bundle reader on bytes from anywhere: random bytes and mutated bundles never crash it and
/// are refused with a reason unless they still hold exactly the signed files; archives built to
/// break a rule (links, escaping or odd paths, duplicates, too many or too large entries, zip
/// bombs) are refused by the check that owns the rule.
@Suite("Bundle reader: generated and hostile archives")
struct BundleReaderPropertyTests {
    /// A fixed key, so every run signs the same bytes.
    static var key: Curve25519SigningKey {
        // Any 32 bytes are an Ed25519 private key.
        try! Curve25519SigningKey(rawRepresentation: Data((1...32).map { UInt8($0) }))
    }
    static let files: [String: [UInt8]] = [
        "app.lua": Array(#"local wf = require "wayfinder" wf.map:from("tt://home", function() end, { mode = "none" }) wf.app { name = "shop", root = "tt://home" }"#.utf8),
        "screens/home.lua": Array("return { title = 'Home' }".utf8),
    ]
    static let manifest = BundleManifest(app: "shop", version: 3, host: .current, entry: "app.lua", files: [:])

    static func valid() throws -> [UInt8] {
        try BundleBuilder.bundle(files: files, manifest: manifest, key: key)
    }

    func read(_ bytes: [UInt8]) -> Result<AppBundle, BundleRefusal> {
        do { return .success(try AppBundle(bytes: bytes, trusting: [Self.key.publicKey])) } catch { return .failure(error) }
    }

    @Test func aBundleBuiltAndSignedReadsBackWithItsFiles() throws {
        let bundle = try read(Self.valid()).get()
        #expect(bundle.files == Self.files)
        #expect(bundle.manifest.version == 3 && bundle.manifest.app == "shop")
    }

    @Test(arguments: [1, 2, 3])
    func randomBytesAreRefusedWithAReason(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for round in 0..<150 {
            var bytes = (0..<Int.random(in: 0...2_048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Half of them look like a zip archive from the start.
            if round % 2 == 0 { bytes = [0x50, 0x4b, 0x03, 0x04] + bytes }
            if round % 4 == 0 { bytes += [0x50, 0x4b, 0x05, 0x06] + Array(repeating: 0, count: 18) }
            guard case .failure(let refusal) = read(bytes) else {
                Issue.record("random bytes were accepted (seed \(seed), round \(round))")
                continue
            }
            #expect(!refusal.reason.isEmpty)
        }
    }

    @Test(arguments: [11, 12, 13, 14])
    func mutatedBundlesAreRefusedOrStillHoldTheSignedFiles(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let original = try Self.valid()
        for round in 0..<120 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                guard !bytes.isEmpty else { break }
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &generator)))
                case 2: bytes.insert(contentsOf: (0..<Int.random(in: 1...16, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }, at: at)
                default: bytes = Array(bytes[..<at])
                }
            }
            switch read(bytes) {
            case .success(let bundle):
                // Only bytes no check depends on changed (a timestamp, an unused field).
                #expect(bundle.files == Self.files, "seed \(seed), round \(round): accepted with other files")
            case .failure(let refusal):
                #expect(!refusal.reason.isEmpty)
            }
        }
    }

    func refusal(_ entries: [(name: String, bytes: [UInt8])], links: Set<String> = []) throws -> BundleRefusal? {
        let signed = try read(Self.valid()).get()
        let head: [(name: String, bytes: [UInt8])] = [("manifest.json", signed.manifestBytes), ("manifest.sig", signed.signature)]
        let bytes = try BundleBuilder.archive(head + entries, links: links)
        if case .failure(let refusal) = read(bytes) { return refusal }
        return nil
    }

    var signedFiles: [(name: String, bytes: [UInt8])] { Self.files.keys.sorted().map { ("app/" + $0, Self.files[$0]!) } }

    @Test(arguments: [
        ("app/../evil.lua", "leaves the bundle ('..')"),
        ("app/a/../../evil.lua", "leaves the bundle ('..')"),
        ("/etc/evil.lua", "is outside app/"),
        ("app//evil.lua", "an absolute path"),
        ("app/a//evil.lua", "not a plain path"),
        ("app/./evil.lua", "not a plain path"),
        ("app/.hidden.lua", "a hidden name"),
        ("app/a b.lua", "characters other than"),
        ("app/a\\b.lua", "characters other than"),
        ("app/evil.txt", "not a .lua file"),
        ("evil.lua", "is outside app/"),
    ])
    func pathsThatLeaveTheBundleOrAreOddAreRefused(path: String, reason: String) throws {
        let refused = try #require(try refusal(signedFiles + [(path, Array("return 1".utf8))]))
        #expect(refused.check == .path, "\(refused)")
        #expect(refused.reason.contains(reason), "\(refused)")
    }

    @Test func aLongNameIsRefused() throws {
        let refused = try #require(try refusal(signedFiles + [("app/" + String(repeating: "a", count: 300) + ".lua", [])]))
        #expect(refused.check == .path && refused.reason.contains("longer than 255 bytes"), "\(refused)")
    }

    @Test func linksAndDuplicatesAreRefused() throws {
        let link = try #require(try refusal(signedFiles + [("app/link.lua", Array("/etc/passwd".utf8))], links: ["app/link.lua"]))
        #expect(link.check == .path && link.reason.contains("is a link"), "\(link)")
        let twice = try #require(try refusal(signedFiles + [("app/app.lua", Self.files["app.lua"]!)]))
        #expect(twice.check == .path && twice.reason.contains("appears twice"), "\(twice)")
        let cased = try #require(try refusal(signedFiles + [("app/App.lua", Self.files["app.lua"]!)]))
        #expect(cased.check == .path && cased.reason.contains("appears twice"), "\(cased)")
    }

    @Test func filesTheManifestDoesNotListOrThatAreMissingAreRefused() throws {
        let extra = try #require(try refusal(signedFiles + [("app/extra.lua", Array("return 1".utf8))]))
        #expect(extra.check == .hash && extra.reason.contains("'extra.lua' is not in the manifest"), "\(extra)")
        let missing = try #require(try refusal(Array(signedFiles.dropLast())))
        #expect(missing.check == .hash && missing.reason.contains("is in the manifest but not in the bundle"), "\(missing)")
    }

    @Test func aZipBombIsStoppedAtTheEntryCapAndAtTheTotal() throws {
        // Zeros deflate about a thousandfold: a few KiB unpack past the cap of one entry.
        let bomb = try #require(try refusal(signedFiles + [("app/bomb.lua", [UInt8](repeating: 0, count: BundleLimits.entryBytes + 1))]))
        #expect(bomb.check == .size && bomb.reason.contains("'app/bomb.lua' unpacks to more than \(BundleLimits.entryBytes) bytes"), "\(bomb)")
        let size = BundleLimits.entryBytes - 1
        let count = BundleLimits.unpackedBytes / size + 1
        let many = (0..<count).map { ("app/part\($0).lua", [UInt8](repeating: 0, count: size)) }
        let total = try #require(try refusal(signedFiles + many))
        #expect(total.check == .size && total.reason.contains("unpack to more than \(BundleLimits.unpackedBytes) bytes together"), "\(total)")
    }

    @Test func tooManyEntriesOrTooManyBytesAreRefused() throws {
        let entries = (0..<BundleLimits.entries).map { ("app/f\($0).lua", [UInt8]()) }
        let crowded = try #require(try refusal(signedFiles + entries))
        #expect(crowded.check == .size && crowded.reason.contains("more than \(BundleLimits.entries) entries"), "\(crowded)")
        guard case .failure(let large) = read([UInt8](repeating: 0x50, count: BundleLimits.archiveBytes + 1)) else {
            Issue.record("a bundle over the size cap was read")
            return
        }
        #expect(large.check == .size)
    }

    @Test func aBundleSignedByAnotherKeyOrWithAChangedManifestIsRefused() throws {
        let stranger = try BundleBuilder.bundle(files: Self.files, manifest: Self.manifest, key: Curve25519SigningKey())
        guard case .failure(let refused) = read(stranger) else { Issue.record("an untrusted signature was accepted"); return }
        #expect(refused.check == .signature && refused.reason == "not signed by a trusted key")
        let signed = try read(Self.valid()).get()
        var manifest = signed.manifestBytes
        manifest[manifest.count - 3] ^= 0x01
        let changed = try BundleBuilder.archive([("manifest.json", manifest), ("manifest.sig", signed.signature)] + signedFiles)
        guard case .failure(let tampered) = read(changed) else { Issue.record("a changed manifest was accepted"); return }
        #expect(tampered.check == .signature)
    }
}

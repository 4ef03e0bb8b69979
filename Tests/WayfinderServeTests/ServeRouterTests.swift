import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// The router asked directly, as the server asks it for each request.
@Suite("serve requests")
struct ServeRouterTests {
    static let token = AccessToken(text: "0123456789abcdef")
    static let port = 8123

    func router() async throws -> (ServeRouter, ScratchDirectory) {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        return (ServeRouter(token: Self.token, port: Self.port, session: session), app)
    }

    func request(_ path: String, method: HTTPMethod = .GET, token: [String]? = [Self.token.text],
                 headers: [HTTPHeader: String] = [.host: "127.0.0.1:\(Self.port)"]) -> HTTPRequest {
        HTTPRequest(method: method, version: .http11, path: path, query: (token ?? []).map { .init(name: "token", value: $0) },
                    headers: headers, body: Data())
    }

    func body(_ response: HTTPResponse) async throws -> String {
        String(decoding: try await response.bodyData, as: UTF8.self)
    }

    @Test func thePageCarriesTheTokenAndAStrictPolicy() async throws {
        let (router, _) = try await router()
        let response = try await router.handleRequest(request("/"))
        #expect(response.statusCode == .ok)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        let page = try await body(response)
        #expect(page.contains("/assets/phone.js?token=\(Self.token.text)"))
        #expect(!page.contains("{{token}}"))
        let policy = try #require(response.headers[HTTPHeader("Content-Security-Policy")])
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("connect-src 'self' ws://127.0.0.1:8123"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.headers[HTTPHeader("Referrer-Policy")] == "no-referrer")
    }

    @Test(arguments: [
        ("/assets/simulator.css", "text/css; charset=utf-8"),
        ("/assets/phone.js", "text/javascript; charset=utf-8"),
        ("/assets/devtools.js", "text/javascript; charset=utf-8"),
        ("/assets/flow-graph.js", "text/javascript; charset=utf-8"),
        ("/assets/connection.js", "text/javascript; charset=utf-8"),
    ])
    func assetsComeFromTheBinary(path: String, type: String) async throws {
        let (router, _) = try await router()
        let response = try await router.handleRequest(request(path))
        #expect(response.statusCode == .ok)
        #expect(response.headers[.contentType] == type)
        #expect(try await body(response).count > 500)
    }

    @Test func withoutTheTokenNothingIsServed() async throws {
        let (router, _) = try await router()
        for path in ["/", "/assets/phone.js", "/ws", "/nothing"] {
            let none = try await router.handleRequest(request(path, token: nil))
            #expect(none.statusCode == .unauthorized, "\(path)")
            #expect(try await body(none).contains("the request has no token"))
            let wrong = try await router.handleRequest(request(path, token: ["0123456789abcdeF"]))
            #expect(wrong.statusCode == .unauthorized, "\(path)")
            let twice = try await router.handleRequest(request(path, token: [Self.token.text, Self.token.text]))
            #expect(twice.statusCode == .unauthorized, "\(path)")
            #expect(try await body(twice).contains("more than one token"))
        }
    }

    @Test func aForeignHostOrOriginIsRefusedEvenWithTheToken() async throws {
        let (router, _) = try await router()
        let rebinding = try await router.handleRequest(request("/", headers: [.host: "attacker.example:\(Self.port)"]))
        #expect(rebinding.statusCode == .forbidden)
        #expect(try await body(rebinding).contains("DNS rebinding"))
        let noHost = try await router.handleRequest(request("/", headers: [:]))
        #expect(noHost.statusCode == .forbidden)
        let foreignOrigin = try await router.handleRequest(request("/ws", headers: [
            .host: "127.0.0.1:\(Self.port)", HTTPHeader("Origin"): "http://attacker.example",
            .connection: "Upgrade", .upgrade: "websocket", .webSocketKey: "dGhlIHNhbXBsZSBub25jZQ==", .webSocketVersion: "13",
        ]))
        #expect(foreignOrigin.statusCode == .forbidden)
        #expect(try await body(foreignOrigin).contains("is not this server"))
    }

    @Test func otherMethodsPathsAndBadHandshakesGet4xx() async throws {
        let (router, _) = try await router()
        for method in [HTTPMethod.POST, .PUT, .DELETE, .HEAD, .OPTIONS] {
            let response = try await router.handleRequest(request("/", method: method))
            #expect(response.statusCode == .methodNotAllowed, "\(method)")
            #expect(response.headers[HTTPHeader("Allow")] == "GET")
        }
        for path in ["/assets/../etc/passwd", "/assets/index.html", "/assets/", "/assets/nothing.js", "/index.html", "/phone.js"] {
            let missing = try await router.handleRequest(request(path))
            #expect(missing.statusCode == .notFound, "\(path)")
        }
        let noOrigin = try await router.handleRequest(request("/ws", headers: [
            .host: "127.0.0.1:\(Self.port)", .connection: "Upgrade", .upgrade: "websocket",
            .webSocketKey: "dGhlIHNhbXBsZSBub25jZQ==", .webSocketVersion: "13",
        ]))
        #expect(noOrigin.statusCode == .forbidden)
        let notAHandshake = try await router.handleRequest(request("/ws", headers: [
            .host: "127.0.0.1:\(Self.port)", HTTPHeader("Origin"): "http://127.0.0.1:\(Self.port)",
        ]))
        #expect(notAHandshake.statusCode == .badRequest)
        let badKey = try await router.handleRequest(request("/ws", headers: [
            .host: "127.0.0.1:\(Self.port)", HTTPHeader("Origin"): "http://127.0.0.1:\(Self.port)",
            .connection: "Upgrade", .upgrade: "websocket", .webSocketKey: "short", .webSocketVersion: "13",
        ]))
        #expect(badKey.statusCode == .badRequest)
    }

    @Test func aGoodHandshakeSwitchesProtocols() async throws {
        let (router, _) = try await router()
        let response = try await router.handleRequest(request("/ws", headers: [
            .host: "localhost:\(Self.port)", HTTPHeader("Origin"): "http://localhost:\(Self.port)",
            .connection: "Upgrade", .upgrade: "websocket", .webSocketKey: "dGhlIHNhbXBsZSBub25jZQ==", .webSocketVersion: "13",
        ]))
        #expect(response.statusCode == .switchingProtocols)
        #expect(response.headers[.webSocketAccept] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func untilTheServerListensEveryRequestWaits() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let router = ServeRouter(token: Self.token, port: ServeRouter.ListeningPort(), session: session)
        let response = try await router.handleRequest(request("/"))
        #expect(response.statusCode == .serviceUnavailable)
    }
}

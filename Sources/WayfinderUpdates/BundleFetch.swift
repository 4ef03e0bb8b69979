import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Downloads a bundle for `wayfinder bundle fetch` (docs/updates.md, "Fetching"): over HTTPS,
/// or plain HTTP to this machine only (tests, a local mirror); redirects follow the same rule;
/// the body is cut off past ``BundleLimits/archiveBytes``; `If-None-Match` sends the ETag of
/// the last bundle fetched from the same URL, so an unchanged bundle is not downloaded again.
public enum BundleFetch {
    /// What a fetch brought: nothing new, or a bundle's bytes to install.
    public enum Outcome: Equatable, Sendable {
        /// The server says the bundle is the one fetched last (304).
        case notModified
        /// The bundle's bytes, and its ETag when the server sent one.
        case fetched([UInt8], etag: String?)
    }

    /// Why a fetch brought nothing: a refused URL, a server's status, a download cut off at the cap.
    public struct FetchError: Error, CustomStringConvertible, Sendable {
        /// What went wrong, naming the URL or the status.
        public let reason: String
        /// The reason, as the command line prints it.
        public var description: String { reason }
    }

    /// Why `url` may not be fetched from; nil when it may.
    public static func problem(_ url: URL) -> String? {
        switch url.scheme?.lowercased() {
        case "https": return url.host == nil ? "has no host" : nil
        case "http":
            let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            return host == "localhost" || host == "::1" || host.hasPrefix("127.") ? nil : "plain http is only for this machine (127.0.0.1, ::1, localhost); use https"
        default: return "not an https URL"
        }
    }

    /// Fetches `url`, waiting at most `timeout` seconds for each read.
    public static func fetch(_ url: URL, etag: String?, timeout: TimeInterval = 60) throws(FetchError) -> Outcome {
        if let problem = problem(url) { throw FetchError(reason: "\(url.absoluteString): \(problem)") }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let receiver = Receiver()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: receiver, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: request).resume()
        receiver.done.wait()
        let (status, headers, body, failure) = receiver.result()
        if let failure { throw FetchError(reason: "\(url.absoluteString): \(failure)") }
        switch status {
        case 304: return .notModified
        case 200: return .fetched(body, etag: headers["etag"])
        default: throw FetchError(reason: "\(url.absoluteString): the server answered \(status)")
        }
    }

    /// Collects one response, within the cap.
    private final class Receiver: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var status = 0
        private var headers = [String: String]()
        private var body = [UInt8]()
        private var failure: String?

        func result() -> (Int, [String: String], [UInt8], String?) {
            lock.withLock { (status, headers, body, failure) }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let http = response as? HTTPURLResponse else {
                lock.withLock { failure = "not an HTTP response" }
                completionHandler(.cancel)
                return
            }
            let length = http.expectedContentLength
            lock.withLock {
                status = http.statusCode
                for (key, value) in http.allHeaderFields {
                    if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
                }
                if length > Int64(BundleLimits.archiveBytes) { failure = "the bundle is \(length) bytes, more than \(BundleLimits.archiveBytes)" }
            }
            completionHandler(length > Int64(BundleLimits.archiveBytes) ? .cancel : .allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let over = lock.withLock { () -> Bool in
                guard failure == nil else { return true }
                guard body.count + data.count <= BundleLimits.archiveBytes else {
                    failure = "the bundle is more than \(BundleLimits.archiveBytes) bytes"
                    return true
                }
                body.append(contentsOf: data)
                return false
            }
            if over { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            if let url = request.url, let problem = BundleFetch.problem(url) {
                lock.withLock { failure = "redirected to \(url.absoluteString), which \(problem)" }
                completionHandler(nil)
                return
            }
            completionHandler(request)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            lock.withLock {
                if let error, failure == nil { failure = error.localizedDescription }
            }
            done.signal()
        }
    }
}

import Wayfinder

/// Why an open failed, as every front end says it (`wayfinder open`, `run`, `wf.testing`): the
/// URL named once. The navigator's own errors already name it; a script's error does not.
package enum OpenFailure {
    /// The reason an open of `url` failed with `error`, in the words a script's `open` answer gives.
    package static func reason(_ error: Error, url: String) -> String {
        if let error = error as? ScriptError { return "cannot open '\(url)': \(error.message)" }
        return String(describing: error)
    }
}

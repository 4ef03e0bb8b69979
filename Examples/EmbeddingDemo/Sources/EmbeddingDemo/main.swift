import Foundation

// Runs the demo's session (DemoSession.swift) with its state in a file of its own, removed after,
// while a task reads the host's stream of events.
let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-demo-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
var session: DemoSession? = try DemoSession(stateFile: stateDirectory.appendingPathComponent("restaurant.json").path)
let listening = session!.listen()
session!.run()
let keptStep = session!.keptStep
let presented = session!.presenter.applied
// The session goes, and with it the host: its stream ends, and the task answers what it heard.
session = nil
let streamed = await listening.value
print(streamed == presented
    ? "the event stream heard the same \(streamed.count) events as the presenter, and ended with the host"
    : "! the event stream heard \(streamed.count) events, the presenter \(presented.count)")
try? FileManager.default.removeItem(at: stateDirectory)
exit(keptStep && streamed == presented ? 0 : 1)

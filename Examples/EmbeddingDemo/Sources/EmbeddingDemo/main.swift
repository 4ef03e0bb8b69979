import Foundation

// Runs the demo's session (DemoSession.swift) with its state in a file of its own, removed after.
let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("embedding-demo-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
let session = try DemoSession(stateFile: stateDirectory.appendingPathComponent("restaurant.json").path)
session.run()
try? FileManager.default.removeItem(at: stateDirectory)
exit(session.keptStep ? 0 : 1)

// swift-tools-version: 5.9
import PackageDescription

let package = Package(name: "Syncing", targets: [.executableTarget(name: "Syncing", path: "Sources")])

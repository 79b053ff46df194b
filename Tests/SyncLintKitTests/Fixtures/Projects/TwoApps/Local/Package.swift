// swift-tools-version: 5.9
import PackageDescription

let package = Package(name: "Local", targets: [.executableTarget(name: "Local", path: "Sources")])

// swift-tools-version:6.0
// The README's library example as a package of its own, depending on the Typeset checkout by
// path. `make test` builds and runs it, so the example cannot drift from the API.
import PackageDescription

let package = Package(
    name: "LibraryExample",
    dependencies: [.package(name: "Typeset", path: "../..")],
    targets: [
        .executableTarget(name: "LibraryExample", dependencies: [.product(name: "Typeset", package: "Typeset")])
    ],
    swiftLanguageModes: [.v6]
)

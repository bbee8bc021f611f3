// swift-tools-version:6.0
// Typeset — Markdown to print-quality PDF with a design system's type scale.
// Depends only on the Swift toolchain and on Debian's C libraries (system-library targets).
import PackageDescription

let package = Package(
    name: "Typeset",
    products: [
        .executable(name: "typeset", targets: ["typeset"]),
        .library(name: "Typesetter", targets: ["Typesetter"]),
        // The library for Swift programs: `import Typeset` brings every type the API takes or returns.
        .library(name: "Typeset", targets: ["Typeset"]),
        // KSyntaxHighlighting and Qt 5 behind CSyntaxHighlighting's C functions, in a shared library
        // of their own that `typeset` loads with dlopen when a document first highlights code.
        .library(name: "TypesetSyntaxHighlighting", type: .dynamic, targets: ["SyntaxHighlightingLibrary"]),
    ],
    targets: [
        // C libraries from Debian, found with pkg-config.
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev", "libfontconfig-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        // GIO's file monitor, for `typeset watch`.
        .systemLibrary(
            name: "CGio", pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        // zlib has no pkg-config file on every system: the module map links -lz.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // libpng 1.6, for a PNG much larger than it prints, read a row at a time and made smaller
        // as it is read; its shim holds the C that keeps libpng's longjmp out of Swift frames.
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"])]),
        // gdk-pixbuf/librsvg (pictures) are loaded with dlopen when first needed, not linked: a C
        // target whose functions load the library on first call.
        .target(name: "CRsvg", dependencies: ["CPangoCairo"]),
        // One FreeType face per font file for the whole process, given to Cairo with every font
        // face Pango makes (its own `cairo_ft_font_face_create_for_pattern`, which the linker
        // exports from every executable that links libpangocairo), so that renders on several
        // threads never have a face closed under them (docs/architecture.md, "Threads").
        .target(name: "CFaceSharing", dependencies: ["CPangoCairo"]),
        // The numbers Cairo writes into PDF content streams (`%f`, `%.Nf`, `%.*f`), formatted
        // exactly as glibc formats them but without its general conversion: its own
        // `__snprintf_chk`, which the linker exports as it does CFaceSharing's function
        // (docs/performance.md, "Numbers in content streams").
        .target(name: "CNumberFormatting"),
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // libhyphen has no pkg-config file: the module map links -lhyphen.
        .systemLibrary(name: "CHyphen", providers: [.apt(["libhyphen-dev"])]),
        // Qt 5's include paths for the C++ below (pkg-config `Qt5Gui` brings QtCore's too).
        .systemLibrary(
            name: "CQt5", pkgConfig: "Qt5Gui",
            providers: [.apt(["qtbase5-dev"])]),
        // KSyntaxHighlighting (KDE Frameworks 5) behind a C interface (spans of plain integers, no
        // Qt type): C functions that load libTypesetSyntaxHighlighting.so with dlopen on first call,
        // so a render without highlighted code never maps Qt.
        .target(name: "CSyntaxHighlighting", linkerSettings: [.linkedLibrary("dl")]),
        // The C++ over KSyntaxHighlighting (no pkg-config file, its headers are named by their path
        // under /usr/include) that the TypesetSyntaxHighlighting shared library is built from. It
        // holds no Swift: linked with the static Swift runtime, it takes none of it, and loading it
        // loads no second runtime beside the one in `typeset` (highlighting.cpp, at its end).
        .target(
            name: "SyntaxHighlightingLibrary", dependencies: ["CQt5"],
            linkerSettings: [
                .linkedLibrary("KF5SyntaxHighlighting"), .linkedLibrary("Qt5Core"),
                .unsafeFlags(["-static-stdlib"]),
            ]),

        // Pure Swift: the type-scale model, the document tree, style resolution, pagination.
        .target(name: "Typography"),
        // A bounded queue handing work from one thread to another in order (the styling thread,
        // the tagging pass's content streams and object-stream compression).
        .target(name: "WorkQueues"),
        // The C heap's tuning for a process that renders (glibc's malloc_trim, mallopt and
        // transparent huge pages), looked up at run time.
        .target(name: "ProcessMemory"),
        .target(name: "DocumentModel", dependencies: ["Typography"]),
        // TeX math: the parser, the symbol table and the layout by the OpenType MATH table over a
        // font protocol the backend implements. Pure Swift, no dependency.
        .target(name: "TeXMath"),
        .target(
            name: "MarkdownParser", dependencies: ["DocumentModel", "Typography", "CCmarkGFM", "CYAML", "CLibXML2"]),
        // Syntax highlighting of code: the one module that calls KSyntaxHighlighting.
        .target(name: "CodeHighlighting", dependencies: ["Typography", "CSyntaxHighlighting"]),
        .target(name: "Styling", dependencies: ["DocumentModel", "Typography", "CodeHighlighting", "TeXMath"]),
        .target(name: "Layout", dependencies: ["Styling"]),
        // Reads the PDF Cairo wrote and writes the tagged PDF: the structure tree, PDF/UA. Pure
        // Swift over bytes (zlib for the streams): no Pango or Cairo call.
        .target(name: "TaggedPDF", dependencies: ["Styling", "Typography", "WorkQueues", "CZlib"]),
        // The only module that touches Pango, Cairo, fontconfig, librsvg, libhyphen and libpng pointers.
        .target(
            name: "PangoCairoBackend",
            dependencies: [
                "Layout", "TaggedPDF", "CPangoCairo", "CRsvg", "CHyphen", "CFaceSharing", "CNumberFormatting", "CPNG",
            ]),
        .target(name: "Specimen", dependencies: ["Styling", "Typography", "DocumentModel"]),
        .target(
            name: "Typesetter",
            dependencies: [
                "MarkdownParser", "Styling", "Layout", "TaggedPDF", "PangoCairoBackend", "Specimen", "WorkQueues",
                "ProcessMemory", "CodeHighlighting",
            ]),
        // One import for clients: re-exports Typesetter, Typography and DocumentModel.
        .target(name: "Typeset", dependencies: ["Typesetter"]),
        // The commit `typeset --version` prints (the Makefile writes Sources/CBuildInfo/commit.h).
        .target(name: "CBuildInfo"),
        .executableTarget(name: "typeset", dependencies: ["Typesetter", "CBuildInfo", "CGio"]),
        // The README's library example, `Examples/LibraryExample`'s main.swift, built with the tests
        // so that `make test` runs it on the same build; the folder is also a package of its own
        // that depends on this one by path, as a program outside it would.
        .executableTarget(
            name: "TypesetLibraryExample", dependencies: ["Typeset"],
            path: "Examples/LibraryExample/Sources/LibraryExample"),
        // `make bench`: Typeset beside the Pango + Cairo floor, in pairs; scaling rows; the composer's figures;
        // twenty renders in one process, one after another and from a TaskGroup.
        .target(name: "BenchSupport"),
        .executableTarget(name: "typeset-bench", dependencies: ["BenchSupport", "Typeset"]),

        // The one home of the tests' helpers (docs/testing.md): running the `typeset` executable and
        // the PDF tools, rendering into a temporary folder, reading a PDF back (poppler-utils, qpdf),
        // a child process's peak memory, generated prose, a seeded random number generator, the
        // backend tests' inputs, and the `.slow` trait `make test-fast` skips.
        .target(
            name: "TestSupport", dependencies: ["Typesetter", "Layout", "Styling", "Typography", "BenchSupport"],
            path: "Tests/TestSupport"),
        .testTarget(name: "TypographyTests", dependencies: ["Typography", "TestSupport"]),
        .testTarget(name: "WorkQueuesTests", dependencies: ["WorkQueues"]),
        .testTarget(name: "CodeHighlightingTests", dependencies: ["CodeHighlighting"]),
        .testTarget(name: "MarkdownParserTests", dependencies: ["MarkdownParser", "TestSupport"]),
        .testTarget(name: "StylingTests", dependencies: ["Styling", "MarkdownParser", "TestSupport"]),
        .testTarget(name: "LayoutTests", dependencies: ["Layout", "TestSupport"]),
        .testTarget(name: "TeXMathTests", dependencies: ["TeXMath"]),
        .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport"]),
        .testTarget(name: "TaggedPDFTests", dependencies: ["TaggedPDF"]),
        .testTarget(
            name: "PangoCairoBackendTests", dependencies: ["PangoCairoBackend", "TaggedPDF", "TestSupport", "TeXMath"]),
        .testTarget(name: "SpecimenTests", dependencies: ["Specimen", "Typesetter", "TestSupport"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["Typesetter", "MarkdownParser", "TaggedPDF", "TestSupport", "CodeHighlighting"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

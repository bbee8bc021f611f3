# Typeset — build, test and sample renders. Every target installs the Debian packages it needs.
SHELL := /bin/bash
SWIFT ?= swift
# The Swift runtime and Foundation are linked into the binary (--static-swift-stdlib): the
# dynamic loader then binds a dozen fewer libraries at every start (docs/performance.md, "One page").
BUILD_FLAGS ?= -c release --static-swift-stdlib
BIN = .build/release/typeset

# Debian packages: C libraries (pkg-config), fonts, the PDF tools the tests read back with, and
# the sRGB ICC profile of PDF/A's output intent (icc-profiles-free); Latin Modern Math and TeX Gyre
# Pagella Math are the OpenType MATH faces the math tests set formulas in; Valgrind's Callgrind
# counts the instructions of the work-cost tests; node-emoji's table holds GitHub's emoji shortcodes
# (`:rocket:`), which the styler reads.
APT_PACKAGES = pkg-config libpango1.0-dev libcairo2-dev libfontconfig-dev libfreetype-dev \
  libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev librsvg2-dev \
  libhyphen-dev hyphen-en-us hyphen-de hyphen-fr zlib1g-dev libpng-dev libxml2-dev libgdk-pixbuf-2.0-dev webp-pixbuf-loader imagemagick \
  fonts-inter fonts-noto-cjk fonts-noto-mono fonts-dejavu-core fonts-dejavu-extra fonts-noto-color-emoji node-emoji \
  fonts-lmodern fonts-texgyre-math \
  libkf5syntaxhighlighting-dev qtbase5-dev \
  poppler-utils qpdf time icc-profiles-free valgrind
STAMP = .build/.deps-installed

.PHONY: math-reference all deps build pdf-check pdf-peers test test-fast tsan asan corpus-check showcase specimens bench bench-dir fuzz fonts-extra clean check-layering check-functions commit-info library-example readme-example install format lint

all: build

# Install what is missing (once per machine; the stamp is refreshed when this file changes).
deps: $(STAMP)
$(STAMP): Makefile
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi
	@mkdir -p .build && touch $(STAMP)

# The binary, and beside it libTypesetSyntaxHighlighting.so (KSyntaxHighlighting and Qt 5), which it
# loads when a document first highlights code.
build: deps commit-info
	$(SWIFT) build $(BUILD_FLAGS) --product typeset 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	$(SWIFT) build $(BUILD_FLAGS) --product TypesetSyntaxHighlighting 2>&1 | grep -v 'prohibited flag' ; \
	  exit $${PIPESTATUS[0]}

# The commit `typeset --version` prints: rewritten (and build_info.c touched) only when it changes.
commit-info:
	@c="#define TYPESET_COMMIT \"$$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$$(git diff --quiet HEAD -- 2>/dev/null || echo -dirty)\""; \
	f=Sources/CBuildInfo/commit.h; if [ "$$(cat $$f 2>/dev/null)" != "$$c" ]; then echo "$$c" > $$f; touch Sources/CBuildInfo/build_info.c; fi

# The CommonMark 0.31.2 spec examples, from the source archive of markdown-it-py on PyPI
# (fetched once, cached under .build/, never copied into the repository).
SPEC_JSON = .build/spec/commonmark.json
SPEC_PACKAGE = markdown-it-py==4.3.0
$(SPEC_JSON):
	@mkdir -p .build/spec
	pip download --quiet --no-deps --no-binary :all: -d .build/spec $(SPEC_PACKAGE)
	tar xzf .build/spec/markdown_it_py-4.3.0.tar.gz -C .build/spec --strip-components=3 \
	  markdown_it_py-4.3.0/tests/test_cmark_spec/commonmark.json
	@test -s $@

# The PDF/UA-1 and PDF/A checker (page-validation on PyPI: a Rust checker with Python
# bindings, `page.validate_pdf(path, profile="ua1")`) and pypdf (a second text extractor), in
# a virtual environment under .build/ (made once, never part of the repository).
PDF_CHECK = .build/pdf-check/bin/python
PDF_CHECK_PACKAGES = page-validation==0.11.0 pypdf==7.1.1
$(PDF_CHECK):
	python3 -m venv .build/pdf-check
	.build/pdf-check/bin/pip install --quiet $(PDF_CHECK_PACKAGES)
	@$@ -c 'import page, pypdf'
# WeasyPrint (PyPI; HTML and CSS to PDF over Pango, as a browser lays out print CSS), in the
# same environment: the CSS export of a theme is rendered by it and compared with Typeset's PDF.
CSS_CHECK = .build/pdf-check/weasyprint-70.0.installed
$(CSS_CHECK): $(PDF_CHECK)
	.build/pdf-check/bin/pip install --quiet weasyprint==70.0
	@$(PDF_CHECK) -c 'import weasyprint'
	@touch $@
pdf-check: $(PDF_CHECK) $(CSS_CHECK)

# Typeset's PDF of one document validated beside Typst's and WeasyPrint's (from PyPI, in a
# virtual environment of their own, so `make test` does not install them); prints the table
# docs/accessibility.md shows.
PDF_PEERS = .build/pdf-peers/bin/python
PDF_PEERS_PACKAGES = page-validation==0.11.0 typst==0.15.2 weasyprint==70.0
$(PDF_PEERS):
	python3 -m venv .build/pdf-peers
	.build/pdf-peers/bin/pip install --quiet $(PDF_PEERS_PACKAGES)
	@$@ -c 'import page, typst, weasyprint'
# pikepdf (PyPI), in the same environment: bench/composition-reference.py reads each line's font
# expansion from the PDF's text matrices with it (without it, Korean syllable spacing reads wider).
PEERS_PIKEPDF = .build/pdf-peers/pikepdf-10.18.0.installed
$(PEERS_PIKEPDF): $(PDF_PEERS)
	.build/pdf-peers/bin/pip install --quiet pikepdf==10.18.0
	@$(PDF_PEERS) -c 'import pikepdf'
	@touch $@
pdf-peers: build $(PDF_PEERS)
	$(PDF_PEERS) Tests/Scripts/pdf-peers.py $(CURDIR)/$(BIN) templates/images/press.jpg output/peers

# The README's test command: layering check, the release binary, the README's library example
# (built with the tests, checked to be the README's words) and every unit and end-to-end test.
test: deps check-layering build readme-example $(SPEC_JSON) $(PDF_CHECK) $(CSS_CHECK)
	$(SWIFT) build --build-tests 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	.build/debug/TypesetLibraryExample
	TYPESET_BIN=$(CURDIR)/$(BIN) TYPESET_COMMONMARK_SPEC=$(CURDIR)/$(SPEC_JSON) TYPESET_REQUIRE_SPEC=1 \
	  TYPESET_PDF_CHECK=$(CURDIR)/$(PDF_CHECK) \
	  $(SWIFT) test --skip-build 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# Thread Sanitizer over the suites that render in parallel in one process: the package and its
# tests built with -sanitize=thread in a folder of their own (.build/tsan, so the debug build is
# kept), then ConcurrentRenderTests, AsyncRenderTests, RenderSlotsTests and LayoutAheadTests (one
# render's layout and drawing threads sharing its font map); any data race TSan sees fails the run.
TSAN_SUITES ?= ConcurrentRenderTests|AsyncRenderTests|RenderSlotsTests|LayoutAheadTests
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan \
	  --filter '$(TSAN_SUITES)' 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# Address Sanitizer over the fuzz campaign (its fixed seed, or FUZZ_SEED, FUZZ_CASES and
# FUZZ_SECONDS as `make fuzz` takes them) and the hyphenation and shaping suites: the package
# built with -sanitize=address in a folder of its own (.build/asan), GLib's slice allocator
# replaced by malloc so that Pango's attributes and items are checked too; a read or write out
# of bounds, a use after free or a double free fails the run at its first occurrence.
ASAN_SUITES ?= FuzzTests|HyphenatorTests|ParagraphShapingTests|LongParagraphTests
asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	G_SLICE=always-malloc ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 TYPESET_BIN=$(CURDIR)/$(BIN) \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan \
	  --filter '$(ASAN_SUITES)' 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# Every test but those marked `.slow` (scaling, memory peaks, fuzzing, huge inputs): the
# layering check, the release binary and the suites, without the library example.
test-fast: deps check-layering build $(SPEC_JSON) $(PDF_CHECK) $(CSS_CHECK)
	TYPESET_BIN=$(CURDIR)/$(BIN) TYPESET_COMMONMARK_SPEC=$(CURDIR)/$(SPEC_JSON) TYPESET_SKIP_SLOW=1 \
	  TYPESET_PDF_CHECK=$(CURDIR)/$(PDF_CHECK) \
	  $(SWIFT) test 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# The README quotes the library example's main.swift verbatim.
readme-example:
	@python3 -c 'import sys; sys.exit(0 if open("Examples/LibraryExample/Sources/LibraryExample/main.swift").read() in open("README.md").read() else 1)' \
	  || { echo "README.md does not quote Examples/LibraryExample/Sources/LibraryExample/main.swift"; exit 1; }

# The README's library example built and run as a package of its own that depends on this
# checkout by path, as a program outside it would (a second debug build of the package, so not
# part of `make test`, which builds the same main.swift with the tests).
# SwiftPM 6.3 notices a source file added to a path dependency only on the build after the one
# that first sees it (the first fails with "cannot find … in scope"; several new files can take
# two builds more), so a failure is retried twice; a source file removed from the dependency
# fails every build ("missing inputs") until the example's build folder is made anew.
library-example: deps readme-example
	cd Examples/LibraryExample && { $(SWIFT) build >/dev/null 2>&1 || $(SWIFT) build >/dev/null 2>&1 || \
	  { rm -rf .build && $(SWIFT) build 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}; }; }
	cd Examples/LibraryExample && .build/debug/LibraryExample

# The module table: one module alone touches cmark, libyaml and libxml2 pointers (MarkdownParser),
# one alone Pango/Cairo, librsvg and libhyphen (PangoCairoBackend), one alone KSyntaxHighlighting and
# Qt (CodeHighlighting, through the C++ target CSyntaxHighlighting), one alone zlib (TaggedPDF, which
# reads and writes PDF with no Pango or Cairo call), and GIO's file monitor is the command line's.
# The pure modules never import the backend; the command line and the `Typeset` library depend on
# `Typesetter` and the value modules, never on the backend.
IMPORT = ^\s*(@_implementationOnly |@_exported |@testable |internal |package |public )?import +
check-layering:
	@bad=$$(grep -rlE '$(IMPORT)(CPangoCairo|CRsvg|CHyphen|CFaceSharing|CNumberFormatting|CPNG)\b' Sources | grep -v '^Sources/PangoCairoBackend/'; \
	        grep -rlE '$(IMPORT)CZlib\b' Sources | grep -v '^Sources/TaggedPDF/'; \
	        grep -rlE '$(IMPORT)(CCmarkGFM|CYAML|CLibXML2)\b' Sources | grep -v '^Sources/MarkdownParser/'; \
	        grep -rlE '$(IMPORT)(CBuildInfo|CGio)\b' Sources | grep -v '^Sources/typeset/'; \
	        grep -rlE '$(IMPORT)(CSyntaxHighlighting|CQt5)\b' Sources | grep -v '^Sources/CodeHighlighting/'; \
	        grep -rlE '^\s*#\s*include\s*[<"](KF5/|KSyntaxHighlighting|Q[A-Z])' Sources | grep -v '^Sources/SyntaxHighlightingLibrary/'; \
	        grep -rlE '$(IMPORT)PangoCairoBackend\b' Sources | grep -v '^Sources/Typesetter/'); \
	if [ -n "$$bad" ]; then echo "imported outside its owner: $$bad"; exit 1; else echo "layering: ok"; fi

# The LuaLaTeX figures the math tests compare against (Tests/PangoCairoBackendTests/
# LuaLaTeXMathFigures.swift): LuaLaTeX with unicode-math measures each formula of
# tools/math-reference.py. Not part of `make test`, which reads the recorded figures.
math-reference:
	@for package in texlive-luatex texlive-latex-extra fonts-dejavu-extra; do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q 'install ok installed' || missing=1; \
	done; [ -z "$$missing" ] || \
	  (apt-get update && apt-get install -y --no-install-recommends texlive-luatex texlive-latex-extra fonts-dejavu-extra)
	python3 tools/math-reference.py

# No function in Sources over 120 lines (declaration to closing brace): long ones are split
# into named steps. Prints the ten longest.
check-functions:
	@python3 .ci/function-lengths.py --max 120 Sources

# The formatter: swift-format (part of the toolchain) with the committed .swift-format: 120
# columns, 4-space indentation, one statement a line. `make lint` fails on anything it would
# change, on a line over 120 characters it cannot break (a long string or comment), and on a
# function over 120 lines (check-functions).
SWIFT_SOURCES = Package.swift Sources Tests Examples/LibraryExample/Package.swift Examples/LibraryExample/Sources
format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_SOURCES)
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_SOURCES)
	@python3 -c 'import pathlib, sys; \
	  long = [f"{p}:{n}: line of {len(l)} characters (at most 120)" for root in sys.argv[1:] for p in sorted(pathlib.Path(root).rglob("*.swift")) if ".build" not in p.parts for n, l in enumerate(p.read_text().splitlines(), 1) if len(l) > 120]; \
	  print("\n".join(long)) if long else print("lint: ok"); sys.exit(1 if long else 0)' Sources Tests Examples/LibraryExample/Sources
	@$(MAKE) --no-print-directory check-functions

# Every Markdown file under CORPUS (default: the machine's /usr/share/doc) rendered and read back:
# each word of cmark-gfm's plain text must be in the PDF's text, in order (a footnote's anywhere).
CORPUS ?= /usr/share/doc
corpus-check: build
	@dpkg-query -W -f='$${Status}' cmark-gfm 2>/dev/null | grep -q 'install ok installed' || \
	  { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq cmark-gfm >/dev/null; }
	python3 Tests/Scripts/nothing-lost-corpus.py $(BIN) $(CORPUS)

showcase: build
	$(BIN) render templates/showcase.md -o output/showcase.pdf

specimens: build
	for theme in default hig pretendard; do $(BIN) specimen --theme $$theme -o output/specimen-$$theme.pdf || exit 1; done

# The benchmark folder beside the project: floor.c (the least a Pango + Cairo program costs for
# the same text) and make_corpus.py (the documents), built and generated into .build/bench.
# BENCH_ARGS narrows a run: BENCH_ARGS='--pairs 5 --only large' (typeset-bench --help lists rows).
BENCH_DIR ?= ../shared/bench
BENCH_OUT = .build/bench
BENCH_ARGS ?=
bench-dir:
	@if [ ! -f "$(BENCH_DIR)/floor.c" ] || [ ! -f "$(BENCH_DIR)/make_corpus.py" ]; then \
	  echo "make bench: BENCH_DIR=$(BENCH_DIR) has no floor.c and make_corpus.py; set BENCH_DIR to the benchmark folder" >&2; exit 1; fi
bench: bench-dir build $(PDF_PEERS) $(PEERS_PIKEPDF)
	@mkdir -p $(BENCH_OUT)/corpus
	@[ $(BENCH_OUT)/floor -nt "$(BENCH_DIR)/floor.c" ] || { echo "building the floor: $(BENCH_OUT)/floor"; \
	  cc -O2 -o $(BENCH_OUT)/floor "$(BENCH_DIR)/floor.c" $$(pkg-config --cflags --libs pangocairo); }
	@[ $(BENCH_OUT)/corpus/book.txt -nt "$(BENCH_DIR)/make_corpus.py" ] || { echo "generating the corpus: $(BENCH_OUT)/corpus"; \
	  python3 "$(BENCH_DIR)/make_corpus.py" --out $(BENCH_OUT)/corpus >/dev/null && \
	  python3 "$(BENCH_DIR)/make_corpus.py" --out $(BENCH_OUT)/corpus --sections 1050 --name book >/dev/null; }
	$(SWIFT) build $(BUILD_FLAGS) --product typeset-bench 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	.build/release/typeset-bench --typeset $(BIN) --floor $(BENCH_OUT)/floor --corpus $(BENCH_OUT)/corpus $(BENCH_ARGS)
	@# Eight documents rendered one at a time, then by -j (one process per file, every core); not when BENCH_ARGS narrows the run.
	@[ -z "$(BENCH_ARGS)" ] || exit 0; d=$$(mktemp -d); for i in 1 2 3 4 5 6 7 8; do cp templates/showcase.md $$d/doc$$i.md; done; cp -r templates/images $$d/; \
	one=$$( { /usr/bin/time -f %e $(BIN) render -q -j 1 --output-dir $$d/a $$d/*.md; } 2>&1 | tail -1 ); \
	all=$$( { /usr/bin/time -f %e $(BIN) render -q --output-dir $$d/b $$d/*.md; } 2>&1 | tail -1 ); \
	awk -v one=$$one -v all=$$all -v n=$$(nproc) 'BEGIN { printf "8 documents: -j 1 %.2f s, -j %d %.2f s (%.2f x sequential)\n", one, n, all, all / one }'; \
	rm -rf $$d

# The binary (with the highlighting library in PREFIX/lib/typeset, where the binary looks for it),
# its man page and bash/zsh completions (all generated from the option table) under
# PREFIX, and the templates (specimen.md, the showcase, themes, tokens) in PREFIX/share/typeset/templates,
# where the binary looks for them beside its own folder (../share/typeset/templates).
PREFIX ?= /usr/local
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/typeset/templates
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/typeset
	install -d $(DESTDIR)$(PREFIX)/lib/typeset
	install -m 644 .build/release/libTypesetSyntaxHighlighting.so $(DESTDIR)$(PREFIX)/lib/typeset/
	cp -R --no-preserve=ownership templates/. $(DESTDIR)$(PREFIX)/share/typeset/templates/
	chmod -R u=rwX,go=rX $(DESTDIR)$(PREFIX)/share/typeset/templates
	$(BIN) help man > $(DESTDIR)$(PREFIX)/share/man/man1/typeset.1
	$(BIN) completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/typeset
	$(BIN) completions zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_typeset

# The fuzz test's generator unseeded, for SECONDS seconds (default 600) on every shard at once;
# each failing input is saved to fuzz/failures/ with a one-line reproduction.
SECONDS ?= 600
fuzz: deps build
	mkdir -p fuzz/failures
	FUZZ_SEED=random FUZZ_SECONDS=$(SECONDS) TYPESET_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --filter FuzzTests 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# Noto Sans CJK in every weight (Thin … Black): a large download (~134 MB).
fonts-extra: deps
	SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y fonts-noto-cjk-extra

clean:
	rm -rf .build
	find output -type f ! -name .gitkeep -delete

# Typeset — build, test and sample renders. Every target installs the Debian packages it needs.
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?= -c release
BIN = .build/release/typeset

# Debian packages: C libraries (pkg-config), fonts, and the PDF tools the tests read back with.
APT_PACKAGES = pkg-config libpango1.0-dev libcairo2-dev libfontconfig-dev libfreetype-dev \
  libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev librsvg2-dev \
  libhyphen-dev hyphen-en-us hyphen-de hyphen-fr libqpdf-dev libxml2-dev libgdk-pixbuf-2.0-dev webp-pixbuf-loader imagemagick \
  fonts-inter fonts-noto-cjk fonts-noto-mono fonts-dejavu-core fonts-noto-color-emoji \
  poppler-utils qpdf time
STAMP = .build/.deps-installed

.PHONY: all deps build test showcase specimens bench fuzz fonts-extra clean check-layering

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

build: deps
	$(SWIFT) build $(BUILD_FLAGS) --product typeset 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# The README's test command: layering check, then every unit and end-to-end test.
test: deps check-layering build $(SPEC_JSON)
	TYPESET_BIN=$(CURDIR)/$(BIN) TYPESET_COMMONMARK_SPEC=$(CURDIR)/$(SPEC_JSON) TYPESET_REQUIRE_SPEC=1 \
	  $(SWIFT) test 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

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

# One module alone touches cmark, libyaml and libxml2 pointers, one alone Pango/Cairo and librsvg.
check-layering:
	@bad=$$(grep -rlE '^\s*(@_implementationOnly |internal |public )?import +(CPangoCairo|CRsvg|CHyphen)' Sources | grep -v '^Sources/PangoCairoBackend/'; \
	        grep -rlE '^\s*(@_implementationOnly |internal |public )?import +(CCmarkGFM|CYAML|CLibXML2)' Sources | grep -v '^Sources/MarkdownParser/'); \
	if [ -n "$$bad" ]; then echo "C module imported outside its owner: $$bad"; exit 1; else echo "layering: ok"; fi

showcase: build
	$(BIN) render templates/showcase.md -o output/showcase.pdf

specimens: build
	for theme in default hig pretendard; do $(BIN) specimen --theme $$theme -o output/specimen-$$theme.pdf || exit 1; done

bench: build
	$(SWIFT) build -c release --product typeset-bench 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	.build/release/typeset-bench

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

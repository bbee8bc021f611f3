# Typeset — build, test and sample renders. Every target installs the Debian packages it needs.
SHELL := /bin/bash
SWIFT ?= swift
BUILD_FLAGS ?= -c release
BIN = .build/release/typeset

# Debian packages: C libraries (pkg-config), fonts, and the PDF tools the tests read back with.
APT_PACKAGES = pkg-config libpango1.0-dev libcairo2-dev libfontconfig-dev libfreetype-dev \
  libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev librsvg2-dev \
  libhyphen-dev hyphen-en-us hyphen-de hyphen-fr libqpdf-dev libxml2-dev libgdk-pixbuf-2.0-dev \
  fonts-inter fonts-noto-cjk fonts-noto-mono fonts-dejavu-core fonts-noto-color-emoji \
  poppler-utils qpdf time
STAMP = .build/.deps-installed

.PHONY: all deps build test showcase specimens bench fonts-extra clean check-layering

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
test: deps check-layering build
	TYPESET_BIN=$(CURDIR)/$(BIN) $(SWIFT) test 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}

# One module alone touches cmark pointers, one alone Pango/Cairo (shared/design.md).
check-layering:
	@bad=$$(grep -rlE '^\s*(@_implementationOnly |internal |public )?import +(CPangoCairo|CRsvg|CQPDF)' Sources | grep -v '^Sources/PangoCairoBackend/'; \
	        grep -rlE '^\s*(@_implementationOnly |internal |public )?import +(CCmarkGFM|CYAML)' Sources | grep -v '^Sources/MarkdownParser/'); \
	if [ -n "$$bad" ]; then echo "C module imported outside its owner: $$bad"; exit 1; else echo "layering: ok"; fi

showcase: build
	$(BIN) render templates/showcase.md -o output/showcase.pdf

specimens: build
	for theme in default hig pretendard; do $(BIN) specimen --theme $$theme -o output/specimen-$$theme.pdf || exit 1; done

bench: build
	$(SWIFT) build -c release --product typeset-bench 2>&1 | grep -v 'prohibited flag' ; exit $${PIPESTATUS[0]}
	.build/release/typeset-bench

# Noto Sans CJK in every weight (Thin … Black): a large download (~134 MB).
fonts-extra: deps
	SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y fonts-noto-cjk-extra

clean:
	rm -rf .build
	find output -type f ! -name .gitkeep -delete

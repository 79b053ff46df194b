# Build, install and package the synclint command-line tool.
#
#   make install                    release build, installed as $(PREFIX)/bin/synclint
#   make install PREFIX=$HOME/.local
#   make uninstall
#   make release                    stripped binary in dist/synclint, Swift runtime linked in
#   make test                       the tests, without the plugins' second build of synclint (see below)
#
# PREFIX, DESTDIR (for packagers: files go under $(DESTDIR)$(PREFIX)), SWIFT and SCRATCH (the
# build folder) can be overridden.

PREFIX ?= /usr/local
SWIFT ?= swift
DIST ?= dist

BINDIR := $(DESTDIR)$(PREFIX)/bin
UNAME := $(shell uname -s)

# On Linux the Swift runtime and Foundation are shared libraries inside the toolchain, so a
# binary linked against them stops working where that toolchain is absent; linking them
# statically makes the binary self-contained. On macOS the runtime ships with the OS, so the
# normal release build is already self-contained.
#
# The build folder: `--static-swift-stdlib` changes how every module is compiled, so on Linux a build
# with it and one without (the README's `swift build -c release`) cannot share a folder: each would
# rebuild swift-syntax from scratch (a release build of it takes tens of minutes on 2 cores) over the
# other. So on Linux `make` keeps its own folder, .build-static, built once and reused by every later
# `make install` / `make release`. On macOS the flags are those of `swift build -c release`, so the
# usual .build is shared with it.
ifeq ($(UNAME),Linux)
STATIC_FLAGS := --static-swift-stdlib
STRIP_FLAGS :=
SCRATCH ?= .build-static
else
STATIC_FLAGS :=
# -x keeps the global symbols and drops the local ones: the safe strip for a Mach-O executable.
STRIP_FLAGS := -x
SCRATCH ?= .build
endif

BUILD_FLAGS := -c release --product synclint --scratch-path $(SCRATCH) $(STATIC_FLAGS)

.PHONY: build release install uninstall clean test

# One release build serves install and release: both use the same flags, so the second is a no-op.
build:
	$(SWIFT) build $(BUILD_FLAGS)

release: build
	mkdir -p $(DIST)
	cp "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/synclint" $(DIST)/synclint
	strip $(STRIP_FLAGS) $(DIST)/synclint
	@ls -l $(DIST)/synclint

# Stripped like the release binary: the symbols are half the file's size.
install: build
	install -d "$(BINDIR)"
	install -m 755 "$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)/synclint" "$(BINDIR)/synclint"
	strip $(STRIP_FLAGS) "$(BINDIR)/synclint"

uninstall:
	rm -f "$(BINDIR)/synclint"

clean:
	rm -rf $(DIST)

# `swift test` builds every target, and the plugins depend on the synclint executable, which SwiftPM
# builds a second time for them as a host tool (synclint, SyncLintKit, swift-syntax, Yams and the
# argument parser, all with a `-tool` suffix in the build folder). The test product needs none of
# that: it needs the test product and the synclint executable the command-line tests run, which share
# one copy of the libraries. `.ci/run` keeps the full `swift build --build-tests`: `.ci/plugin-check`
# needs the plugins' tool.
test:
	$(SWIFT) build --product synclint
	$(SWIFT) build --product SyncLintPackageTests
	$(SWIFT) test --skip-build

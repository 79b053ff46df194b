# Build, install and package the synclint command-line tool.
#
#   make install                    release build, installed as $(PREFIX)/bin/synclint
#   make install PREFIX=$HOME/.local
#   make uninstall
#   make release                    stripped binary in dist/synclint, Swift runtime linked in
#
# PREFIX, DESTDIR (for packagers: files go under $(DESTDIR)$(PREFIX)), SWIFT and SCRATCH (the
# build folder, so an existing scratch such as .build-release can be reused) can be overridden.

PREFIX ?= /usr/local
SWIFT ?= swift
SCRATCH ?= .build
DIST ?= dist

BINDIR := $(DESTDIR)$(PREFIX)/bin
UNAME := $(shell uname -s)

# On Linux the Swift runtime and Foundation are shared libraries inside the toolchain, so a
# binary linked against them stops working where that toolchain is absent; linking them
# statically makes the binary self-contained. On macOS the runtime ships with the OS, so the
# normal release build is already self-contained.
ifeq ($(UNAME),Linux)
STATIC_FLAGS := --static-swift-stdlib
STRIP_FLAGS :=
else
STATIC_FLAGS :=
# -x keeps the global symbols and drops the local ones: the safe strip for a Mach-O executable.
STRIP_FLAGS := -x
endif

BUILD_FLAGS := -c release --product synclint --scratch-path $(SCRATCH) $(STATIC_FLAGS)

.PHONY: build release install uninstall clean

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

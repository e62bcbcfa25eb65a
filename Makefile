# TouchTracker: the two commands a newcomer needs are `make run` and `make test`.
# Both install the Debian packages they need when run as root (and say which are missing otherwise).

SWIFT ?= swift
PREFIX ?= /usr/local
# Staging root for packagers: `make install DESTDIR=/tmp/stage` puts everything under /tmp/stage$(PREFIX).
DESTDIR ?=
ARGS ?=
# The binary `install` copies. Left empty it builds the release binary first; tests point it at a built one.
BIN ?=

# Build and run: the C libraries the app links against.
# gettext's msgfmt compiles the translations.
RUN_PACKAGES := libx11-dev libxi-dev libxext-dev libcairo2-dev libpango1.0-dev pkg-config gettext
# Tests also start private X servers: Xorg with the dummy video driver and inputtest devices (the protocol
# header comes with xserver-xorg-dev), Xvfb, the X utilities the tests call, desktop-file-validate and Ghostscript
# (renders exported PDFs back to pixels).
TEST_PACKAGES := $(RUN_PACKAGES) xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-dev xvfb xdotool \
	x11-utils x11-xserver-utils xinput desktop-file-utils ghostscript fonts-ipafont-gothic fonts-dejavu-core

.PHONY: all build release run test bench lint format deps-run deps-test clean install uninstall validate-resources \
	locales

all: build

# Installs whatever of the given packages is missing; needs root (or tells you the command to run).
define ensure_packages
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "Installing:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null \
				|| { echo "error: apt-get could not install:$$missing" >&2; exit 1; }; \
		else \
			echo "error: missing packages:$$missing; run: sudo apt-get install$$missing" >&2; exit 1; \
		fi; \
	fi
endef

deps-run:
	$(call ensure_packages,$(RUN_PACKAGES))

deps-test:
	$(call ensure_packages,$(TEST_PACKAGES))

build: deps-run locales
	$(SWIFT) build

release: deps-run locales
	$(SWIFT) build -c release --product touchtracker

# The translations (Resources/po/LANG.po) compiled to .build/locale/LANG/LC_MESSAGES/touchtracker.mo, where the
# app finds them next to .build/debug and .build/release. Fails when a catalog is not valid or misses a string
# (untranslated or fuzzy), or lacks a template of touchtracker.pot.
LANGUAGES := $(basename $(notdir $(wildcard Resources/po/*.po)))
locales: deps-run
	@for lang in $(LANGUAGES); do \
		mkdir -p .build/locale/$$lang/LC_MESSAGES; \
		stats=$$(msgfmt --check --statistics -o .build/locale/$$lang/LC_MESSAGES/touchtracker.mo Resources/po/$$lang.po 2>&1) \
			|| { echo "error: Resources/po/$$lang.po: $$stats" >&2; exit 1; }; \
		case "$$stats" in *untranslated*|*fuzzy*) \
			echo "error: Resources/po/$$lang.po is incomplete ($$stats); translate every string, then run make again" >&2; \
			exit 1;; esac; \
		missing=$$(msgcmp Resources/po/$$lang.po Resources/po/touchtracker.pot 2>&1) \
			|| { echo "error: Resources/po/$$lang.po lacks templates of touchtracker.pot: $$missing" >&2; exit 1; }; \
	done

# Opens the window on $$DISPLAY. Pass options with ARGS, e.g. make run ARGS="--document /tmp/d.json".
run: release
	.build/release/touchtracker $(ARGS)

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

test: deps-test locales
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory validate-resources
	# The soak test is long by design; it runs only in `make soak`.
	$(SWIFT) test --skip-build --skip SoakTests

# Measures the app against the seed's naive way in one run; prints a table, writes bench-results.json.
# The end-to-end latency row runs the release `touchtracker` under a private Xorg (root, and the deps-test packages;
# without them the row reports "not measured").
bench: deps-run locales
	$(SWIFT) build -c release --product touchtracker
	$(SWIFT) build -c release --product touchtracker-bench
	.build/release/touchtracker-bench bench-results.json

# The desktop entry must satisfy the freedesktop.org spec (desktop-file-utils).
validate-resources:
	desktop-file-validate Resources/touchtracker.desktop

# What `install` puts where (relative to $(DESTDIR)$(PREFIX)); `uninstall` removes exactly these.
INSTALLED_BIN := bin/touchtracker
INSTALLED_DESKTOP := share/applications/touchtracker.desktop
INSTALLED_ICON := share/icons/hicolor/scalable/apps/touchtracker.svg
INSTALLED_MAN := share/man/man1/touchtracker.1
INSTALLED_CATALOGS := $(foreach lang,$(LANGUAGES),share/locale/$(lang)/LC_MESSAGES/touchtracker.mo)

install: $(if $(BIN),,release) locales
	install -D -m 755 $(or $(BIN),.build/release/touchtracker) "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)"
	install -D -m 644 Resources/touchtracker.desktop "$(DESTDIR)$(PREFIX)/$(INSTALLED_DESKTOP)"
	install -D -m 644 Resources/touchtracker.svg "$(DESTDIR)$(PREFIX)/$(INSTALLED_ICON)"
	install -D -m 644 Resources/touchtracker.1 "$(DESTDIR)$(PREFIX)/$(INSTALLED_MAN)"
	@for lang in $(LANGUAGES); do \
		install -D -m 644 .build/locale/$$lang/LC_MESSAGES/touchtracker.mo \
			"$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/touchtracker.mo"; \
	done
	@# Refresh the desktop's caches when installing for real (not into a staging DESTDIR).
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-desktop-database >/dev/null && update-desktop-database -q "$(PREFIX)/share/applications" || true; \
		command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$(PREFIX)/share/icons/hicolor" || true; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)" "$(DESTDIR)$(PREFIX)/$(INSTALLED_DESKTOP)" \
		"$(DESTDIR)$(PREFIX)/$(INSTALLED_ICON)" "$(DESTDIR)$(PREFIX)/$(INSTALLED_MAN)" \
		$(foreach catalog,$(INSTALLED_CATALOGS),"$(DESTDIR)$(PREFIX)/$(catalog)")

# Random touches through a private Xorg for SOAK_SECONDS (default 10 minutes); prints the events handled and the
# app's resident memory after warm-up and at the end, and fails if it grew 5 % or more. Not part of `make test`.
.PHONY: soak
SOAK_SECONDS ?= 600
# It soaks the release binary, the one `make run` runs.
soak: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) build -c release --product touchtracker
	TOUCHTRACKER_BIN=$(CURDIR)/.build/release/touchtracker TOUCHTRACKER_SOAK_SECONDS=$(SOAK_SECONDS) \
		$(SWIFT) test --skip-build --filter SoakTests

clean:
	rm -rf .build

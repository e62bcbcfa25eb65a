# TouchTracker: the two commands a newcomer needs are `make run` and `make test`.
# Both install the Debian packages they need when run as root (and say which are missing otherwise).

SWIFT ?= swift
PREFIX ?= /usr/local
# Staging root for packagers: `make install DESTDIR=/tmp/stage` puts everything under /tmp/stage$(PREFIX).
DESTDIR ?=
ARGS ?=
# The binary `install` copies. Left empty it builds the release binary first; tests point it at a built one.
BIN ?=

# Build and run: the C libraries the app links against (X11 and Wayland clients both; wayland-protocols and
# wayland-scanner, from libwayland-dev, regenerate the protocol code; libdecor's cairo plugin draws the window's
# title bar where the compositor draws none, as on GNOME).
# gettext's msgfmt compiles the translations.
RUN_PACKAGES := libx11-dev libxi-dev libxext-dev libcairo2-dev libpango1.0-dev libglib2.0-dev pkg-config gettext \
	libwayland-dev wayland-protocols libxkbcommon-dev libdecor-0-dev libdecor-0-plugin-1-cairo
# KDE's KWin 5.27 headless (`kwin_wayland --virtual`) for the KWin end-to-end tests: its fake-input protocol's XML,
# the Breeze decoration (KWin draws no title bar without one), llvmpipe for its compositing and screenshots.
KWIN_TEST_PACKAGES := kwin-wayland plasma-wayland-protocols kwin-style-breeze libgl1-mesa-dri
# GNOME's compositor, mutter 43 headless, with PipeWire and WirePlumber for the screen cast its remote desktop input
# needs; GStreamer's pipewiresrc, gst-launch-1.0 and videoconvert take a frame; python3-gi holds the D-Bus sessions,
# and GTK 3's typelib makes the launcher that gets an activation token from mutter.
MUTTER_TEST_PACKAGES := mutter pipewire wireplumber gstreamer1.0-pipewire gstreamer1.0-tools gstreamer1.0-plugins-base \
	python3-gi gir1.2-gtk-3.0
# The screen reader the tests run against the app (OrcaTests): Debian 12's Orca 43, speaking through a private
# speech-dispatcher with the espeak-ng module and libao's null output; python3-gi with GTK 3's bindings makes the
# control window.
ORCA_TEST_PACKAGES := orca speech-dispatcher speech-dispatcher-espeak-ng espeak-ng libao4 python3-gi \
	gir1.2-gtk-3.0
# Tests also start private X servers: Xorg with the dummy video driver and inputtest devices (the protocol header
# comes with xserver-xorg-dev), Xvfb, the X utilities the tests call, desktop-file-validate and Ghostscript
# (renders exported PDFs back to pixels); and a headless weston with Xwayland and an input module of the tests'
# own, built against libweston-10-dev; wl-clipboard's wl-copy and wl-paste stand for other Wayland programs.
TEST_PACKAGES := $(RUN_PACKAGES) xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-dev xvfb xdotool \
	x11-utils x11-xserver-utils xinput desktop-file-utils ghostscript fonts-ipafont-gothic fonts-dejavu-core \
	dpkg-dev lintian appstream binutils xclip at-spi2-core dbus-daemon dbus-bin python3-pyatspi \
	weston libweston-10-dev xwayland wl-clipboard
TEST_PACKAGES += $(KWIN_TEST_PACKAGES)
TEST_PACKAGES += $(MUTTER_TEST_PACKAGES)
TEST_PACKAGES += $(ORCA_TEST_PACKAGES)
# The desktop's side of a drawing file: its type (update-mime-database, xdg-mime), gio and xdg-open opening it in
# the app, Xfce's tumbler making its thumbnail through the app's thumbnailer, and the desktop's file dialog
# (xdg-desktop-portal with its GTK back end) for New, Open and Save As.
DOCUMENT_TEST_PACKAGES := shared-mime-info desktop-file-utils xdg-utils libglib2.0-bin tumbler xdg-desktop-portal \
	xdg-desktop-portal-gtk
TEST_PACKAGES += $(DOCUMENT_TEST_PACKAGES)

ACCESSIBILITY_SUITES := OrcaTests|ScreenReaderTests|WaylandRegistryKeysTests
DESKTOP_SUITES := KWinGestureTests|KWinDesktopTests|Mutter

.PHONY: all build release run test bench lint format deps-run deps-test deps-bench clean install uninstall validate-resources \
	locales deb deps-deb wayland-protocols

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

# The translations (Resources/po/LANG.po) compiled to .build/locale/LANG/LC_MESSAGES/touchtracker.mo (written beside
# and renamed into place: tests run make install at once, and a reader must never find half a catalog), where the
# app finds them next to .build/debug and .build/release. Fails when a catalog is not valid or misses a string
# (untranslated or fuzzy), or lacks a template of touchtracker.pot.
LANGUAGES := $(basename $(notdir $(wildcard Resources/po/*.po)))
locales: deps-run
	@for lang in $(LANGUAGES); do \
		mkdir -p .build/locale/$$lang/LC_MESSAGES; \
		mo=.build/locale/$$lang/LC_MESSAGES/touchtracker.mo; \
		stats=$$(msgfmt --check --statistics -o $$mo.tmp-$$$$ Resources/po/$$lang.po 2>&1) \
			|| { rm -f $$mo.tmp-$$$$; echo "error: Resources/po/$$lang.po: $$stats" >&2; exit 1; }; \
		mv -f $$mo.tmp-$$$$ $$mo; \
		case "$$stats" in *untranslated*|*fuzzy*) \
			echo "error: Resources/po/$$lang.po is incomplete ($$stats); translate every string, then run make again" >&2; \
			exit 1;; esac; \
		missing=$$(msgcmp Resources/po/$$lang.po Resources/po/touchtracker.pot 2>&1) \
			|| { echo "error: Resources/po/$$lang.po lacks templates of touchtracker.pot: $$missing" >&2; exit 1; }; \
	done

# Opens the window on $$DISPLAY. Pass options with ARGS, e.g. make run ARGS="--document /tmp/d.json".
run: release
	.build/release/touchtracker $(ARGS)

# Regenerates the Wayland protocol code in Sources/CWayland from Debian's wayland-protocols (committed;
# WaylandProtocolCodeTests checks it matches).
wayland-protocols: deps-run
	Sources/CWayland/regenerate.sh

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

# The end-to-end tests unpack and run the package `make deb` builds.
test: deps-test locales deb
	$(SWIFT) build --build-tests
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory validate-resources
	# The soak test is long by design; it runs only in `make soak`. Run at once, every suite shares two cores: the
	# real desktops' compositors (KWin and mutter composite in software, with PipeWire and GStreamer beside them)
	# run after the rest, so the timing-sensitive large-drawing suites do not run beside them; then the suites that
	# drive a screen reader or an assistive client over the accessibility bus, Orca's alone (at-spi's D-Bus calls
	# time out on a loaded machine and Orca aborts when it cannot register, which says nothing about the app).
	$(SWIFT) test --skip-build --skip SoakTests --skip '$(DESKTOP_SUITES)' --skip '$(ACCESSIBILITY_SUITES)'
	$(SWIFT) test --skip-build --filter '$(DESKTOP_SUITES)'
	$(SWIFT) test --skip-build --filter 'ScreenReaderTests|WaylandRegistryKeysTests'
	$(SWIFT) test --skip-build --filter OrcaTests

# The peer the zoom rows compare with: Xournal++, its Ctrl+wheel zoom steps under the same private Xorg.
BENCH_PACKAGES := xournalpp

deps-bench:
	$(call ensure_packages,$(BENCH_PACKAGES))

# Measures the app against the seed's naive way in one run; prints a table, writes bench-results.json.
# The end-to-end latency row runs the release `touchtracker` under a private Xorg (root, and the deps-test packages;
# without them the row reports "not measured").
bench: deps-run deps-bench locales
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
INSTALLED_MIME := share/mime/packages/touchtracker.xml
INSTALLED_THUMBNAILER := share/thumbnailers/touchtracker.thumbnailer
INSTALLED_CATALOGS := $(foreach lang,$(LANGUAGES),share/locale/$(lang)/LC_MESSAGES/touchtracker.mo)

install: $(if $(BIN),,release) locales
	install -D -m 755 $(or $(BIN),.build/release/touchtracker) "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)"
	install -D -m 644 Resources/touchtracker.desktop "$(DESTDIR)$(PREFIX)/$(INSTALLED_DESKTOP)"
	install -D -m 644 Resources/touchtracker.svg "$(DESTDIR)$(PREFIX)/$(INSTALLED_ICON)"
	install -D -m 644 Resources/touchtracker.1 "$(DESTDIR)$(PREFIX)/$(INSTALLED_MAN)"
	install -D -m 644 Resources/touchtracker-mime.xml "$(DESTDIR)$(PREFIX)/$(INSTALLED_MIME)"
	install -D -m 644 Resources/touchtracker.thumbnailer "$(DESTDIR)$(PREFIX)/$(INSTALLED_THUMBNAILER)"
	@for lang in $(LANGUAGES); do \
		install -D -m 644 .build/locale/$$lang/LC_MESSAGES/touchtracker.mo \
			"$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/touchtracker.mo"; \
	done
	@# Refresh the desktop's caches when installing for real (not into a staging DESTDIR).
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-desktop-database >/dev/null && update-desktop-database -q "$(PREFIX)/share/applications" || true; \
		command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$(PREFIX)/share/icons/hicolor" || true; \
		command -v update-mime-database >/dev/null && update-mime-database "$(PREFIX)/share/mime" || true; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/$(INSTALLED_BIN)" "$(DESTDIR)$(PREFIX)/$(INSTALLED_DESKTOP)" \
		"$(DESTDIR)$(PREFIX)/$(INSTALLED_ICON)" "$(DESTDIR)$(PREFIX)/$(INSTALLED_MAN)" \
		"$(DESTDIR)$(PREFIX)/$(INSTALLED_MIME)" "$(DESTDIR)$(PREFIX)/$(INSTALLED_THUMBNAILER)" \
		$(foreach catalog,$(INSTALLED_CATALOGS),"$(DESTDIR)$(PREFIX)/$(catalog)")

# `make deb`: touchtracker_VERSION_ARCH.deb, built with dpkg-deb. The release binary links the Swift runtime and
# Foundation statically (--static-swift-stdlib), so the package depends only on Debian's own libraries (computed by
# dpkg-shlibdeps); it carries the desktop entry, icon, man page, translations and AppStream metainfo, and lintian
# must report no error on it.
DEB_PACKAGES := dpkg-dev lintian appstream binutils
VERSION := $(shell sed -n 's/^ *version: "\([0-9.]*\)",*$$/\1/p' Sources/TouchTrackerCLI/TouchTrackerCommand.swift)
DEB_ARCH := $(shell dpkg --print-architecture)
DEB_STAGE := .build/deb
DEB_ROOT := $(DEB_STAGE)/root
DEB_FILE := touchtracker_$(VERSION)_$(DEB_ARCH).deb
METAINFO := io.github.touchtracker.TouchTracker.metainfo.xml

deps-deb: deps-run
	$(call ensure_packages,$(DEB_PACKAGES))

deb: deps-deb locales
	$(SWIFT) build -c release --product touchtracker --static-swift-stdlib --build-path .build/static
	rm -rf $(DEB_STAGE) && mkdir -p $(DEB_ROOT)/DEBIAN $(DEB_STAGE)/debian
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr BIN=.build/static/release/touchtracker
	strip --strip-unneeded --remove-section=.comment --remove-section=.note $(DEB_ROOT)/usr/bin/touchtracker
	gzip -9n $(DEB_ROOT)/usr/share/man/man1/touchtracker.1
	install -D -m 644 Resources/$(METAINFO) $(DEB_ROOT)/usr/share/metainfo/$(METAINFO)
	install -D -m 644 Resources/debian/copyright $(DEB_ROOT)/usr/share/doc/touchtracker/copyright
	gzip -9n -c Resources/debian/changelog > $(DEB_ROOT)/usr/share/doc/touchtracker/changelog.gz
	chmod 644 $(DEB_ROOT)/usr/share/doc/touchtracker/changelog.gz
	appstreamcli validate --no-net $(DEB_ROOT)/usr/share/metainfo/$(METAINFO)
	@# dpkg-shlibdeps reads debian/control from the folder it runs in: a minimal one.
	printf 'Source: touchtracker\n\nPackage: touchtracker\nArchitecture: any\n' > $(DEB_STAGE)/debian/control
	cd $(DEB_STAGE) && dpkg-shlibdeps -O -eroot/usr/bin/touchtracker | sed -n 's/^shlibs:Depends=//p' > depends
	{ \
		echo "Package: touchtracker"; \
		echo "Version: $(VERSION)"; \
		echo "Architecture: $(DEB_ARCH)"; \
		echo "Maintainer: The TouchTracker developers <touchtracker@example.org>"; \
		echo "Installed-Size: $$(du -sk --exclude=DEBIAN $(DEB_ROOT) | cut -f1)"; \
		echo "Depends: $$(cat $(DEB_STAGE)/depends)"; \
		echo "Recommends: fonts-dejavu-core"; \
		echo "Section: graphics"; \
		echo "Priority: optional"; \
		echo "Description: multi-finger line drawing for the X11 desktop"; \
		echo " Every finger on a touchscreen draws its own straight line; the mouse draws"; \
		echo " too. Tap a line to select and delete it, double-tap to clear, press and"; \
		echo " hold a line to drag it; every edit can be undone. Drawings are saved after"; \
		echo " every edit, crash-safe, and open instantly even with 100,000 lines."; \
	} > $(DEB_ROOT)/DEBIAN/control
	dpkg-deb --root-owner-group -Zxz --build $(DEB_ROOT) $(DEB_FILE)
	lintian --fail-on error --suppress-tags statically-linked-binary $(DEB_FILE)
	@echo "built $(DEB_FILE)"

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
	rm -rf .build touchtracker_*.deb

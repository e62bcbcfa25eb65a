#!/bin/sh
# Regenerates the Wayland protocol code the host uses from Debian's wayland-protocols XML, with wayland-scanner:
# headers into OUT/include, code into OUT/protocols. With no argument, into this folder (what `make
# wayland-protocols` does); WaylandProtocolCodeTests runs it into a temporary folder and compares.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
xml=$(pkg-config --variable=pkgdatadir wayland-protocols)
mkdir -p "$out/include" "$out/protocols"
for protocol in \
	stable/xdg-shell/xdg-shell.xml \
	stable/viewporter/viewporter.xml \
	stable/presentation-time/presentation-time.xml \
	staging/fractional-scale/fractional-scale-v1.xml \
	staging/xdg-activation/xdg-activation-v1.xml \
	unstable/xdg-decoration/xdg-decoration-unstable-v1.xml \
	unstable/pointer-gestures/pointer-gestures-unstable-v1.xml \
	unstable/tablet/tablet-unstable-v2.xml \
	unstable/xdg-foreign/xdg-foreign-unstable-v2.xml; do
	name=$(basename "$protocol" .xml)
	wayland-scanner client-header "$xml/$protocol" "$out/include/$name-client-protocol.h"
	wayland-scanner private-code "$xml/$protocol" "$out/protocols/$name-protocol.c"
done

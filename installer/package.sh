#!/usr/bin/env bash
# Builds KeyRanger's installers with jpackage from target/keyranger.jar and target/lib (run `mvn package` first,
# or let `mvn -Pinstaller package` call this script).
#
#   installer/package.sh VERSION [TYPE...]
#
# TYPE is app-image (always built first, then smoke-tested), deb, rpm, msi or dmg; the default is app-image plus the
# native package of this system (.deb on Debian/Ubuntu, .dmg on macOS, .msi on Windows). Output: target/installer/.
# The runtime is jlink-trimmed to the modules jdeps reports plus those the Google client and logback load by
# reflection. Set KEYRANGER_SKIP_SMOKE=1 to skip the smoke test of the app image.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:?usage: installer/package.sh VERSION [TYPE...]}"
shift
version="${version%%-*}" # jpackage wants 1.2.3: drop -SNAPSHOT and the like
types=("$@")
case "$(uname -s)" in
  Linux) os=linux; native=deb ;;
  Darwin) os=macos; native=dmg ;;
  MINGW*|MSYS*|CYGWIN*) os=windows; native=msi ;;
  *) echo "Unsupported system $(uname -s)" >&2; exit 1 ;;
esac
if [ ${#types[@]} -eq 0 ]; then
  types=(app-image "$native")
fi

[ -f target/keyranger.jar ] && [ -d target/lib ] || { echo "target/keyranger.jar is missing: run mvn package first" >&2; exit 1; }
command -v jpackage >/dev/null || { echo "jpackage is missing: it ships with JDK 17 and later" >&2; exit 1; }

out=target/installer
input="$out/input"
rm -rf "$out"
mkdir -p "$input"
cp target/keyranger.jar "$input/"
cp -r target/lib "$input/lib"

# The modules the code uses, as jdeps sees them, plus those loaded by reflection or service lookup at run time:
# JNDI and JMX (logback), TLS with elliptic curves (Google APIs), sun.misc.Unsafe (protobuf, Guava), the
# charsets and locales the client may ask for, and DNS through JNDI.
modules="$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 --class-path "$input/lib/*" \
  "$input/keyranger.jar")"
modules="$modules,java.logging,java.management,java.naming,java.net.http,java.sql,jdk.crypto.ec,jdk.unsupported,jdk.charsets,jdk.localedata,jdk.naming.dns,jdk.zipfs"
modules="$(echo "$modules" | tr , "\n" | sort -u | paste -sd, -)"
echo "Runtime modules: $modules"

platform_args=(@installer/$os.args)
package_args=(@installer/$os-package.args)

image_dir="$out/image"
started=$(date +%s)
jpackage @installer/common.args @installer/app.args "${platform_args[@]}" --type app-image --app-version "$version" \
  --input "$input" --dest "$image_dir" --add-modules "$modules" \
  --jlink-options "--strip-native-commands --strip-debug --no-man-pages --no-header-files --compress=2" \
  --add-launcher keyranger=installer/cli-launcher.properties
image="$image_dir/KeyRanger"
[ "$os" = macos ] && image="$image_dir/KeyRanger.app"
echo "App image: $image ($(du -sh "$image" | cut -f1), built in $(( $(date +%s) - started )) s)"

if [ "${KEYRANGER_SKIP_SMOKE:-0}" != 1 ]; then
  launcher="$image/bin/keyranger"
  [ "$os" = macos ] && launcher="$image/Contents/MacOS/keyranger"
  [ "$os" = windows ] && launcher="$image/keyranger.exe"
  smoke_config="$(mktemp -d)"
  echo "Smoke test: $launcher --version"
  KEYRANGER_CONFIG_DIR="$smoke_config" "$launcher" --version
  echo "Smoke test: $launcher demo --headless --exit"
  KEYRANGER_CONFIG_DIR="$smoke_config" "$launcher" demo --headless --exit
  rm -rf "$smoke_config"
fi

for type in "${types[@]}"; do
  [ "$type" = app-image ] && continue
  extra=()
  case "$type" in
    deb) extra=(@installer/deb.args) ;;
    rpm) extra=(@installer/rpm.args) ;;
  esac
  started=$(date +%s)
  jpackage @installer/common.args "${package_args[@]}" "${extra[@]}" --type "$type" --app-version "$version" \
    --app-image "$image" --dest "$out"
  echo "Package: $(ls "$out"/*."$type") ($(du -h "$out"/*."$type" | cut -f1), built in $(( $(date +%s) - started )) s)"
done

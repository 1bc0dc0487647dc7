#!/usr/bin/env bash
# Builds target/cairn-jvm-image.tar (the image cairn:jvm) without a container engine:
#   1. a base image from Debian's own packages: bookworm + openjdk-17-jre-headless + ca-certificates, made by
#      mmdebstrap and packed as a docker-archive tarball (cached in target/image until `mvn clean`);
#   2. the app: Jib's core library puts target/quarkus-app on it in three layers (JvmImage.java).
# Needs root (mmdebstrap's root mode; apt-get installs mmdebstrap if missing) and a packaged app
# (./mvnw package). `docker load -i target/cairn-jvm-image.tar` or `podman load -i …` run it anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE="${IMAGE:-cairn:jvm}"
work=target/image
out=target/cairn-jvm-image.tar

if [ ! -f target/quarkus-app/quarkus-run.jar ]; then
  echo "no packaged app: run ./mvnw -B package first" >&2
  exit 1
fi
mkdir -p "$work"

if [ ! -f "$work/base.tar" ]; then
  if ! command -v mmdebstrap >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
  fi
  rm -rf "$work/base" && mkdir -p "$work/base"
  # The JRE's postinst links its man page: the directory must exist although man pages are left out.
  # User 185 (group 0) runs the app, as in the UBI images the Dockerfiles use; it owns nothing in the image.
  mmdebstrap --quiet --variant=essential --include=openjdk-17-jre-headless,ca-certificates \
    --setup-hook='mkdir -p "$1/usr/share/man/man1"' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --customize-hook='echo "cairn:x:185:0:cairn:/tmp:/usr/sbin/nologin" >> "$1/etc/passwd"' \
    --customize-hook='rm -rf "$1/var/lib/apt/lists/"* "$1/var/cache/"*' \
    bookworm "$work/base/rootfs.tar"
  diff_id=$(sha256sum "$work/base/rootfs.tar" | cut -d' ' -f1)
  cat > "$work/base/config.json" <<JSON
{"architecture":"amd64","os":"linux",
 "config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
 "rootfs":{"type":"layers","diff_ids":["sha256:$diff_id"]},
 "history":[{"created_by":"mmdebstrap --variant=essential --include=openjdk-17-jre-headless,ca-certificates bookworm"}]}
JSON
  echo '[{"Config":"config.json","RepoTags":["cairn-base:bookworm-jre17"],"Layers":["rootfs.tar"]}]' > "$work/base/manifest.json"
  tar -cf "$work/base.tar.partial" -C "$work/base" manifest.json config.json rootfs.tar
  mv "$work/base.tar.partial" "$work/base.tar"
  rm -rf "$work/base"
fi

./mvnw -q -B -f deploy/image/pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/$work/jib.classpath"
java -cp "$(cat "$work/jib.classpath")" deploy/image/JvmImage.java "$work/base.tar" target/quarkus-app "$out" "$IMAGE"

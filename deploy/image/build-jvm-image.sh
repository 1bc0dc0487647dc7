#!/usr/bin/env bash
# Builds target/cairn-jvm-image.tar (the image cairn:jvm) without a container engine:
#   1. a base image from Debian's own packages: bookworm + openjdk-17-jre-headless + ca-certificates, made by
#      mmdebstrap and packed as a docker-archive tarball (cached in target/image until `mvn clean`);
#   2. an AppCDS archive of the app's startup, written by the base's own JRE in a chroot (a training start);
#   3. the app: Jib's core library puts target/quarkus-app and the archive on the base (JvmImage.java).
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

# AppCDS: the classes a start loads, archived by the image's OWN JRE (an archive only serves the JVM that wrote it,
# with the same jars: same paths, same sizes, same timestamps — the image's are all at the epoch). The app starts
# once in a chroot of the base, as user 185, with no DynamoDB to reach (its table check fails fast and it starts
# anyway), and is stopped; the JVM writes the archive at exit.
cds_root="$work/cds-root"
rm -rf "$cds_root" && mkdir -p "$cds_root"
tar -xOf "$work/base.tar" rootfs.tar | tar -x -C "$cds_root"
mkdir -p "$cds_root/deployments" && cp -a target/quarkus-app/. "$cds_root/deployments/"
# The training start's own writable directory (its log and the archive), owned by the user it runs as.
mkdir -p "$cds_root/cds" && chown 185:0 "$cds_root/cds"
find "$cds_root/deployments" -exec touch -h -d @0 {} +
unshare --mount --pid --fork --mount-proc="$cds_root/proc" sh -c '
  root="$1"
  chroot --userspec=185:0 "$root" java -XX:ArchiveClassesAtExit=/cds/app-cds.jsa \
    -Djava.util.logging.manager=org.jboss.logmanager.LogManager \
    -Dcairn.auth.enabled=false -Dcairn.cursor.secret=appcds-training -Dcairn.table.create=false \
    -Dquarkus.http.port=0 -Dquarkus.management.port=0 -Dquarkus.log.console.json.enabled=false \
    -Dquarkus.dynamodb.endpoint-override=http://127.0.0.1:9 -Dquarkus.dynamodb.aws.region=us-east-1 \
    -Dquarkus.dynamodb.aws.credentials.type=static \
    -Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=none \
    -Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=none \
    -jar /deployments/quarkus-run.jar > "$root/cds/training.log" 2>&1 &
  app=$!
  for _ in $(seq 600); do
    grep -q " started in " "$root/cds/training.log" && break
    kill -0 "$app" 2>/dev/null || break
    sleep 0.1
  done
  kill -TERM "$app" 2>/dev/null
  wait "$app" || true
' sh "$cds_root"
if [ ! -s "$cds_root/cds/app-cds.jsa" ]; then
  grep -v "\[cds\]" "$cds_root/cds/training.log" | tail -20 >&2
  echo "the AppCDS training run wrote no archive" >&2
  exit 1
fi
cp "$cds_root/cds/app-cds.jsa" "$work/app-cds.jsa"
rm -rf "$cds_root"

./mvnw -q -B -f deploy/image/pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/$work/jib.classpath"
java -cp "$(cat "$work/jib.classpath")" deploy/image/JvmImage.java "$work/base.tar" target/quarkus-app "$out" "$IMAGE" \
  "$work/app-cds.jsa"

#!/usr/bin/env bash
# Builds target/cairn-jvm-image.tar (the image cairn:jvm) without a container engine:
#   1. a base image from Debian's own packages: bookworm's essential set (libc, a shell, coreutils), made by
#      mmdebstrap and packed as a docker-archive tarball (cached in target/image until `mvn clean`);
#   2. a Java 25 runtime made by jlink from the machine's Temurin 25 JDK: the modules the app's classes use (jdeps)
#      and a few it loads by name, with the JDK's own CDS archive (cached likewise);
#   3. an AOT cache (JEP 483/514/515) written by that runtime in a chroot of the image: a training run that starts
#      the app against DynamoDB Local, calls every route, and stops it (deploy/image/Train.java);
#   4. the app: Jib's core library puts the runtime, target/quarkus-app and the cache on the base (JvmImage.java).
# The same start of the hand-written floor (src/bench, compiled here, never in the image) gets its own AOT cache in
# target/image/floor, and the hand-written quarkus-rest service (src/bench/baseline-rest, built here) its own in
# target/image/quarkus-rest, so JvmImageIT can start all three the same way.
# Needs root (mmdebstrap's root mode, chroot; apt-get installs mmdebstrap and unzip if missing), a packaged app
# (./mvnw package) and a JDK 25 (JAVA25_HOME, default: Temurin's). `docker load -i target/cairn-jvm-image.tar` or
# `podman load -i …` run it anywhere.
set -euo pipefail
cd "$(dirname "$0")/../.."
IMAGE="${IMAGE:-cairn:jvm}"
JAVA25_HOME="${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
work=target/image
out=target/cairn-jvm-image.tar

if [ ! -f target/quarkus-app/quarkus-run.jar ]; then
  echo "no packaged app: run ./mvnw -B package first" >&2
  exit 1
fi
if [ ! -x "$JAVA25_HOME/bin/jlink" ] || ! grep -q '^JAVA_VERSION="25' "$JAVA25_HOME/release" 2>/dev/null; then
  echo "no JDK 25 at $JAVA25_HOME (the image's runtime is made from it by jlink): install Temurin 25 there," \
    "or set JAVA25_HOME to a JDK 25" >&2
  exit 1
fi
mkdir -p "$work"
for tool in mmdebstrap:mmdebstrap unzip:unzip; do
  if ! command -v "${tool%%:*}" >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${tool##*:}" >/dev/null
  fi
done

# 1. The base: no JRE from Debian, the runtime comes from jlink (step 2).
base="$work/base-bookworm.tar"
if [ ! -f "$base" ]; then
  rm -rf "$work/base" && mkdir -p "$work/base"
  # User 185 (group 0) runs the app, as the manifests and the Dockerfile say; it owns nothing in the image.
  mmdebstrap --quiet --variant=essential \
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
 "history":[{"created_by":"mmdebstrap --variant=essential bookworm"}]}
JSON
  echo '[{"Config":"config.json","RepoTags":["cairn-base:bookworm"],"Layers":["rootfs.tar"]}]' > "$work/base/manifest.json"
  tar -cf "$base.partial" -C "$work/base" manifest.json config.json rootfs.tar
  mv "$base.partial" "$base"
  rm -rf "$work/base"
fi

# 2. The runtime. jdeps lists the JDK modules the app's classes refer to (over the classes of every jar, unpacked:
# some jars are modules whose own requirements jdeps cannot resolve here); added by hand, what is only loaded by
# name: jdk.crypto.ec (EC key agreement for TLS), jdk.naming.dns (Netty's DNS server discovery through JNDI),
# jdk.zipfs (zip file systems), jdk.jfr and jdk.management.jfr (Flight Recorder, for diagnosing a pod). Left out:
# jdk.compiler, which only Vert.x' code generator (annotation processing, never at run time) refers to.
# No compression: the image's layers are compressed anyway, and classes read from an uncompressed jimage are
# faster to load. --generate-cds-archive writes the JDK's default CDS archive (a start without the AOT cache uses it).
jars=$(cd target/quarkus-app && ls quarkus-run.jar app/*.jar quarkus/*.jar lib/boot/*.jar lib/main/*.jar)
modules_key=$( { echo "$jars"; grep JAVA_RUNTIME_VERSION "$JAVA25_HOME/release"; } | sha256sum | cut -c1-16)
runtime="$work/java-runtime"
if [ ! -f "$runtime.$modules_key" ]; then
  rm -rf "$work/jdeps-classes" "$runtime" "$work"/java-runtime.*
  mkdir -p "$work/jdeps-classes"
  for jar in $jars; do
    (cd "$work/jdeps-classes" && unzip -qq -o "$OLDPWD/target/quarkus-app/$jar" '*.class' -x 'module-info.class' 'META-INF/*' 2>/dev/null) || true
  done
  modules=$("$JAVA25_HOME/bin/jdeps" --ignore-missing-deps --print-module-deps -q "$work/jdeps-classes")
  modules="$(echo "$modules" | tr ',' '\n' | grep -vx jdk.compiler | paste -sd,),jdk.crypto.ec,jdk.naming.dns,jdk.zipfs,jdk.jfr,jdk.management.jfr"
  rm -rf "$work/jdeps-classes"
  "$JAVA25_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
    --generate-cds-archive --output "$runtime"
  echo "$modules" > "$runtime.$modules_key"
fi
echo "java runtime: $(cat "$runtime.$modules_key") ($(du -sm "$runtime" | cut -f1) MB)"

# The classpath of the training driver (Train.java: DynamoDB Local in-process) and of the floor (its SDK, Vert.x and
# Jackson are the app's own jars).
./mvnw -q -B -o dependency:build-classpath -Dmdep.includeScope=compile -Dmdep.outputFile="$PWD/$work/training.classpath" \
  || ./mvnw -q -B dependency:build-classpath -Dmdep.includeScope=compile -Dmdep.outputFile="$PWD/$work/training.classpath"
floor="$work/floor"
rm -rf "$floor" && mkdir -p "$floor/classes"
app_cp=$(cd target/quarkus-app && ls lib/boot/*.jar lib/main/*.jar | sed 's|^|/deployments/|' | paste -sd:)
javac --release 17 -nowarn -d "$floor/classes" -cp "$(echo "$app_cp" | sed 's|/deployments/|target/quarkus-app/|g')" \
  src/bench/java/dev/cairn/bench/baseline/HandWritten.java
(cd "$floor/classes" && jar --create --file ../handwritten.jar .)
rm -rf "$floor/classes"
# A java @argument file: the floor's classpath (the app's jars, where the image has them) and main class.
printf -- '-cp /floor/handwritten.jar:%s dev.cairn.bench.baseline.HandWritten\n' "$app_cp" > "$floor/args"
# As in the chroot below: a cache serves only jars of the same timestamps (JvmImageIT mounts this directory).
find "$floor" -exec touch -h -d @0 {} +

# The hand-written quarkus-rest service (src/bench/baseline-rest, its own Maven project, the app's platform versions):
# what the same start costs a plain Quarkus application, started the same way from the same runtime.
quarkus_rest="$work/quarkus-rest"
rm -rf "$quarkus_rest" "$work/quarkus-rest-build"
version() { sed -n "s|.*<$1>\(.*\)</$1>.*|\1|p" pom.xml | head -1; }
baseline_build=(-q -B -f src/bench/baseline-rest/pom.xml -Dbaseline.build="$PWD/$work/quarkus-rest-build"
  -Dquarkus.platform.group-id="$(version quarkus.platform.group-id)" -Dquarkus.platform.version="$(version quarkus.platform.version)"
  -Dquarkus-amazon-services.version="$(version quarkus-amazon-services.version)" package)
./mvnw -o "${baseline_build[@]}" || ./mvnw "${baseline_build[@]}"
mkdir -p "$quarkus_rest"
cp -a "$work/quarkus-rest-build/quarkus-app" "$quarkus_rest/"
rm -rf "$work/quarkus-rest-build"
find "$quarkus_rest" -exec touch -h -d @0 {} +

# 3. The AOT caches: written by the image's OWN runtime, in a chroot of the image (a cache only serves the JVM that
# wrote it, with the same jars: same paths, same sizes, same timestamps — the image's are all at the epoch). The
# app runs as user 185 with the entrypoint's flags; Train.java (on the host's JDK) runs DynamoDB Local on loopback,
# calls every route of the app, stops it (the JVM writes the cache at exit), then does the same for the floor.
root="$work/aot-root"
rm -rf "$root" && mkdir -p "$root"
tar -xOf "$base" rootfs.tar | tar -x -C "$root"
mkdir -p "$root/opt/java" "$root/deployments" "$root/floor" "$root/quarkus-rest"
cp -a "$runtime/." "$root/opt/java/"
cp -a target/quarkus-app/. "$root/deployments/"
cp -a "$floor/." "$root/floor/"
cp -a "$quarkus_rest/." "$root/quarkus-rest/"
# The training's own writable directory (the caches, the key it trusts), owned by the user it runs as.
mkdir -p "$root/aot" && chown 185:0 "$root/aot"
find "$root/opt/java" "$root/deployments" "$root/floor" "$root/quarkus-rest" -exec touch -h -d @0 {} +
# The image's default JDK_JAVA_OPTIONS, and the manifests' limits (512Mi, 1 CPU) as the JVM sees them in the pod: the
# training runs with the heap, GC (Serial) and thread pools of production.
jvm_options="-XX:MaxRAMPercentage=60 -Djava.io.tmpdir=/tmp -XX:MaxRAM=512m -XX:ActiveProcessorCount=1"
in_image=(unshare --mount --pid --fork --mount-proc="$root/proc" chroot --userspec=185:0 "$root" /usr/bin/env JDK_JAVA_OPTIONS="$jvm_options")
java -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "target/classes:$(cat "$work/training.classpath")" \
  deploy/image/Train.java --files "$root/aot:/aot" --log "$work/training.log" \
  --floor-log "$work/floor-training.log" --quarkus-rest-log "$work/quarkus-rest-training.log" \
  -- "${in_image[@]}" /opt/java/bin/java -XX:AOTCacheOutput=/aot/app.aot \
    -Djava.util.logging.manager=org.jboss.logmanager.LogManager -jar /deployments/quarkus-run.jar \
  --floor "${in_image[@]}" /opt/java/bin/java -XX:AOTCacheOutput=/aot/floor.aot -Xmx300m @/floor/args \
    '{port}' '{dynamodb}' /aot/access-patterns.json false \
  --quarkus-rest "${in_image[@]}" /opt/java/bin/java -XX:AOTCacheOutput=/aot/quarkus-rest.aot \
    -Djava.util.logging.manager=org.jboss.logmanager.LogManager -Dquarkus.http.port='{port}' \
    -Dquarkus.dynamodb.endpoint-override='{dynamodb}' -Dquarkus.dynamodb.aws.region=us-east-1 \
    -Dquarkus.dynamodb.aws.credentials.type=static -Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=training \
    -Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=training \
    -Dbaseline.access-patterns=/aot/access-patterns.json -jar /quarkus-rest/quarkus-app/quarkus-run.jar
for cache in app floor quarkus-rest; do
  if [ ! -s "$root/aot/$cache.aot" ]; then
    tail -20 "$work/training.log" "$work/floor-training.log" "$work/quarkus-rest-training.log" >&2 || true
    echo "the training run wrote no AOT cache for the $cache" >&2
    exit 1
  fi
done
cp "$root/aot/app.aot" "$work/app.aot"
cp "$root/aot/floor.aot" "$root/aot/access-patterns.json" "$floor/"
cp "$root/aot/quarkus-rest.aot" "$quarkus_rest/"
touch -h -d @0 "$floor"/* "$quarkus_rest"/*
rm -rf "$root"

# 4. The image.
./mvnw -q -B -o -f deploy/image/pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/$work/jib.classpath" \
  || ./mvnw -q -B -f deploy/image/pom.xml dependency:build-classpath -Dmdep.outputFile="$PWD/$work/jib.classpath"
java -cp "$(cat "$work/jib.classpath")" deploy/image/JvmImage.java "$base" "$runtime" target/quarkus-app "$out" "$IMAGE" \
  "$work/app.aot"

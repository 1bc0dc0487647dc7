import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainer;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.google.cloud.tools.jib.api.buildplan.Port;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The JVM image without a container engine: Jib puts a Java runtime (made by jlink) and the Quarkus fast-jar on a
 * local base image (a tarball) and writes the result as a tarball that docker/podman load. Layers go from least to
 * most often changed, as Quarkus' own Jib integration orders them, so a code change re-ships only the application
 * and the AOT cache.
 *
 * <p>Usage: java -cp &lt;jib-core classpath&gt; JvmImage.java BASE.tar JAVA-RUNTIME target/quarkus-app OUT.tar IMAGE-NAME
 * APP.aot
 */
public class JvmImage {

    static final AbsoluteUnixPath APP = AbsoluteUnixPath.get("/deployments");
    static final AbsoluteUnixPath JAVA = AbsoluteUnixPath.get("/opt/java");
    // Files belong to root and are read-only for the app's user: the running service cannot alter its own code.
    static final String OWNER = "0:0";
    static final String USER = "185";

    public static void main(String[] args) throws Exception {
        Path base = Path.of(args[0]);
        Path runtime = Path.of(args[1]);
        Path app = Path.of(args[2]);
        Path out = Path.of(args[3]);
        String name = args[4];
        Path aotCache = Path.of(args[5]);

        JibContainer image = Jib.from(TarImage.at(base))
                .addFileEntriesLayer(layer("java-runtime", runtime, JAVA, "."))
                .addFileEntriesLayer(layer("dependencies", app, APP, "lib/boot", "lib/main"))
                .addFileEntriesLayer(layer("quarkus-runner", app, APP, "quarkus-run.jar", "quarkus"))
                .addFileEntriesLayer(layer("application", app, APP, "app"))
                // Last: it changes with every build of the app (the classes and profiles it caches).
                .addFileEntriesLayer(FileEntriesLayer.builder().setName("aot-cache").addEntry(aotCache,
                        APP.resolve("app.aot"), FilePermissions.fromOctalString("444"), Instant.EPOCH, OWNER).build())
                // -XX:AOTMode=auto (the default): should the cache not match, the JVM starts without it.
                .setEntrypoint(List.of("/opt/java/bin/java", "-XX:AOTCache=/deployments/app.aot",
                        "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                        "-jar", "/deployments/quarkus-run.jar"))
                // Defaults a deployment may replace: heap as a share of the container's memory, temp files on /tmp.
                .setEnvironment(Map.of(
                        "JAVA_HOME", "/opt/java",
                        "PATH", "/opt/java/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                        "JDK_JAVA_OPTIONS", "-XX:MaxRAMPercentage=60 -Djava.io.tmpdir=/tmp",
                        "LANG", "C.UTF-8"))
                .setExposedPorts(Set.of(Port.tcp(8080), Port.tcp(9000)))
                .setUser(USER)
                .setWorkingDirectory(APP)
                .setLabels(Map.of("org.opencontainers.image.title", "cairn",
                        "org.opencontainers.image.licenses", "Apache-2.0"))
                .setFormat(ImageFormat.Docker)
                .setCreationTime(Instant.EPOCH)
                .containerize(Containerizer.to(TarImage.at(out).named(ImageReference.parse(name)))
                        .addEventHandler(LogEvent.class, e -> {
                            if (e.getLevel().compareTo(LogEvent.Level.LIFECYCLE) <= 0) {
                                System.out.println("jib: " + e.getMessage());
                            }
                        }));
        System.out.println("image " + name + " " + image.getDigest() + " written to " + out
                + " (" + Files.size(out) / (1024 * 1024) + " MiB)");
    }

    /**
     * One layer holding the given files and directories of {@code from}, at the same place under {@code to}; what
     * is executable (the runtime's launchers and libraries) stays so.
     */
    static FileEntriesLayer layer(String name, Path from, AbsoluteUnixPath to, String... parts) throws IOException {
        var layer = FileEntriesLayer.builder().setName(name);
        for (String part : parts) {
            Path root = from.resolve(part).normalize();
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                    boolean executable = Files.isDirectory(file) || Files.isExecutable(file);
                    String relative = from.normalize().relativize(file).toString().replace('\\', '/');
                    layer.addEntry(file, relative.isEmpty() ? to : to.resolve(relative),
                            FilePermissions.fromOctalString(executable ? "755" : "644"), Instant.EPOCH, OWNER);
                }
            }
        }
        return layer.build();
    }
}

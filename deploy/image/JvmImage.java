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
 * The JVM image without a container engine: Jib puts the Quarkus fast-jar on a local base image (a tarball) and
 * writes the result as a tarball that docker/podman load. Layers go from least to most often changed, as Quarkus'
 * own Jib integration orders them, so a code change re-ships only the last, small layer.
 *
 * <p>Usage: java -cp &lt;jib-core classpath&gt; JvmImage.java BASE.tar target/quarkus-app OUT.tar IMAGE-NAME APP-CDS.jsa
 */
public class JvmImage {

    static final AbsoluteUnixPath APP = AbsoluteUnixPath.get("/deployments");
    // Files belong to root and are read-only for the app's user: the running service cannot alter its own code.
    static final String OWNER = "0:0";
    static final String USER = "185";

    public static void main(String[] args) throws Exception {
        Path base = Path.of(args[0]);
        Path app = Path.of(args[1]);
        Path out = Path.of(args[2]);
        String name = args[3];
        Path cdsArchive = Path.of(args[4]);

        JibContainer image = Jib.from(TarImage.at(base))
                .addFileEntriesLayer(layer("dependencies", app, "lib/boot", "lib/main"))
                .addFileEntriesLayer(layer("quarkus-runner", app, "quarkus-run.jar", "quarkus"))
                .addFileEntriesLayer(layer("application", app, "app"))
                // Last: it changes with every build of the app (the classes it archives).
                .addFileEntriesLayer(FileEntriesLayer.builder().setName("app-cds").addEntry(cdsArchive,
                        APP.resolve("app-cds.jsa"), FilePermissions.fromOctalString("444"), Instant.EPOCH, OWNER).build())
                // -Xshare:auto (the default): should the archive not match, the JVM starts without it.
                .setEntrypoint(List.of("java", "-XX:SharedArchiveFile=/deployments/app-cds.jsa",
                        "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                        "-jar", "/deployments/quarkus-run.jar"))
                // Defaults a deployment may replace: heap as a share of the container's memory, temp files on /tmp.
                .setEnvironment(Map.of(
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

    /** One layer holding the given files and directories of the fast-jar, at the same place under /deployments. */
    static FileEntriesLayer layer(String name, Path app, String... parts) throws IOException {
        var layer = FileEntriesLayer.builder().setName(name);
        for (String part : parts) {
            Path root = app.resolve(part);
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                    boolean dir = Files.isDirectory(file);
                    layer.addEntry(file, APP.resolve(app.relativize(file).toString().replace('\\', '/')),
                            FilePermissions.fromOctalString(dir ? "755" : "644"), Instant.EPOCH, OWNER);
                }
            }
        }
        return layer.build();
    }
}

package dev.cairn.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Where, when and how a run was made: the machine, the code (commit and whether the tree was dirty) and the exact
 * settings, so a published report says what its numbers are of.
 *
 * @param date         the run's day (UTC), which names its published directory with the commit
 * @param changedPaths what made the tree dirty ({@code git status --porcelain}, published reports left out)
 * @param command      the command that repeats the run, every setting spelled out
 * @param other        the other build's checkout directory name, or null when none ran beside this one
 */
record RunInfo(String date, String startedAt, String commit, boolean dirty, List<String> changedPaths, String command,
               List<String> scenarios, long warmupSeconds, long durationSeconds, List<Integer> concurrencies, int rounds,
               String http, boolean jfr, String other, int cores, String cpu, double memoryGiB, String os,
               String javaLoadGenerator, String javaApp, String appHeap, String dynamoDb, long prewarmSeconds) {

    static final String DYNAMODB = "DynamoDB Local 3.3.1, in memory, inside the load generator's JVM";

    /** Read at the start of a run, before anything is measured or written. */
    static RunInfo collect(List<String> scenarios, long warmup, long duration, List<Integer> concurrencies, int rounds,
                           String http, boolean jfr, String other, long soakSeconds, boolean publish, long prewarm) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> changed = git("status", "--porcelain", "--", ".", ":(exclude)docs/bench");
        var command = new StringBuilder("./mvnw -Pbench verify -Dbench.scenarios=").append(String.join(",", scenarios))
                .append(" -Dbench.warmup=").append(warmup).append(" -Dbench.duration=").append(duration)
                .append(" -Dbench.concurrency=").append(concurrencies.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse(""));
        if (!System.getProperty("bench.duration.large", "").isBlank()) {
            command.append(" -Dbench.duration.large=").append(System.getProperty("bench.duration.large"));
        }
        if (!System.getProperty("bench.settle", "").isBlank()) {
            command.append(" -Dbench.settle=").append(System.getProperty("bench.settle"));
        }
        if (rounds != 2) {
            command.append(" -Dbench.rounds=").append(rounds);
        }
        if (prewarm > 0) {
            command.append(" -Dbench.prewarm=").append(prewarm);
        }
        if (!"1.1".equals(http)) {
            command.append(" -Dbench.http=").append(http);
        }
        if (jfr) {
            command.append(" -Dbench.jfr=true");
        }
        if (other != null) {
            // Named by its checkout, never by a path on this machine.
            command.append(" -Dbench.other=<").append(other).append(">/target/quarkus-app");
        }
        if (scenarios.contains(FeatureWrites.SCENARIO) || scenarios.contains("all")) {
            command.append(" -Dbench.features.ops=").append(FeatureWrites.OPS)
                    .append(" -Dbench.features.warmup=").append(FeatureWrites.WARMUP);
        }
        if (scenarios.contains("soak")) {
            command.append(" -Dbench.soak=").append(soakSeconds);
        }
        if (publish) {
            command.append(" -Dbench.publish=true");
        }
        String javaBinary = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new RunInfo(now.atOffset(ZoneOffset.UTC).toLocalDate().toString(), now.toString(),
                first(git("rev-parse", "--short", "HEAD"), "unknown"), !changed.isEmpty(), changed, command.toString(),
                List.copyOf(scenarios), warmup, duration, List.copyOf(concurrencies), rounds, http, jfr, other,
                Runtime.getRuntime().availableProcessors(), readCpu(), readMemoryGiB(), readOs(),
                System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name") + ")",
                javaVersionOf(javaBinary), "-Xmx300m", DYNAMODB, prewarm);
    }

    /** The short name of a published run: its day and commit. */
    String name() {
        return date + "-" + commit;
    }

    private static String readCpu() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim().replaceAll("\\s+", " ")).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static double readMemoryGiB() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(0) / 1024.0 / 1024.0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static String readOs() {
        String name = System.getProperty("os.name");
        try {
            name = Files.readAllLines(Path.of("/etc/os-release")).stream().filter(l -> l.startsWith("PRETTY_NAME="))
                    .map(l -> l.substring(l.indexOf('=') + 1).replace("\"", "")).findFirst().orElse(name);
        } catch (IOException e) {
            // not Linux, or no os-release: the JVM's name will do
        }
        return String.format(Locale.ROOT, "%s (%s %s, %s)", name, System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"));
    }

    /**
     * The Java the app and the hand-written service run on: asked of the binary that starts them, so it is right
     * even if that binary ever differs from the load generator's.
     */
    private static String javaVersionOf(String javaBinary) {
        List<String> lines = run(List.of(javaBinary, "-version"));
        String build = lines.stream().filter(l -> l.contains("(build ")).findFirst()
                .map(l -> l.substring(l.indexOf("(build ") + 7, l.indexOf(')', l.indexOf("(build ")))).orElse("unknown");
        String vm = lines.stream().filter(l -> l.contains(" VM (build ")).findFirst()
                .map(l -> l.substring(0, l.indexOf(" (build "))).orElse("");
        return vm.isEmpty() ? build : build + " (" + vm + ")";
    }

    private static List<String> git(String... args) {
        var command = new ArrayList<String>();
        command.add("git");
        command.addAll(List.of(args));
        return run(command);
    }

    private static List<String> run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return List.of();
            }
            return out.lines().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    private static String first(List<String> lines, String otherwise) {
        return lines.isEmpty() ? otherwise : lines.get(0).trim();
    }
}

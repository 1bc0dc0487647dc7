package dev.cairn.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * A run's report: report.md with the machine, the code, the settings, the ratios, the charts and the raw tables,
 * beside the charts (PNG) and the data they are all drawn from (data.json).
 *
 * <p>Every run writes it to target/bench/report/; {@code -Dbench.publish=true} copies it to
 * docs/bench/&lt;date&gt;-&lt;commit&gt;/ and shows it as the latest run in docs/performance.md. Publishing is a choice,
 * not a side effect, because most runs are checks on a shared, noisy machine that should not land in the docs.
 * {@code -Dbench.render=<dir>} (or {@link #main}) draws a published run's report and charts again from its
 * data.json.
 */
final class Report {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final Path OUT = Path.of("target/bench/report");
    static final Path PUBLISHED = Path.of("docs/bench");
    static final Path PERFORMANCE = Path.of("docs/performance.md");
    static final String LATEST_START = "<!-- latest run: drawn by the benchmark on -Dbench.publish=true -->";
    static final String LATEST_END = "<!-- end of latest run -->";

    private Report() {
    }

    /** Draws the report of {@code data} into {@code dir}: data.json, the charts, report.md. */
    static void write(RunData data, Path dir) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve("data.json").toFile(), data);
        List<Charts.Image> images = Charts.draw(data, dir);
        Files.writeString(dir.resolve("report.md"), markdown(data, images));
    }

    /** Draws a report again from the data.json in {@code dir}; a published one also becomes the page's latest run again. */
    static void render(Path dir) throws IOException {
        RunData data = JSON.readValue(dir.resolve("data.json").toFile(), RunData.class);
        write(data, dir);
        if (dir.toAbsolutePath().normalize().startsWith(PUBLISHED.toAbsolutePath().normalize())) {
            showLatest();
        }
    }

    /** Copies target/bench/report/ to docs/bench/&lt;date&gt;-&lt;commit&gt;/ and shows it at the top of the performance page. */
    static Path publish(RunInfo run) throws IOException {
        Path dir = PUBLISHED.resolve(run.name());
        for (int n = 2; Files.exists(dir); n++) {
            dir = PUBLISHED.resolve(run.name() + "-" + n); // another run of the same commit on the same day
        }
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(OUT)) {
            for (Path file : files.toList()) {
                Files.copy(file, dir.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        showLatest();
        return dir;
    }

    /** The "Latest run" block of docs/performance.md: the newest published run, its charts, links to the others. */
    static void showLatest() throws IOException {
        var runs = new ArrayList<Published>();
        try (Stream<Path> dirs = Files.list(PUBLISHED)) {
            for (Path dir : dirs.filter(d -> Files.exists(d.resolve("data.json"))).toList()) {
                runs.add(new Published(dir.getFileName().toString(), JSON.readValue(dir.resolve("data.json").toFile(), RunData.class)));
            }
        }
        runs.sort(Comparator.comparing((Published p) -> p.data().run().startedAt()).reversed());
        // A run that only put two builds side by side (a change's cost) has no GET figures against the baselines:
        // the block keeps showing the newest run that has them, and links the other one.
        Published shown = runs.stream().filter(p -> p.data().againstBaselines()).findFirst().orElse(runs.isEmpty() ? null : runs.get(0));
        if (shown != null) {
            runs.remove(shown);
            runs.add(0, shown);
        }
        String page = Files.readString(PERFORMANCE);
        int start = page.indexOf(LATEST_START);
        int end = page.indexOf(LATEST_END);
        if (runs.isEmpty() || start < 0 || end < start) {
            System.out.println("docs/performance.md has no latest-run markers: left as it is");
            return;
        }
        Files.writeString(PERFORMANCE, page.substring(0, start + LATEST_START.length()) + "\n" + latest(runs)
                + page.substring(end));
    }

    record Published(String dir, RunData data) {
    }

    static String latest(List<Published> runs) {
        Published newest = runs.get(0);
        RunData data = newest.data();
        RunInfo run = data.run();
        String base = "bench/" + newest.dir() + "/";
        var md = new StringBuilder("## Latest run\n\n");
        md.append(String.format(Locale.ROOT, "[%s, `%s`%s](%sreport.md): `%s` on %d cores, Java %s; %d interleaved rounds. "
                        + "The report has the machine, every ratio and the raw tables; the charts below are drawn from its "
                        + "[data](%sdata.json).%n%n", run.date(), run.commit(), run.dirty() ? ", dirty tree" : "", base, run.command(),
                run.cores(), run.javaApp(), run.rounds(), base));
        var routes = data.comparisons().stream().filter(RunData.Comparison::againstHandWritten).toList();
        if (!routes.isEmpty() && routes.stream().anyMatch(RunData.Comparison::againstQuarkusRest)) {
            md.append("Cairn / baseline: above 1 favours Cairn for ops/s, below 1 for p50, p99 and CPU per request.\n\n");
            md.append("| GET route | concurrency | Cairn / quarkus-rest: ops/s | p50 | p99 | CPU per request "
                            + "| Cairn / Vert.x hand-written: ops/s | p50 | CPU per request | Cairn / raw SDK: ops/s | p50 |\n")
                    .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
            for (RunData.Comparison route : routes) {
                for (int c : route.concurrencies()) {
                    Ratio rest = Ratio.of(route, c, RunData.QUARKUS_REST);
                    Ratio hand = Ratio.of(route, c, RunData.HAND_WRITTEN);
                    Ratio raw = Ratio.of(route, c, RunData.RAW_SDK);
                    md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                            c == route.concurrencies().get(0) ? "`" + route.route() + "`" : "", c, f(rest.ops()), f(rest.p50()),
                            f(rest.p99()), f(rest.cpu()), f(hand.ops()), f(hand.p50()), f(hand.cpu()), f(raw.ops()), f(raw.p50())));
                }
            }
            md.append('\n').append(targets(data));
        } else if (!routes.isEmpty()) {
            md.append("Cairn / baseline: above 1 favours Cairn for ops/s, below 1 for p50, p99 and CPU per request.\n\n");
            md.append("| GET route | concurrency | Cairn / hand-written: ops/s | p50 | p99 | CPU per request | Cairn / raw SDK: ops/s | p50 | p99 |\n")
                    .append("|---|---|---|---|---|---|---|---|---|\n");
            for (RunData.Comparison route : routes) {
                for (int c : route.concurrencies()) {
                    Ratio hand = Ratio.of(route, c, RunData.HAND_WRITTEN);
                    Ratio raw = Ratio.of(route, c, RunData.RAW_SDK);
                    md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |%n",
                            c == route.concurrencies().get(0) ? "`" + route.route() + "`" : "", c, f(hand.ops()), f(hand.p50()),
                            f(hand.p99()), f(hand.cpu()), f(raw.ops()), f(raw.p50()), f(raw.p99())));
                }
            }
            md.append('\n');
        }
        for (Charts.Image image : Charts.images(data)) {
            md.append(String.format(Locale.ROOT, "![%s](%s%s)%n%n", image.caption(), base, image.file()));
        }
        if (runs.size() > 1) {
            md.append("Other published runs, newest first: ");
            for (int i = 1; i < runs.size(); i++) {
                RunInfo earlier = runs.get(i).data().run();
                md.append(i == 1 ? "" : ", ").append(String.format(Locale.ROOT, "[%s, `%s` (%s)](bench/%s/report.md)",
                        earlier.date(), earlier.commit(), String.join(", ", earlier.scenarios()), runs.get(i).dir()));
            }
            md.append(".\n\n");
        }
        return md.toString();
    }

    /** A target of Cairn against the quarkus-rest baseline: a ratio that must stay at or below (or above) a limit. */
    record Target(String what, int concurrency, java.util.function.ToDoubleFunction<Ratio> metric, double limit, boolean atMost) {

        boolean holds(double ratio) {
            return atMost ? ratio <= limit : ratio >= limit;
        }

        String bound() {
            return (atMost ? "≤ " : "≥ ") + String.format(Locale.ROOT, "%.2f", limit);
        }
    }

    /**
     * The targets against the quarkus-rest baseline: CPU per request ≤ 1.15× at every concurrency, throughput ≥ 0.95×
     * at the highest concurrency, p50 ≤ 1.10× at the lowest.
     */
    static List<Target> targetsOf(RunData.Comparison route) {
        List<Integer> cs = route.concurrencies();
        var targets = new ArrayList<Target>();
        for (int c : cs) {
            targets.add(new Target("CPU per request", c, Ratio::cpu, 1.15, true));
        }
        targets.add(new Target("ops/s", cs.get(cs.size() - 1), Ratio::ops, 0.95, false));
        targets.add(new Target("p50", cs.get(0), Ratio::p50, 1.10, true));
        return targets;
    }

    /**
     * Cairn against the quarkus-rest baseline, target by target: the ratio over all rounds, then round by round (round
     * n of Cairn over round n of the baseline), and how many rounds hold. Empty for runs without that baseline.
     */
    static String targets(RunData data) {
        var routes = data.comparisons().stream().filter(RunData.Comparison::againstQuarkusRest).toList();
        if (routes.isEmpty()) {
            return "";
        }
        var md = new StringBuilder("Targets against the quarkus-rest baseline (Cairn / quarkus-rest; all rounds merged, then "
                + "round by round):\n\n| GET route | target | bound | all rounds | holds | rounds | rounds holding |\n"
                + "|---|---|---|---|---|---|---|\n");
        for (RunData.Comparison route : routes) {
            boolean first = true;
            for (Target target : targetsOf(route)) {
                double merged = target.metric().applyAsDouble(Ratio.of(route, target.concurrency(), RunData.QUARKUS_REST));
                List<Ratio> rounds = Ratio.rounds(route, target.concurrency(), RunData.QUARKUS_REST);
                long holding = rounds.stream().filter(r -> target.holds(target.metric().applyAsDouble(r))).count();
                md.append(String.format(Locale.ROOT, "| %s | %s at %d | %s | **%s** | %s | %s | %d of %d |%n",
                        first ? "`" + route.route() + "`" : "", target.what(), target.concurrency(), target.bound(),
                        f(merged), Double.isNaN(merged) ? "–" : target.holds(merged) ? "yes" : "**no**",
                        String.join(" · ", rounds.stream().map(r -> f(target.metric().applyAsDouble(r))).toList()),
                        holding, rounds.size()));
                first = false;
            }
        }
        return md.append('\n').toString();
    }

    /** Cairn / a baseline at one concurrency; NaN where either side lacks the figure. */
    record Ratio(double ops, double p50, double p99, double cpu) {

        static Ratio of(RunData.Comparison comparison, int concurrency, String baseline) {
            var cairn = comparison.row(concurrency, RunData.CAIRN);
            var base = comparison.row(concurrency, baseline);
            if (cairn.isEmpty() || base.isEmpty()) {
                return new Ratio(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            RunData.Row c = cairn.get();
            RunData.Row b = base.get();
            double cpu = c.cpuMsPerOp() == null || b.cpuMsPerOp() == null ? Double.NaN : c.cpuMsPerOp() / b.cpuMsPerOp();
            return new Ratio(c.opsPerSecond() / b.opsPerSecond(), c.p50Ms() / b.p50Ms(), c.p99Ms() / b.p99Ms(), cpu);
        }

        /** Round n of Cairn over round n of the baseline, for every round both ran. */
        static List<Ratio> rounds(RunData.Comparison comparison, int concurrency, String baseline) {
            var cairn = comparison.rounds(concurrency, RunData.CAIRN);
            var base = comparison.rounds(concurrency, baseline);
            var ratios = new ArrayList<Ratio>();
            for (int i = 0; i < Math.min(cairn.size(), base.size()); i++) {
                RunData.RoundRow c = cairn.get(i);
                RunData.RoundRow b = base.get(i);
                double cpu = c.cpuMsPerOp() == null || b.cpuMsPerOp() == null ? Double.NaN : c.cpuMsPerOp() / b.cpuMsPerOp();
                ratios.add(new Ratio(c.opsPerSecond() / b.opsPerSecond(), c.p50Ms() / b.p50Ms(), c.p99Ms() / b.p99Ms(), cpu));
            }
            return ratios;
        }
    }

    static String markdown(RunData data, List<Charts.Image> images) {
        RunInfo run = data.run();
        var md = new StringBuilder();
        md.append("# Cairn benchmark, ").append(run.date()).append(", `").append(run.commit()).append("`\n\n");
        if (data.failure() != null) {
            md.append("**Incomplete run**: it stopped at ").append(data.failure()).append(". What was measured before is below.\n\n");
        }
        md.append("| | |\n|---|---|\n")
                .append(String.format(Locale.ROOT, "| date | %s (started %s) |%n", run.date(), run.startedAt()))
                .append(String.format(Locale.ROOT, "| commit | `%s`, %s |%n", run.commit(), run.dirty()
                        ? "**dirty tree** (" + run.changedPaths().size() + " changed: " + String.join("; ",
                        run.changedPaths().stream().limit(8).map(p -> "`" + p.trim() + "`").toList())
                        + (run.changedPaths().size() > 8 ? "; …" : "") + ")"
                        : "clean tree"))
                .append(String.format(Locale.ROOT, "| command | `%s` |%n", run.command()))
                .append(String.format(Locale.ROOT, "| scenarios | %s |%n", String.join(", ", run.scenarios())))
                .append(data.comparisons().isEmpty() && !data.features().isEmpty()
                        // A run of the features scenario only: its writes are counted, not timed windows.
                        ? String.format(Locale.ROOT, "| writes | one request at a time over one connection; per entity, write "
                                + "and round the number the command gives, after the unrecorded ones |%n| rounds | %d, each "
                                + "write's cycles in a fresh shuffled order of the entities, the writes in reverse order every "
                                + "other round |%n", run.rounds())
                        : String.format(Locale.ROOT, "| warm-up, measured | %d s, %d s per implementation, concurrency and round%s |%n",
                        run.warmupSeconds(), run.durationSeconds(), run.prewarmSeconds() > 0 ? String.format(Locale.ROOT,
                                "; before a GET route's first round, %d s of unmeasured load on each", run.prewarmSeconds()) : "")
                        + String.format(Locale.ROOT, "| concurrency | %s closed-loop clients |%n",
                        String.join(", ", run.concurrencies().stream().map(String::valueOf).toList()))
                        + String.format(Locale.ROOT, "| rounds | %d, interleaved, every other round in reverse order |%n", run.rounds()))
                .append(String.format(Locale.ROOT, "| load | HTTP/%s, one connection per client%s%s |%n", run.http(),
                        run.jfr() ? "; JFR recording attached to the app" : "",
                        run.other() == null ? "" : "; other build beside this one: `" + run.other() + "`"))
                .append(String.format(Locale.ROOT, "| machine | %d cores (%s), %.1f GiB memory, %s |%n", run.cores(), run.cpu(),
                        run.memoryGiB(), run.os()))
                .append(String.format(Locale.ROOT, "| Java, load generator | %s |%n", run.javaLoadGenerator()))
                .append(String.format(Locale.ROOT, "| Java, app and the hand-written services | %s, each its own JVM, `%s` |%n",
                        run.javaApp(), run.appHeap()))
                .append(String.format(Locale.ROOT, "| DynamoDB | %s |%n", run.dynamoDb()))
                .append('\n');
        if (!data.comparisons().isEmpty()) {
            md.append("## Ratios\n\n")
                    .append("Cairn / baseline, each merged over the rounds: above 1 favours Cairn for ops/s, below 1 for p50, p99 and CPU. ")
                    .append("CPU per request is the serving process' user + system time (from /proc) over its measured windows; ")
                    .append("the raw SDK runs inside the load generator, so it has none. On a shared machine, read the ratios, ")
                    .append("not the absolute numbers.\n\n");
            md.append("| route | concurrency | Cairn / | ops/s | p50 | p99 | CPU per request |\n|---|---|---|---|---|---|---|\n");
            for (RunData.Comparison comparison : data.comparisons()) {
                boolean first = true;
                for (int c : comparison.concurrencies()) {
                    for (String baseline : comparison.impls()) {
                        if (baseline.equals(RunData.CAIRN)) {
                            continue;
                        }
                        Ratio r = Ratio.of(comparison, c, baseline);
                        md.append(String.format(Locale.ROOT, "| %s | %d | %s | **%s** | **%s** | %s | %s |%n",
                                first ? "`" + comparison.route() + "`" : "", c, baseline, f(r.ops()), f(r.p50()), f(r.p99()), f(r.cpu())));
                        first = false;
                    }
                }
            }
            md.append('\n');
        }
        String targets = targets(data);
        if (!targets.isEmpty()) {
            md.append("## Against the quarkus-rest baseline\n\n").append("A plain quarkus-rest service on the same Quarkus platform "
                    + "and DynamoDB extension (its default client), one resource per GET route making the route's one Query as "
                    + "the app lists it and folding the items into maps that Jackson writes (src/bench/baseline-rest).\n\n")
                    .append(targets);
            for (RunData.Comparison route : data.comparisons()) {
                if (route.bodies() != null) {
                    md.append("- `").append(route.route()).append("`: answer ").append(route.bodies()).append('\n');
                }
            }
            md.append('\n');
        }
        md.append(controls(data.controls()));
        md.append(builds(data));
        md.append(throughput(data));
        if (!data.features().isEmpty()) {
            md.append("## What each entity feature costs on a write\n\n")
                    .append("Six declared entities, and six aggregates, alike in every field and route but for one feature "
                            + "each (src/bench/feature-models), an aggregate's beside the plain aggregate's, written in the same rounds by the same Cairn process, one request at "
                            + "a time over one connection, in an order shuffled anew for every cycle of one write per entity. "
                            + "Calls and actions are what DynamoDB Local's engine received (the app answered as many calls "
                            + "unless marked); WCU is what DynamoDB bills for those actions by its published rules: per action "
                            + "1 unit per KB of the larger of its item before and after (rounded up, at least 1), twice that in "
                            + "a TransactWriteItems, ConditionChecks included; the largest item of every write is in the raw "
                            + "table. p50 at one connection; feature / plain above 1 means the feature costs more.\n\n")
                    .append(features(data.features())).append('\n');
        }
        if (!data.headlines().isEmpty()) {
            md.append("| scenario | ratio | of |\n|---|---|---|\n");
            for (RunData.Headline h : data.headlines()) {
                md.append(String.format(Locale.ROOT, "| %s | **%s** | %s |%n", h.scenario(), f(h.ratio()), h.what()));
            }
            md.append('\n');
        }
        if (!images.isEmpty()) {
            md.append("## Charts\n\n");
            for (Charts.Image image : images) {
                md.append(String.format(Locale.ROOT, "![%s](%s)%n%n", image.caption(), image.file()));
            }
            if (!data.startup().isEmpty()) {
                md.append("Startup variants: ");
                md.append(String.join("; ", data.startup().stream().map(v -> String.format(Locale.ROOT, "**%s** = %s (%d starts)",
                        v.label(), v.name(), v.starts())).toList())).append(".\n\n");
            }
        }
        md.append("## Raw tables\n\n").append("Merged over the rounds: ops/s over all measured windows, p50 the upper "
                + "median of the rounds' p50s, p99 the worst round's.\n\n").append(data.tables());
        return md.toString();
    }

    /**
     * The routes measured as this build beside the other build only (the copywrites scenario): what each build's
     * request cost — DynamoDB calls, consumed capacity, p50, ops/s — and this / other.
     */
    static String builds(RunData data) {
        var routes = data.comparisons().stream().filter(RunData.Comparison::buildsOnly).toList();
        if (routes.isEmpty()) {
            return "";
        }
        String other = data.run().other() == null ? "the other build" : "`" + data.run().other() + "`";
        var md = new StringBuilder("## This build beside the other build\n\n");
        md.append(String.format(Locale.ROOT, "This build (`%s`) and %s served the same routes in the same interleaved rounds, "
                + "each writing its own entities from the same reference data. Calls and capacity are per request, as each app "
                + "answers them (`X-DynamoDB-Calls`, `X-DynamoDB-Capacity`: DynamoDB Local's figures, which are not "
                + "DynamoDB's for transactions); this / other above 1 means this build needs more (less throughput for "
                + "ops/s).%n%n", data.run().commit(), other));
        md.append("| route | concurrency | calls: this · other | capacity: this · other | p50 ms: this · other | ops/s: this · other "
                        + "| this / other: calls | capacity | p50 | ops/s | CPU per request |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RunData.Comparison route : routes) {
            for (int c : route.concurrencies()) {
                var mine = route.row(c, RunData.CAIRN);
                var theirs = route.row(c, RunData.OTHER_BUILD);
                if (mine.isEmpty() || theirs.isEmpty()) {
                    continue;
                }
                RunData.Row a = mine.get();
                RunData.Row b = theirs.get();
                Ratio r = Ratio.of(route, c, RunData.OTHER_BUILD);
                md.append(String.format(Locale.ROOT, "| %s | %d | %.2f · %.2f | %s · %s | %.2f · %.2f | %.0f · %.0f | **%s** | %s | **%s** | **%s** | %s |%n",
                        c == route.concurrencies().get(0) ? "`" + route.route() + "`" : "", c, a.callsPerOp(), b.callsPerOp(),
                        units(a.capacityPerOp()), units(b.capacityPerOp()), a.p50Ms(), b.p50Ms(), a.opsPerSecond(), b.opsPerSecond(),
                        f(a.callsPerOp() / b.callsPerOp()), f(a.capacityPerOp() == null || b.capacityPerOp() == null ? Double.NaN
                                : a.capacityPerOp() / b.capacityPerOp()), f(r.p50()), f(r.ops()), f(r.cpu())));
            }
        }
        return md.append('\n').toString();
    }

    /**
     * Each entity feature's write beside the same write of the plain entity (the features scenario), with feature /
     * plain for the calls, the write units and the p50 (over all rounds, then round by round).
     */
    static String features(List<RunData.FeatureWrite> rows) {
        var md = new StringBuilder("| write | feature | DynamoDB calls | actions per write call | WCU | p50 ms "
                + "| feature / plain: calls | WCU | p50 | p50, round by round |\n|---|---|---|---|---|---|---|---|---|---|\n");
        String write = null;
        RunData.FeatureWrite plain = null;
        for (RunData.FeatureWrite r : rows) {
            boolean first = !r.write().equals(write);
            if (first) {
                write = r.write();
            }
            // an entity's feature beside the plain entity, an aggregate's beside the plain aggregate
            String none = r.feature().startsWith("aggregate") ? "aggregate, none" : "none";
            plain = rows.stream().filter(p -> p.write().equals(r.write()) && p.feature().equals(none)).findFirst().orElse(null);
            boolean off = r == plain || plain == null;
            String byRound = "–";
            if (!off) {
                var ratios = new ArrayList<String>();
                for (int i = 0; i < Math.min(r.roundP50Ms().size(), plain.roundP50Ms().size()); i++) {
                    ratios.add(f(r.roundP50Ms().get(i) / plain.roundP50Ms().get(i)));
                }
                byRound = String.join(" · ", ratios);
            }
            md.append(String.format(Locale.ROOT, "| %s | %s | %s%s | %s | %d | %.2f | %s | %s | %s | %s |%n", first ? r.write() : "",
                    r.feature(), r.operations().isEmpty() ? "0" : r.calls() + " (" + r.operations() + ")", r.agreed() ? "" : " **(differs)**",
                    r.actions(), r.writeUnits(), r.p50Ms(), off ? "–" : f((double) r.calls() / plain.calls()),
                    off ? "–" : f((double) r.writeUnits() / plain.writeUnits()), off ? "–" : "**" + f(r.p50Ms() / plain.p50Ms()) + "**",
                    byRound));
        }
        return md.toString();
    }

    /**
     * Jobs timed end to end beside the same work by hand (the reconcile scenario): copies checked and repaired per
     * second per pass, the sums over the interleaved rounds, and Cairn / raw. Not a GET figure: a run of only this
     * is linked from the performance page, never shown as its latest run.
     */
    static String throughput(RunData data) {
        if (data.throughput().isEmpty()) {
            return "";
        }
        var md = new StringBuilder("## Job throughput\n\n");
        md.append("Each pass is timed end to end (a job from its POST to `done`); copies checked/s and repaired/s, summed "
                + "over the interleaved rounds. Cairn / raw above 1 favours Cairn. Passes outside the rounds (round –) are "
                + "not in the ratio.\n\n");
        md.append("| scenario | what | pass | round | checked | repaired | seconds | checked/s | repaired/s |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (String scenario : data.throughput().stream().map(RunData.Throughput::scenario).distinct().toList()) {
            var passes = data.throughput().stream().filter(t -> t.scenario().equals(scenario)).toList();
            for (RunData.Throughput t : passes) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %d | %.2f | %.0f | %.0f |%n", scenario, t.title(),
                        t.impl(), t.round() == 0 ? "–" : String.valueOf(t.round()), t.checked(), t.repaired(), t.seconds(),
                        t.checked() / t.seconds(), t.repaired() / t.seconds()));
            }
            double[] cairn = rates(passes, RunData.CAIRN);
            double[] raw = rates(passes, RunData.RAW_SDK);
            for (var side : List.of(java.util.Map.entry(RunData.CAIRN, cairn), java.util.Map.entry(RunData.RAW_SDK, raw))) {
                if (!Double.isNaN(side.getValue()[0])) {
                    md.append(String.format(Locale.ROOT, "| %s | | %s, all rounds | | | | | %.0f | %.0f |%n", scenario,
                            side.getKey(), side.getValue()[0], side.getValue()[1]));
                }
            }
            md.append(String.format(Locale.ROOT, "| %s | | **Cairn / raw** | | | | | **%s** | **%s** |%n", scenario,
                    f(cairn[0] / raw[0]), f(cairn[1] / raw[1])));
        }
        return md.append('\n').toString();
    }

    /** Checked/s and repaired/s of one contender's passes in the rounds, summed; NaN when it has none. */
    static double[] rates(List<RunData.Throughput> passes, String impl) {
        var mine = passes.stream().filter(t -> t.impl().equals(impl) && t.round() > 0).toList();
        double seconds = mine.stream().mapToDouble(RunData.Throughput::seconds).sum();
        if (mine.isEmpty() || seconds <= 0) {
            return new double[]{Double.NaN, Double.NaN};
        }
        return new double[]{mine.stream().mapToLong(RunData.Throughput::checked).sum() / seconds,
                mine.stream().mapToLong(RunData.Throughput::repaired).sum() / seconds};
    }

    static String units(Double capacity) {
        return capacity == null ? "–" : String.format(Locale.ROOT, "%.1f", capacity);
    }

    /**
     * The controls scenario: per route and concurrency, each contender's CPU per request, what each switched-off
     * feature costs (the control with everything on less the control without it) and its share of the gap (Cairn's own
     * route less the baseline in its own process).
     */
    static String controls(List<RunData.Control> controls) {
        if (controls.isEmpty()) {
            return "";
        }
        var md = new StringBuilder("## Controls: what each process-wide feature costs a request\n\n")
                .append("The quarkus-rest baseline's own resource compiled into a build of Cairn and served by Cairn's process "
                        + "(its client, filters, handlers, metrics), with one process-wide feature switched off per control, beside "
                        + "the baseline in its own process and Cairn's own route, in the same interleaved rounds. CPU is the serving "
                        + "process' user + system time per request. A feature's cost is the control with everything on less the "
                        + "control without it; the gap is Cairn's own route less the baseline in its own process; the process is "
                        + "the control with everything on less the baseline in its own process. The twin is a second process "
                        + "with everything on: its difference from the first is the noise, and a cost no larger is marked so.\n\n");
        var keys = new java.util.LinkedHashSet<String>();
        controls.forEach(c -> keys.add(c.route() + "\u0000" + c.concurrency()));
        for (String key : keys) {
            String route = key.substring(0, key.indexOf('\u0000'));
            int concurrency = Integer.parseInt(key.substring(key.indexOf('\u0000') + 1));
            var rows = controls.stream().filter(c -> c.route().equals(route) && c.concurrency() == concurrency).toList();
            double standalone = cpu(rows, Controls.STANDALONE);
            double own = cpu(rows, Controls.OWN_ROUTE);
            double control = cpu(rows, Controls.CONTROL);
            double gap = own - standalone;
            md.append(String.format(Locale.ROOT, "`%s` at %d connection%s: the gap %.0f µs per request (%s × the baseline's "
                            + "CPU); the process %.0f µs (%s of the gap); Cairn's own request path %.0f µs (%s)%n%n", route, concurrency,
                    concurrency == 1 ? "" : "s", gap * 1000, f(own / standalone), (control - standalone) * 1000,
                    share(control - standalone, gap), (own - control) * 1000, share(own - control, gap)))
                    .append("| contender | switched off | CPU µs per request | rounds | ops/s | p50 ms | the feature costs, µs | share of the gap |\n")
                    .append("|---|---|---|---|---|---|---|---|\n");
            double twin = cpu(rows, Controls.TWIN);
            for (RunData.Control row : rows) {
                boolean single = row.contender().startsWith("control: ") && !row.contender().equals(Controls.CONTROL);
                double cost = control - row.cpuMsPerOp();
                // the twin's difference is noise, not a cost; a cost within it is marked unresolved
                String costText = !single ? "" : row.contender().equals(Controls.TWIN)
                        ? String.format(Locale.ROOT, "noise: %.1f", cost * 1000)
                        : String.format(Locale.ROOT, "%.1f%s", cost * 1000,
                        !Double.isNaN(twin) && Math.abs(cost) <= Math.abs(control - twin) ? " (within the noise)" : "");
                md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %s | %.0f | %.2f | %s | %s |%n", row.contender(),
                        row.switchedOff(), row.cpuMsPerOp() * 1000, String.join(" · ", row.roundCpuMsPerOp().stream()
                                .map(c -> String.format(Locale.ROOT, "%.0f", c * 1000)).toList()), row.opsPerSecond(), row.p50Ms(),
                        costText, single && !row.contender().equals(Controls.TWIN) ? share(cost, gap) : ""));
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static double cpu(List<RunData.Control> rows, String contender) {
        return rows.stream().filter(r -> r.contender().equals(contender)).mapToDouble(RunData.Control::cpuMsPerOp).findFirst()
                .orElse(Double.NaN);
    }

    private static String share(double part, double whole) {
        return whole <= 0 || Double.isNaN(part) ? "–" : String.format(Locale.ROOT, "%.0f %%", 100 * part / whole);
    }

    static String f(double ratio) {
        return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "–" : String.format(Locale.ROOT, "%.2f", ratio);
    }

    /** Draws a run's report and charts again: {@code Report <dir with data.json>} (from the project's directory). */
    public static void main(String[] args) throws IOException {
        System.setProperty("java.awt.headless", "true");
        render(Path.of(args[0]));
    }
}

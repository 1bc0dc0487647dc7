package dev.cairn.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What one run measured, as data: the report and its charts are drawn from it, and drawn again later from the
 * data.json kept beside them, without measuring anything.
 *
 * @param failure null when every scenario asked for ran; otherwise why the run stopped (the report says so)
 * @param tables     the run's raw Markdown tables, as target/bench/results.md has them
 * @param throughput passes of a job timed end to end beside the same work by hand (the reconcile scenario); empty in
 *                   runs published before it existed
 * @param features   each entity feature's write beside the plain entity's (the features scenario); empty in runs
 *                   published before it existed
 * @param controls   the quarkus-rest baseline's resource served inside Cairn's process with each process-wide feature
 *                   switched off in turn (the controls scenario); empty in runs published before it existed
 */
record RunData(RunInfo run, List<Comparison> comparisons, List<StartupVariant> startup, List<Headline> headlines,
               String tables, String failure, List<Throughput> throughput, List<FeatureWrite> features,
               List<Control> controls) {

    RunData {
        throughput = throughput == null ? List.of() : throughput;
        features = features == null ? List.of() : features;
        controls = controls == null ? List.of() : controls;
    }

    static final String CAIRN = "Cairn";
    /** The Vert.x hand-written service (baseline.HandWritten): the floor of the stack. */
    static final String HAND_WRITTEN = "hand-written";
    /** The plain quarkus-rest service (src/bench/baseline-rest): what the same routes cost written by hand on Quarkus. */
    static final String QUARKUS_REST = "quarkus-rest";
    static final String OTHER_BUILD = "other build";
    static final String RAW_SDK = "raw SDK";

    /** The contenders in the order tables and charts show them: Cairn first, the floors last. */
    static final List<String> IMPLS = List.of(CAIRN, OTHER_BUILD, QUARKUS_REST, HAND_WRITTEN, RAW_SDK);

    /**
     * One contender at one concurrency, merged over its rounds.
     *
     * @param cpuMsPerOp    the process' user + system CPU per request; null for the raw SDK, which runs inside the
     *                      load generator and has no process of its own
     * @param capacityPerOp consumed capacity units per request as the app answers them (X-DynamoDB-Capacity); null
     *                      where not measured (the raw SDK, runs before it was recorded)
     */
    record Row(int concurrency, String impl, double opsPerSecond, double p50Ms, double p99Ms, double callsPerOp,
               Double cpuMsPerOp, long errors, Double capacityPerOp) {
    }

    /**
     * One contender's run in one round (the rounds are merged into a {@link Row}).
     *
     * @param round      1 for the first run of the contender at this concurrency, and so on
     * @param cpuMsPerOp null for the raw SDK
     */
    record RoundRow(int concurrency, String impl, int round, double opsPerSecond, double p50Ms, double p99Ms, Double cpuMsPerOp) {
    }

    /**
     * A scenario where Cairn ran in the same interleaved rounds as its baselines.
     *
     * @param rounds each contender's rounds one by one; empty in runs published before they were kept
     * @param bodies Cairn's answer beside the quarkus-rest baseline's (byte-identical, or how they differ); null
     *               where not compared
     */
    record Comparison(String scenario, String route, String title, List<Row> rows, List<RoundRow> rounds, String bodies) {

        Comparison {
            rounds = rounds == null ? List.of() : rounds;
        }

        Comparison(String scenario, String route, String title, List<Row> rows) {
            this(scenario, route, title, rows, List.of(), null);
        }

        /** One contender's rounds at one concurrency, in the order they ran. */
        List<RoundRow> rounds(int concurrency, String impl) {
            return rounds.stream().filter(r -> r.concurrency() == concurrency && r.impl().equals(impl)).toList();
        }

        Optional<Row> row(int concurrency, String impl) {
            return rows.stream().filter(r -> r.concurrency() == concurrency && r.impl().equals(impl)).findFirst();
        }

        List<Integer> concurrencies() {
            return rows.stream().map(Row::concurrency).distinct().sorted().toList();
        }

        /** The contenders present, in {@link #IMPLS} order. */
        List<String> impls() {
            return IMPLS.stream().filter(i -> rows.stream().anyMatch(r -> r.impl().equals(i))).toList();
        }

        /**
         * A route measured only as this build beside the other build (no raw SDK, no hand-written service): a
         * change's cost, shown in the report's own table of the two builds.
         */
        boolean buildsOnly() {
            return impls().equals(List.of(CAIRN, OTHER_BUILD));
        }

        /** A GET route measured against the hand-written service too: the ones the charts draw. */
        boolean againstHandWritten() {
            return impls().contains(HAND_WRITTEN);
        }

        /** A GET route measured against the quarkus-rest baseline too: the CPU targets are read against it. */
        boolean againstQuarkusRest() {
            return impls().contains(QUARKUS_REST);
        }
    }

    /**
     * Whether the run measured Cairn against its baselines (the raw SDK, the hand-written service; startup, the
     * in-process scenarios), not only two builds side by side: what the performance page's latest run shows.
     */
    boolean againstBaselines() {
        return comparisons.stream().anyMatch(c -> !c.buildsOnly()) || !startup.isEmpty() || !headlines.isEmpty();
    }

    /**
     * Start to ready and idle RSS of one JVM variant (medians over its starts).
     *
     * @param label the variant's short name on a chart's axis
     */
    record StartupVariant(String name, String label, double startupMs, double rssMb, int starts, boolean handWritten) {
    }

    /** A ratio from a scenario that has its own table (cascade, scaling, sharding, auth, startup). */
    record Headline(String scenario, String what, double ratio) {
    }

    /**
     * One pass of a job (or of the same work by hand) over a fixed set of copies, timed end to end.
     *
     * @param impl  who did the work ({@link #CAIRN}, {@link #RAW_SDK}, or a variant of Cairn named by its setting)
     * @param round the interleaved round; 0 for a pass outside the rounds (not in the ratio)
     */
    record Throughput(String scenario, String title, String impl, int round, long checked, long repaired, double seconds) {
    }

    /**
     * One write of one entity of the features scenario (its feature on; the plain entity's row is the same write off).
     *
     * @param answeredCalls the mean {@code X-DynamoDB-Calls} the app answered for the timed writes
     * @param calls         the calls DynamoDB Local's engine received for the write (the last recorded one)
     * @param operations    those calls in order ({@code GetItem + TransactWriteItems})
     * @param actions       per write call, its actions ({@code 3 (Update, Put, Delete)})
     * @param writeUnits    the write units DynamoDB bills for those actions, by its published rules
     * @param maxItemBytes  the largest item a write action touched, before or after it (DynamoDB's item size)
     * @param localCapacity the capacity DynamoDB Local answered for the write calls (not DynamoDB's bill)
     * @param agreed        every recorded write sent the same, and the app answered as many calls as were received
     * @param roundP50Ms    the p50 of each round, in the order they ran
     */
    record FeatureWrite(String write, String entity, String feature, double answeredCalls, int calls, String operations,
                        String actions, int writeUnits, long maxItemBytes, Double localCapacity, boolean agreed,
                        double p50Ms, double p99Ms, long samples, List<Double> roundP50Ms) {
    }

    /**
     * One contender of the controls scenario on one route and concurrency, all rounds merged.
     *
     * @param contender    {@link Controls#STANDALONE}, {@link Controls#OWN_ROUTE} or a control (the baseline's resource in
     *                     Cairn's process), named by what it switches off
     * @param cpuMsPerOp   the serving process' user + system CPU per request over its measured windows
     * @param roundCpuMsPerOp the same, round by round in the order they ran
     */
    record Control(String route, int concurrency, String contender, String switchedOff, double cpuMsPerOp,
                   List<Double> roundCpuMsPerOp, double opsPerSecond, double p50Ms, long errors) {
    }

    /** Collects a run's data as the scenarios produce it. */
    static final class Builder {
        final List<Comparison> comparisons = new ArrayList<>();
        final List<StartupVariant> startup = new ArrayList<>();
        final List<Headline> headlines = new ArrayList<>();
        final List<Throughput> throughput = new ArrayList<>();
        final List<FeatureWrite> features = new ArrayList<>();
        final List<Control> controls = new ArrayList<>();

        void headline(String scenario, String what, double ratio) {
            headlines.add(new Headline(scenario, what, ratio));
        }

        RunData build(RunInfo run, String tables, String failure) {
            return new RunData(run, List.copyOf(comparisons), List.copyOf(startup), List.copyOf(headlines), tables, failure,
                    List.copyOf(throughput), List.copyOf(features), List.copyOf(controls));
        }
    }
}

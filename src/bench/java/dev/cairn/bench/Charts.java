package dev.cairn.bench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The report's charts, drawn with XChart from a run's data alone (so a published run can be drawn again): grouped
 * bars, one colour per contender in every chart, values written on the bars so no one reads them off an axis.
 */
final class Charts {

    /** One chart as the report links it, and how to draw it. */
    record Image(String file, String caption, Drawing drawing) {
    }

    @FunctionalInterface
    interface Drawing {
        void to(Path file) throws IOException;
    }

    static final int PANEL_WIDTH = 640;
    static final int PANEL_HEIGHT = 420;

    private static final Map<String, Color> COLOURS = Map.of(
            RunData.CAIRN, new Color(0x1f, 0x77, 0xb4),
            RunData.OTHER_BUILD, new Color(0x2c, 0xa0, 0x2c),
            RunData.HAND_WRITTEN, new Color(0xff, 0x7f, 0x0e),
            RunData.QUARKUS_REST, new Color(0x94, 0x67, 0xbd),
            RunData.RAW_SDK, new Color(0x7f, 0x7f, 0x7f));

    private Charts() {
    }

    /** The charts the data allows, in the order the report shows them. */
    static List<Image> images(RunData data) {
        var images = new ArrayList<Image>();
        var routes = data.comparisons().stream().filter(RunData.Comparison::againstHandWritten).toList();
        for (RunData.Comparison route : routes) {
            boolean rest = route.againstQuarkusRest();
            images.add(new Image("get-" + slug(route.route()) + ".png", route.route() + ": throughput and p50 by "
                    + "concurrency, Cairn beside the " + (rest ? "quarkus-rest and Vert.x hand-written services" : "hand-written service")
                    + " and the raw SDK", file -> route(route, file)));
        }
        if (!routes.isEmpty()) {
            boolean rest = routes.stream().anyMatch(RunData.Comparison::againstQuarkusRest);
            images.add(new Image("cpu-per-request.png", "CPU per request (user + system time of the serving process), "
                    + "Cairn beside the " + (rest ? "quarkus-rest and Vert.x hand-written services" : "hand-written service"),
                    file -> cpu(routes, file)));
        }
        var restRoutes = data.comparisons().stream().filter(RunData.Comparison::againstQuarkusRest).toList();
        if (!restRoutes.isEmpty()) {
            images.add(new Image("quarkus-rest-ratios.png", "Cairn / quarkus-rest baseline per GET route: CPU per request, "
                    + "throughput at the highest concurrency, p50 at the lowest; each round, all rounds, and the target",
                    file -> restRatios(restRoutes, file)));
        }
        if (!data.startup().isEmpty()) {
            images.add(new Image("startup.png", "Start to ready and idle RSS: the app's JVM variants and the hand-written "
                    + "service (medians)", file -> startup(data, file)));
        }
        return images;
    }

    /** Draws every chart into {@code dir}. */
    static List<Image> draw(RunData data, Path dir) throws IOException {
        List<Image> images = images(data);
        for (Image image : images) {
            image.drawing().to(dir.resolve(image.file()));
        }
        return images;
    }

    /** Throughput and p50 of one GET route by concurrency, every contender side by side. */
    static void route(RunData.Comparison comparison, Path file) throws IOException {
        CategoryChart throughput = byConcurrency(comparison, comparison.route() + ": throughput (higher is better)", "requests/s",
                RunData.Row::opsPerSecond, "#,##0");
        CategoryChart p50 = byConcurrency(comparison, comparison.route() + ": p50 latency (lower is better)", "p50 (ms)",
                RunData.Row::p50Ms, "0.00");
        save(List.of(throughput, p50), file);
    }

    private static CategoryChart byConcurrency(RunData.Comparison comparison, String title, String yTitle,
                                               Function<RunData.Row, Double> value, String pattern) {
        CategoryChart chart = chart(title, "concurrency (closed-loop clients)", yTitle, pattern);
        List<String> categories = comparison.concurrencies().stream().map(String::valueOf).toList();
        for (String impl : comparison.impls()) {
            var values = new ArrayList<Number>();
            for (int concurrency : comparison.concurrencies()) {
                values.add(comparison.row(concurrency, impl).map(value).orElse(0.0));
            }
            chart.addSeries(impl, categories, values).setFillColor(COLOURS.get(impl));
        }
        return headroom(chart);
    }

    /** CPU per request, Cairn beside the hand-written service: one panel per concurrency, one group per route. */
    static void cpu(List<RunData.Comparison> routes, Path file) throws IOException {
        List<Integer> concurrencies = routes.stream().flatMap(c -> c.concurrencies().stream()).distinct().sorted().toList();
        var panels = new ArrayList<CategoryChart>();
        for (int concurrency : concurrencies) {
            CategoryChart chart = chart("CPU per request at concurrency " + concurrency + " (lower is better)", "GET route",
                    "process CPU per request (ms)", "0.00");
            List<String> categories = routes.stream().map(c -> c.route().replaceFirst("^GET ", "")).toList();
            for (String impl : RunData.IMPLS) {
                if (impl.equals(RunData.RAW_SDK) || routes.stream().noneMatch(c -> c.impls().contains(impl))) {
                    continue; // the raw SDK runs inside the load generator: no process, no CPU of its own
                }
                var values = new ArrayList<Number>();
                for (RunData.Comparison route : routes) {
                    values.add(route.row(concurrency, impl).map(RunData.Row::cpuMsPerOp).orElse(0.0));
                }
                chart.addSeries(impl, categories, values).setFillColor(COLOURS.get(impl));
            }
            panels.add(headroom(chart));
        }
        save(panels, file);
    }

    /**
     * Cairn / quarkus-rest, one panel per target (CPU per request at each concurrency, ops/s at the highest, p50 at the
     * lowest), one group per route: a bar per round, one for all rounds merged, and the target's bound beside them.
     */
    static void restRatios(List<RunData.Comparison> routes, Path file) throws IOException {
        var panels = new ArrayList<CategoryChart>();
        List<Report.Target> targets = Report.targetsOf(routes.get(0));
        List<String> categories = routes.stream().map(c -> c.route().replaceFirst("^GET ", "")).toList();
        int rounds = routes.stream().mapToInt(r -> Report.Ratio.rounds(r, r.concurrencies().get(0), RunData.QUARKUS_REST).size())
                .max().orElse(0);
        for (Report.Target target : targets) {
            CategoryChart chart = chart("Cairn / quarkus-rest: " + target.what() + " at concurrency " + target.concurrency()
                    + " (target " + target.bound() + ")", "GET route", "ratio", "0.00");
            chart.getStyler().setXAxisLabelRotation(0);
            for (int round = 0; round < rounds; round++) {
                var values = new ArrayList<Number>();
                for (RunData.Comparison route : routes) {
                    var ratios = Report.Ratio.rounds(route, target.concurrency(), RunData.QUARKUS_REST);
                    values.add(round < ratios.size() ? finite(target.metric().applyAsDouble(ratios.get(round))) : 0.0);
                }
                int shade = 0xb0 - 0x60 * round / Math.max(1, rounds - 1);
                chart.addSeries("round " + (round + 1), categories, values).setFillColor(new Color(shade, shade, shade));
            }
            var merged = new ArrayList<Number>();
            var bound = new ArrayList<Number>();
            for (RunData.Comparison route : routes) {
                merged.add(finite(target.metric().applyAsDouble(Report.Ratio.of(route, target.concurrency(), RunData.QUARKUS_REST))));
                bound.add(target.limit());
            }
            chart.addSeries("all rounds", categories, merged).setFillColor(COLOURS.get(RunData.CAIRN));
            chart.addSeries("target", categories, bound).setFillColor(new Color(0xd6, 0x27, 0x28));
            panels.add(headroom(chart));
        }
        // Two panels per row: the PNG stays readable with four or five targets.
        int columns = 2;
        int rows = (panels.size() + columns - 1) / columns;
        while (panels.size() < rows * columns) {
            CategoryChart empty = chart(" ", " ", " ", "0.00");
            empty.addSeries(" ", List.of(" "), List.of(0.0));
            panels.add(empty);
        }
        BitmapEncoder.saveBitmap(panels, rows, columns, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static double finite(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? 0.0 : value;
    }

    /** Start to ready and idle RSS of each JVM variant of the app and of the hand-written service. */
    static void startup(RunData data, Path file) throws IOException {
        CategoryChart ready = startupChart(data, "Start to ready (lower is better)", "start to ready (ms)", RunData.StartupVariant::startupMs, "#,##0");
        CategoryChart rss = startupChart(data, "Idle memory, 2 s after ready (lower is better)", "RSS (MB)", RunData.StartupVariant::rssMb, "#,##0");
        save(List.of(ready, rss), file);
    }

    /** Panels side by side in one PNG. */
    private static void save(List<CategoryChart> panels, Path file) throws IOException {
        BitmapEncoder.saveBitmap(panels, 1, panels.size(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static CategoryChart startupChart(RunData data, String title, String yTitle,
                                              Function<RunData.StartupVariant, Double> value, String pattern) {
        CategoryChart chart = chart(title, "JVM variant", yTitle, pattern);
        chart.getStyler().setOverlapped(true).setXAxisLabelRotation(25);
        // Two series over the same categories, each empty where the other has its bar: one colour per process.
        List<String> categories = data.startup().stream().map(RunData.StartupVariant::label).toList();
        var series = new LinkedHashMap<String, List<Number>>();
        series.put("Cairn (packaged app)", new ArrayList<>());
        series.put("hand-written service", new ArrayList<>());
        for (RunData.StartupVariant variant : data.startup()) {
            series.get("Cairn (packaged app)").add(variant.handWritten() ? null : value.apply(variant));
            series.get("hand-written service").add(variant.handWritten() ? value.apply(variant) : null);
        }
        chart.addSeries("Cairn (packaged app)", categories, series.get("Cairn (packaged app)")).setFillColor(COLOURS.get(RunData.CAIRN));
        if (data.startup().stream().anyMatch(RunData.StartupVariant::handWritten)) {
            chart.addSeries("hand-written service", categories, series.get("hand-written service"))
                    .setFillColor(COLOURS.get(RunData.HAND_WRITTEN));
        }
        return headroom(chart);
    }

    /** A tenth of the tallest bar above it, so no bar meets the top of the plot. */
    private static CategoryChart headroom(CategoryChart chart) {
        double max = chart.getSeriesMap().values().stream().flatMap(s -> s.getYData().stream())
                .filter(v -> v != null).mapToDouble(Number::doubleValue).max().orElse(0);
        if (max > 0) {
            chart.getStyler().setYAxisMax(max * 1.1);
        }
        return chart;
    }

    private static CategoryChart chart(String title, String xTitle, String yTitle, String pattern) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        var styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE).setPlotBackgroundColor(Color.WHITE).setPlotBorderVisible(false)
                .setChartTitleBoxVisible(false).setLegendPosition(Styler.LegendPosition.OutsideS)
                .setLegendLayout(Styler.LegendLayout.Horizontal).setLegendBorderColor(Color.WHITE)
                .setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15)).setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13))
                .setDecimalPattern(pattern).setAntiAlias(true);
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13)).setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12))
                .setYAxisMin(0.0).setPlotGridVerticalLinesVisible(false);
        // Values inside the top of each bar, light on dark bars and dark on light ones.
        styler.setLabelsVisible(true).setLabelsFont(new Font(Font.SANS_SERIF, Font.BOLD, 11))
                .setLabelsFontColorAutomaticEnabled(true).setLabelsPosition(0.97).setAvailableSpaceFill(0.8);
        return chart;
    }

    /** "GET /workspaces/{id}/projects" → "workspaces-projects": a file name from a route. */
    static String slug(String route) {
        return route.replaceFirst("^[A-Z]+ ", "").replaceAll("\\{[^}]*}", "").replaceAll("[^A-Za-z0-9]+", "-")
                .replaceAll("^-|-$", "").toLowerCase(Locale.ROOT);
    }
}

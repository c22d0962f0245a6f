package io.keyranger.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Wall time against entity count, one line per strategy, on log-log axes, from bench runs of one shape at several
 * sizes: a line of slope 1 is linear growth (O(n)); adaptive's should run parallel to the oracle's, far below linear.
 */
public final class ScalingChart {
    private static final int WIDTH = 760;
    private static final int HEIGHT = 460;
    private static final int LEFT = 80;
    private static final int RIGHT = 150;
    private static final int TOP = 56;
    private static final int BOTTOM = 50;
    private static final String[] COLOURS = {"#1f6fb2", "#90a4ae", "#2e7d32", "#ef6c00", "#6a1b9a", "#5d4037"};

    private ScalingChart() {
    }

    public static String svg(String title, List<BenchJson.Run> runs) {
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        for (BenchJson.Run run : runs) {
            // a strategy's point is the median of its timed runs at that size
            for (BenchResult r : BenchSummary.medianRows(run.timed())) {
                lines.computeIfAbsent(r.strategy(), s -> new ArrayList<>())
                        .add(new double[] {run.settings().entities(), r.wallMillis() / 1000.0, r.extrapolated() ? 1 : 0});
            }
        }
        return svg(title, "hollow points extrapolated", lines, null, List.of());
    }

    /**
     * The chart of {@code lines}, each strategy's points {entities, seconds, 1 if hollow else 0} in order of entities,
     * with a dashed {@code reference} curve (points {entities, seconds}) labelled {@code referenceLabel} when given.
     */
    public static String svg(String title, String note, Map<String, List<double[]>> lines, String referenceLabel,
                             List<double[]> reference) {
        double minX = Double.MAX_VALUE;
        double maxX = 0;
        double minY = Double.MAX_VALUE;
        double maxY = 0;
        List<List<double[]>> all = new ArrayList<>(lines.values());
        all.add(reference);
        for (List<double[]> points : all) {
            for (double[] p : points) {
                minX = Math.min(minX, p[0]);
                maxX = Math.max(maxX, p[0]);
                minY = Math.min(minY, p[1]);
                maxY = Math.max(maxY, p[1]);
            }
        }
        double x0 = Math.floor(Math.log10(minX));
        double x1 = Math.max(x0 + 1, Math.ceil(Math.log10(maxX)));
        double y0 = Math.floor(Math.log10(Math.max(minY, 0.01)));
        double y1 = Math.max(y0 + 1, Math.ceil(Math.log10(maxY)));
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                title.replace("&", "&amp;").replace("<", "&lt;")));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"42\" fill=\"#555555\">wall seconds against entities, "
                + "both logarithmic; %s</text>%n", note));
        for (double d = x0; d <= x1; d++) {
            double x = LEFT + (d - x0) / (x1 - x0) * plotW;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%,.0f</text>%n", x, TOP, x, TOP + plotH, x,
                    TOP + plotH + 18, Math.pow(10, d)));
        }
        for (double d = y0; d <= y1; d++) {
            double y = TOP + plotH - (d - y0) / (y1 - y0) * plotH;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s s</text>%n", LEFT, y, LEFT + plotW, y, LEFT - 6,
                    y + 4, Math.pow(10, d) >= 1 ? String.format(Locale.ROOT, "%,.0f", Math.pow(10, d))
                            : String.format(Locale.ROOT, "%.2f", Math.pow(10, d))));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">entities</text>%n",
                LEFT + plotW / 2, HEIGHT - 8));
        // a point {entities, seconds} on the log-log plot
        ToDoubleFunction<double[]> px = p -> LEFT + (Math.log10(p[0]) - x0) / (x1 - x0) * plotW;
        ToDoubleFunction<double[]> py = p -> TOP + plotH
                - (Math.log10(Math.max(p[1], 0.01)) - y0) / (y1 - y0) * plotH;
        int i = 0;
        for (Map.Entry<String, List<double[]>> line : lines.entrySet()) {
            String colour = COLOURS[i++ % COLOURS.length];
            StringBuilder path = new StringBuilder();
            double lastX = 0;
            double lastY = 0;
            for (double[] p : line.getValue()) {
                double x = px.applyAsDouble(p);
                double y = py.applyAsDouble(p);
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
                        + "stroke=\"%s\" stroke-width=\"2\"/>%n", x, y, p[2] > 0 ? "#ffffff" : colour, colour));
                lastX = x;
                lastY = y;
            }
            svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    path, colour));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>%n", lastX + 8,
                    lastY + 4, colour, line.getKey()));
        }
        if (!reference.isEmpty()) {
            StringBuilder path = new StringBuilder();
            double[] last = reference.get(reference.size() - 1);
            for (double[] p : reference) {
                path.append(path.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f",
                        px.applyAsDouble(p), py.applyAsDouble(p)));
            }
            svg.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"#000000\" "
                    + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>%n", path));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>%n",
                    px.applyAsDouble(last) + 8, py.applyAsDouble(last) + 4,
                    referenceLabel.replace("&", "&amp;").replace("<", "&lt;")));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }
}

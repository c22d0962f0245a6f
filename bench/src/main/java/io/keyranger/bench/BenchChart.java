package io.keyranger.bench;

import java.util.List;
import java.util.Locale;

/** Draws a benchmark run as an SVG bar chart of entities per second, one bar a strategy, with its ratio to linear. */
public final class BenchChart {
    private static final int WIDTH = 760;
    private static final int LABEL = 170;
    private static final int BAR = 26;
    private static final int GAP = 12;
    private static final int TOP = 52;

    private BenchChart() {
    }

    public static String svg(String title, List<BenchResult> results) {
        double max = results.stream().mapToDouble(BenchResult::entitiesPerSecond).max().orElse(1);
        double linear = results.stream().filter(r -> r.strategy().equals("linear"))
                .mapToDouble(BenchResult::entitiesPerSecond).findFirst().orElse(Double.NaN);
        int height = TOP + results.size() * (BAR + GAP) + 30;
        int plot = WIDTH - LABEL - 150;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"13\">%n",
                WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"24\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"12\" y=\"42\" fill=\"#555555\">entities per second "
                + "(longer is faster); ~ extrapolated; red: not verified</text>%n"));
        for (int i = 0; i < results.size(); i++) {
            BenchResult r = results.get(i);
            int y = TOP + i * (BAR + GAP);
            int length = (int) Math.max(1, Math.round(plot * r.entitiesPerSecond() / max));
            String colour = !r.verified() ? "#d32f2f" : r.strategy().equals("adaptive") ? "#1f6fb2" : "#90a4ae";
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LABEL - 8, y + BAR - 8, escape(r.strategy())));
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\" "
                    + "fill=\"%s\"/>%n", LABEL, y, length, BAR, colour));
            String ratio = Double.isNaN(linear) ? "" : String.format(Locale.ROOT, "  (%.2fx linear)",
                    r.entitiesPerSecond() / linear);
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s%,.0f/s%s</text>%n", LABEL + length + 6,
                    y + BAR - 8, r.extrapolated() ? "~" : "", r.entitiesPerSecond(), ratio));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

package io.keyranger.ui.run;

import java.util.List;
import java.util.Map;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Run tab's clock: entities read per second, one point a second, the elapsed time and an ETA when the kind's
 * size is known. Fed from the FX thread's ticks.
 */
final class ThroughputMeter {
    private static final List<String> MAIN_FIELDS = List.of("read", "written", "deleted", "skipped", "failed");

    private final ObservableList<ThroughputPoint> points = FXCollections.observableArrayList();
    private long startNanos;
    private long lastTickNanos;
    private long lastRead = -1;

    /** Starts the clock (again), keeping the points drawn so far. */
    void restart() {
        startNanos = System.nanoTime();
        lastTickNanos = startNanos;
        lastRead = -1;
    }

    ObservableList<ThroughputPoint> points() {
        return points;
    }

    /**
     * Records a tick: a new point once a second while {@code measuring}. Returns the timing line: "elapsed 12.3 s", with
     * " · ETA 40 s" when {@code known} (the kind's size, -1 if unknown) says how much is left while {@code running}.
     */
    String tick(long read, boolean measuring, long known, boolean running) {
        long now = System.nanoTime();
        double elapsed = (now - startNanos) / 1e9;
        if (measuring && (now - lastTickNanos >= 1_000_000_000L || lastRead < 0)) {
            if (lastRead >= 0) {
                points.add(new ThroughputPoint(elapsed, (read - lastRead) / ((now - lastTickNanos) / 1e9)));
            }
            lastRead = read;
            lastTickNanos = now;
        }
        String text = String.format("elapsed %.1f s", elapsed);
        if (known > 0 && read > 0 && read < known && running) {
            text += String.format(" · ETA %.0f s", (known - read) / (read / elapsed));
        }
        return text;
    }

    /** "read 120   written 0   …", the main fields first, then the mapper's counters in order. */
    static String describeTotals(Map<String, Long> totals) {
        StringBuilder out = new StringBuilder();
        for (String field : MAIN_FIELDS) {
            out.append(String.format("%s %,d   ", field, totals.getOrDefault(field, 0L)));
        }
        totals.keySet().stream().filter(k -> !MAIN_FIELDS.contains(k)).sorted()
                .forEach(k -> out.append(String.format("%s %,d   ", k, totals.get(k))));
        return out.toString().trim();
    }
}

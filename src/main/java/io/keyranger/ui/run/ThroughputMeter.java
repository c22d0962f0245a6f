package io.keyranger.ui.run;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Run tab's clock: entities read per second, one point a second, the elapsed time and an ETA when the kind's
 * size is known. Fed from the FX thread's ticks.
 */
final class ThroughputMeter {
    private static final List<String> MAIN_FIELDS = List.of("read", "written", "deleted", "skipped", "failed");
    /** The ETA's rate is that of the last this many nanoseconds of running, never of a window with a pause in it. */
    static final long RATE_WINDOW_NANOS = 10_000_000_000L;
    /** Running time after a start or a resume before an ETA is given. */
    static final long MIN_RATE_NANOS = 2_000_000_000L;

    private final ObservableList<ThroughputPoint> points = FXCollections.observableArrayList();
    /** Reads at recent ticks since the last start or resume: {nanos, read}. */
    private final ArrayDeque<long[]> recent = new ArrayDeque<>();
    private long startNanos;
    private long lastTickNanos;
    private long lastRead = -1;
    private long pausedAt = -1;
    private long pausedNanos;

    /** Starts the clock (again), keeping the points drawn so far. */
    void restart() {
        restart(System.nanoTime());
    }

    void restart(long now) {
        startNanos = now;
        lastTickNanos = now;
        lastRead = -1;
        pausedAt = -1;
        pausedNanos = 0;
        recent.clear();
    }

    /** Stops the clock: a paused job's elapsed time and rate stand still. */
    void pause(long now) {
        if (pausedAt < 0) {
            pausedAt = now;
        }
    }

    /** Starts the clock again after a pause; the rate is measured afresh. */
    void resume(long now) {
        if (pausedAt >= 0) {
            pausedNanos += now - pausedAt;
            pausedAt = -1;
            lastTickNanos = now;
            lastRead = -1;
            recent.clear();
        }
    }

    ObservableList<ThroughputPoint> points() {
        return points;
    }

    String tick(long read, boolean measuring, long known, boolean running) {
        return tick(System.nanoTime(), read, measuring, known, running);
    }

    /**
     * Records a tick: a new point once a second while {@code measuring}. Returns the timing line: "elapsed 12.3 s"
     * (running time, pauses left out), "paused · elapsed 12.3 s" while paused, with " · ETA 40 s" when {@code known}
     * (the kind's size, -1 if unknown) says how much is left while {@code running}, at the rate of the last seconds.
     */
    String tick(long now, long read, boolean measuring, long known, boolean running) {
        if (pausedAt >= 0) {
            return String.format("paused · elapsed %.1f s", (pausedAt - startNanos - pausedNanos) / 1e9);
        }
        double elapsed = (now - startNanos - pausedNanos) / 1e9;
        if (measuring && (now - lastTickNanos >= 1_000_000_000L || lastRead < 0)) {
            if (lastRead >= 0) {
                points.add(new ThroughputPoint(elapsed, (read - lastRead) / ((now - lastTickNanos) / 1e9)));
            }
            lastRead = read;
            lastTickNanos = now;
        }
        if (measuring) {
            recent.addLast(new long[] {now, read});
            while (now - recent.peekFirst()[0] > RATE_WINDOW_NANOS) {
                recent.removeFirst();
            }
        }
        String text = String.format("elapsed %.1f s", elapsed);
        long[] first = recent.peekFirst();
        if (known > 0 && read < known && running && first != null && now - first[0] >= MIN_RATE_NANOS
                && read > first[1]) {
            double rate = (read - first[1]) / ((now - first[0]) / 1e9);
            text += String.format(" · ETA %.0f s", (known - read) / rate);
        }
        return text;
    }

    /**
     * The x axis of the throughput chart: from 0 to a round number of seconds at or past {@code seconds}, with at most
     * ten ticks of 1, 2, 5, 10, 15, 30 or 60 seconds (or more minutes), so tick labels are short and never run
     * together, however long the job.
     *
     * @return {upper bound, tick unit}
     */
    static double[] axis(double seconds) {
        double[] units = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600};
        double span = Math.max(10, seconds);
        for (double unit : units) {
            if (span / unit <= 10) {
                return new double[] {Math.ceil(span / unit) * unit, unit};
            }
        }
        double unit = Math.ceil(span / 10 / 3600) * 3600;
        return new double[] {Math.ceil(span / unit) * unit, unit};
    }

    /**
     * "read 120   written 0   deleted 0" and "skipped 0   failed 0" on two lines of their own (a narrow panel never
     * leaves one count alone on a line), then the mapper's counters in order.
     */
    static String describeTotals(Map<String, Long> totals) {
        Function<String, String> count = field -> String.format("%s %,d", field,
                totals.getOrDefault(field, 0L));
        List<String> lines = new ArrayList<>();
        lines.add(String.join("   ", MAIN_FIELDS.subList(0, 3).stream().map(count).toList()));
        lines.add(String.join("   ", MAIN_FIELDS.subList(3, 5).stream().map(count).toList()));
        List<String> own = totals.keySet().stream().filter(k -> !MAIN_FIELDS.contains(k)).sorted().map(count).toList();
        if (!own.isEmpty()) {
            lines.add(String.join("   ", own));
        }
        return String.join("\n", lines);
    }
}

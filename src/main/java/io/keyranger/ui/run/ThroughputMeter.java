package io.keyranger.ui.run;

import io.keyranger.summary.JobClock;
import io.keyranger.summary.JobOutcome;
import io.keyranger.summary.JobProgress;
import io.keyranger.job.RunThroughput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Run tab's clock: the job's {@link JobClock} (elapsed time, rate and ETA, as every progress display has them),
 * fed from the FX thread's ticks; and the throughput chart's points, entities read per second, as the run itself
 * samples them ({@link io.keyranger.job.ThroughputSampler}): the points its end stores and Inspect draws again.
 */
final class ThroughputMeter {
    private static final List<String> MAIN_FIELDS = JobOutcome.MAIN_COUNTERS;

    private final ObservableList<ThroughputPoint> points = FXCollections.observableArrayList();
    private final JobClock clock = new JobClock(0);

    /** Starts the clock afresh, with no points: a job starts. */
    void restart() {
        restart(System.nanoTime());
    }

    void restart(long now) {
        clear();
        clock.start(now);
    }

    /** Forgets the points: the chart shows no job, or a stored one's own points. */
    void clear() {
        points.clear();
    }

    /** Stops the clock: a paused job's elapsed time and rate stand still. */
    void pause(long now) {
        clock.pause(now);
    }

    /** Starts the clock again after a pause; the rate is measured afresh. */
    void resume(long now) {
        if (clock.isPaused()) {
            clock.resume(now);
        }
    }

    /** The job was asked to stop: no ETA from now on. */
    void stopping(long now) {
        clock.stopping(now);
    }

    ObservableList<ThroughputPoint> points() {
        return points;
    }

    String tick(long read, boolean measuring, long known, boolean running) {
        return tick(System.nanoTime(), read, measuring, known, running);
    }

    /**
     * Records a tick while {@code measuring}: what has been read by now. Returns the timing line
     * ({@link JobWords#timing(JobProgress)}) of the clock's {@link JobProgress}, with an ETA when {@code known} (the
     * kind's size, -1 if unknown) says how much is left while {@code running}.
     */
    String tick(long now, long read, boolean measuring, long known, boolean running) {
        if (measuring && !clock.isPaused()) {
            clock.sample(now, read);
        }
        return JobWords.timing(clock.progress(now, Map.of("read", read), JobProgress.Ranges.NONE,
                running ? known : -1));
    }

    /**
     * Shows {@code drawn}, the run's chart so far, changing only the points that changed: as the job goes on, its last
     * point grows or a new one comes; the spans widen (and every point changes) only every
     * {@link RunThroughput#MAX_POINTS} seconds.
     */
    void show(List<RunThroughput.Point> drawn) {
        for (int i = 0; i < drawn.size(); i++) {
            ThroughputPoint point = new ThroughputPoint(drawn.get(i).seconds(), drawn.get(i).rate());
            if (i >= points.size()) {
                points.add(point);
            } else if (!points.get(i).equals(point)) {
                points.set(i, point);
            }
        }
        if (points.size() > drawn.size()) {
            points.remove(drawn.size(), points.size());
        }
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
     * leaves one count alone on a line), then the mapper's counters in order, one a line (a restore's four side by
     * side are wider than the panel, and the lines never wrap: a word and its number stay together).
     */
    static String describeTotals(Map<String, Long> totals) {
        Function<String, String> count = field -> String.format("%s %,d", field,
                totals.getOrDefault(field, 0L));
        List<String> lines = new ArrayList<>();
        lines.add(String.join("   ", MAIN_FIELDS.subList(0, 3).stream().map(count).toList()));
        lines.add(String.join("   ", MAIN_FIELDS.subList(3, 5).stream().map(count).toList()));
        List<String> own = totals.keySet().stream().filter(k -> !MAIN_FIELDS.contains(k)).sorted().map(count).toList();
        if (!own.isEmpty()) {
            lines.addAll(own);
        }
        return String.join("\n", lines);
    }
}

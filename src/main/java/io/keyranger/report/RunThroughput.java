package io.keyranger.report;

import io.keyranger.job.NodeSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A stored job's throughput over its last run, drawn afterwards from its ranges' own records: each range's entities
 * spread evenly over the time it ran, summed second by second from the run's start to its end (a run longer than
 * {@link #MAX_POINTS} seconds, over spans of as many whole seconds as keep it to that many points). It covers the whole
 * run its summary times, and its entities (each rate times its span) add up to those its ranges read in it.
 */
public final class RunThroughput {
    /** The most points a run gives: a chart of a ten-hour run draws a few hundred, not 36,000. */
    public static final int MAX_POINTS = 300;

    private RunThroughput() {
    }

    /**
     * Entities read per second over a span of the run, at the span's end.
     *
     * @param seconds running time at the end of the span (the last one may be shorter)
     * @param rate    entities read per second during it
     */
    public record Point(double seconds, double rate) {
    }

    /**
     * The points of the run that ended at {@code finished} after {@code wallMillis}, from {@code nodes}, one a second
     * or at most {@link #MAX_POINTS}; none when the run's end is not known. A range that started before the run (a
     * resumed one) counts only its time in it.
     */
    public static List<Point> of(List<NodeSnapshot> nodes, Instant finished, long wallMillis) {
        if (finished == null || wallMillis <= 0) {
            return List.of();
        }
        long end = finished.toEpochMilli();
        long start = end - wallMillis;
        long seconds = (wallMillis + 999) / 1000;
        long span = 1000 * ((seconds + MAX_POINTS - 1) / MAX_POINTS);
        double[] read = new double[(int) ((wallMillis + span - 1) / span)];
        for (NodeSnapshot node : nodes) {
            if (node.entities() == 0 || node.finishedAt() == null || node.finishedAt().toEpochMilli() < start) {
                continue;
            }
            long to = node.finishedAt().toEpochMilli();
            long from = node.startedAt() == null ? to : Math.min(to, node.startedAt().toEpochMilli());
            spread(read, span, node.entities(), from - start, to - start);
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < read.length; i++) {
            double length = Math.min(span, wallMillis - i * span) / 1000.0;
            points.add(new Point(i * span / 1000.0 + length, read[i] / length));
        }
        return points;
    }

    /**
     * Adds {@code entities} evenly over the time between {@code from} and {@code to} (milliseconds into the run; a
     * range may have started before it), to the run's spans of {@code span} milliseconds that time falls in.
     */
    private static void spread(double[] read, long span, long entities, long from, long to) {
        int last = read.length - 1;
        if (to <= from) {
            read[(int) Math.max(0, Math.min(last, from / span))] += entities;
            return;
        }
        for (long i = Math.max(0, from / span); i <= Math.min(last, (to - 1) / span); i++) {
            long overlap = Math.min(to, (i + 1) * span) - Math.max(from, i * span);
            read[(int) i] += entities * (double) overlap / (to - from);
        }
    }
}

package io.keyranger.report;

import io.keyranger.job.NodeSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A stored job's throughput over its last run, drawn afterwards from its ranges' own records: each range's entities
 * spread evenly over the time it ran, summed second by second from the run's start to its end. It covers the whole
 * run its summary times, and its entities add up to those its ranges read in it.
 */
public final class RunThroughput {
    private RunThroughput() {
    }

    /**
     * Entities read per second at the end of each second of the run.
     *
     * @param seconds running time at the end of the second (the last one may be shorter)
     * @param rate    entities read per second during it
     */
    public record Point(double seconds, double rate) {
    }

    /**
     * The points of the run that ended at {@code finished} after {@code wallMillis}, from {@code nodes}; none when
     * the run's end is not known. A range that started before the run (a resumed one) counts only its time in it.
     */
    public static List<Point> of(List<NodeSnapshot> nodes, Instant finished, long wallMillis) {
        if (finished == null || wallMillis <= 0) {
            return List.of();
        }
        long end = finished.toEpochMilli();
        long start = end - wallMillis;
        double[] read = new double[(int) ((wallMillis + 999) / 1000)];
        for (NodeSnapshot node : nodes) {
            if (node.entities() == 0 || node.finishedAt() == null || node.finishedAt().toEpochMilli() < start) {
                continue;
            }
            long to = node.finishedAt().toEpochMilli();
            long from = node.startedAt() == null ? to : Math.min(to, node.startedAt().toEpochMilli());
            spread(read, node.entities(), from - start, to - start);
        }
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < read.length; i++) {
            double length = Math.min(1000, wallMillis - i * 1000L) / 1000.0;
            points.add(new Point(i + length, read[i] / length));
        }
        return points;
    }

    /**
     * Adds {@code entities} evenly over the time between {@code from} and {@code to} (milliseconds into the run; a
     * range may have started before it), to the run's seconds that time falls in.
     */
    private static void spread(double[] read, long entities, long from, long to) {
        int last = read.length - 1;
        if (to <= from) {
            read[(int) Math.max(0, Math.min(last, from / 1000))] += entities;
            return;
        }
        for (long second = Math.max(0, from / 1000); second <= Math.min(last, (to - 1) / 1000); second++) {
            long overlap = Math.min(to, (second + 1) * 1000) - Math.max(from, second * 1000);
            read[(int) second] += entities * (double) overlap / (to - from);
        }
    }
}

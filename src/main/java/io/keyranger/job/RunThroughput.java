package io.keyranger.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A run's throughput: entities read per second over its spans, from what was read when. A stored job's last run is
 * drawn afterwards from its ranges' own records ({@link #of}): each range's entities spread evenly over the time it ran,
 * summed second by second from the run's start to its end; the Run tab's live chart adds what was read between its
 * ticks as the run goes ({@link #add}). A run longer than {@link #MAX_POINTS} seconds is drawn over spans of as many
 * whole seconds as keep it to that many points. It covers the whole run its summary times, and its entities (each
 * rate times its span) add up to those read in it.
 */
public final class RunThroughput {
    /** The most points a run gives: a chart of a ten-hour run draws a few hundred, not 36,000. */
    public static final int MAX_POINTS = 300;

    /** Milliseconds a bucket of {@link #read} covers: whole seconds. */
    private final long unit;
    /** Entities read in each bucket of the run, from its start. */
    private double[] read;
    /** How long the run has lasted (so far). */
    private long wallMillis;

    /**
     * A run going on (the live chart): buckets of a second, kept as the run grows, so that its spans can be chosen
     * afresh as it lengthens.
     */
    public RunThroughput() {
        this(1000, new double[64], 0);
    }

    private RunThroughput(long unit, double[] read, long wallMillis) {
        this.unit = unit;
        this.read = read;
        this.wallMillis = wallMillis;
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
     * The points of the run that ended at {@code finished} after {@code wallMillis} of running, from {@code nodes},
     * one a second or at most {@link #MAX_POINTS}; none when the run's end is not known. The run began that long
     * before its end plus its {@code pauses}, which the chart leaves out as the running time does: a range that read
     * across a pause spreads its entities over its time running. A range that started before the run (a resumed one)
     * counts only its time in it.
     */
    public static List<Point> of(List<NodeSnapshot> nodes, Instant finished, long wallMillis, List<Pause> pauses) {
        if (finished == null || wallMillis <= 0) {
            return List.of();
        }
        long end = finished.toEpochMilli();
        long paused = pauses.stream().mapToLong(p -> Math.max(0, p.to().toEpochMilli() - p.from().toEpochMilli()))
                .sum();
        long start = end - wallMillis - paused;
        long span = span(wallMillis);
        // its length is known: buckets of its spans from the start, not one a second
        RunThroughput run = new RunThroughput(span, new double[(int) ((wallMillis + span - 1) / span)], wallMillis);
        for (NodeSnapshot node : nodes) {
            if (node.entities() == 0 || node.finishedAt() == null || node.finishedAt().toEpochMilli() < start) {
                continue;
            }
            long to = node.finishedAt().toEpochMilli();
            long from = node.startedAt() == null ? to : Math.min(to, node.startedAt().toEpochMilli());
            run.spread(node.entities(), running(from, start, pauses), running(to, start, pauses));
        }
        return run.points();
    }

    /** How long the run had been running at {@code clock} (epoch milliseconds): its pauses before then left out. */
    private static long running(long clock, long start, List<Pause> pauses) {
        long running = clock - start;
        for (Pause pause : pauses) {
            long from = Math.max(start, pause.from().toEpochMilli());
            long to = Math.min(clock, pause.to().toEpochMilli());
            running -= Math.max(0, to - from);
        }
        return running;
    }

    /** The span of each point of a run of {@code wallMillis}: a second, or as many as keep it to MAX_POINTS. */
    private static long span(long wallMillis) {
        long seconds = (wallMillis + 999) / 1000;
        return 1000 * ((seconds + MAX_POINTS - 1) / MAX_POINTS);
    }

    /**
     * Adds {@code entities} read evenly between {@code from} and {@code to} (milliseconds into the run) to a run going
     * on, which has lasted until {@code to} at least.
     */
    public void add(long entities, long from, long to) {
        wallMillis = Math.max(wallMillis, to);
        int buckets = (int) ((wallMillis + unit - 1) / unit);
        if (buckets > read.length) {
            read = Arrays.copyOf(read, Math.max(buckets, 2 * read.length));
        }
        spread(entities, from, to);
    }

    /** The run's points so far: one a second, or at most {@link #MAX_POINTS} over spans of whole seconds. */
    public List<Point> points() {
        if (wallMillis <= 0) {
            return List.of();
        }
        long span = Math.max(unit, span(wallMillis)); // a multiple of the unit: whole seconds either way
        long perSpan = span / unit;
        int buckets = (int) ((wallMillis + unit - 1) / unit);
        List<Point> points = new ArrayList<>();
        for (long i = 0; i * span < wallMillis; i++) {
            double entities = 0;
            for (long b = i * perSpan; b < Math.min(buckets, (i + 1) * perSpan); b++) {
                entities += read[(int) b];
            }
            double length = Math.min(span, wallMillis - i * span) / 1000.0;
            points.add(new Point(i * span / 1000.0 + length, entities / length));
        }
        return points;
    }

    /**
     * Adds {@code entities} evenly over the time between {@code from} and {@code to} (milliseconds into the run; a
     * range may have started before it), to the buckets that time falls in.
     */
    private void spread(long entities, long from, long to) {
        int last = (int) ((wallMillis + unit - 1) / unit) - 1;
        if (to <= from) {
            read[(int) Math.max(0, Math.min(last, from / unit))] += entities;
            return;
        }
        for (long i = Math.max(0, from / unit); i <= Math.min(last, (to - 1) / unit); i++) {
            long overlap = Math.min(to, (i + 1) * unit) - Math.max(from, i * unit);
            read[(int) i] += entities * (double) overlap / (to - from);
        }
    }
}

package io.keyranger.summary;

import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A running job at one moment, as every progress display shows it (the command line's progress line, the Run tab's
 * timing): its in-memory totals, its ranges, the running time from its {@link JobClock}, the recent rate and, only
 * while it runs on (not paused, not stopping), the time left. Printers only lay these out.
 *
 * @param totals         in-memory running totals (read, written, …)
 * @param ranges         the live tree's ranges
 * @param phase          whether it runs, is paused, or is stopping
 * @param elapsedNanos   running time: from the start, pauses left out
 * @param rate           entities read a second over the last seconds of running, or NaN while not yet measured
 * @param etaSeconds     seconds left at that rate, when the whole is known and the job runs on; empty otherwise
 */
public record JobProgress(Map<String, Long> totals, Ranges ranges, Phase phase, long elapsedNanos, double rate,
                          OptionalDouble etaSeconds) {
    /** Where a running job is: running on, held by a pause, or stopping (no page starts; commits under way end). */
    public enum Phase { RUNNING, PAUSED, STOPPING }

    public JobProgress {
        totals = Map.copyOf(totals);
        if (phase != Phase.RUNNING && etaSeconds.isPresent()) {
            throw new IllegalArgumentException("A " + phase + " job has no ETA");
        }
    }

    /**
     * A job's ranges, live or as stored: how many, where they are, and how deep the tree goes.
     *
     * @param count   ranges in the tree
     * @param running of them, those running now
     * @param done    those read to the end
     * @param split   those split into others
     * @param failed  those that failed
     * @param depth   the deepest one
     */
    public record Ranges(int count, int running, int done, int split, int failed, int depth) {
        /** No tree shown: a display that does not count ranges. */
        public static final Ranges NONE = new Ranges(0, 0, 0, 0, 0, 0);

        /** The counts of the latest snapshot of each node. */
        public static Ranges of(Collection<NodeSnapshot> nodes) {
            Map<NodeStatus, Integer> by = new EnumMap<>(NodeStatus.class);
            nodes.forEach(n -> by.merge(n.status(), 1, Integer::sum));
            int depth = nodes.stream().mapToInt(NodeSnapshot::depth).max().orElse(0);
            return new Ranges(nodes.size(), by.getOrDefault(NodeStatus.RUNNING, 0),
                    by.getOrDefault(NodeStatus.DONE, 0), by.getOrDefault(NodeStatus.SPLIT, 0),
                    by.getOrDefault(NodeStatus.FAILED, 0), depth);
        }

        /** Those neither done, split nor failed: still to run, or running. */
        public int toGo() {
            return count - done - split - failed;
        }
    }

    public long total(String counter) {
        return totals.getOrDefault(counter, 0L);
    }

    public double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    public boolean paused() {
        return phase == Phase.PAUSED;
    }
}

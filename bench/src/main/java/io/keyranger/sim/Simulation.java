package io.keyranger.sim;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.Chunker;
import io.keyranger.executor.local.Calibration;
import io.keyranger.executor.local.ServerGauge;
import io.keyranger.executor.local.SplitPoints;
import io.keyranger.executor.local.SplitPolicy;
import io.keyranger.executor.range.ProbeMemory;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeyRangeTracker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * The local executor's job on a virtual clock, with no server: the strategies of {@code keyranger-bench bench} (the
 * same planner, cell plan, split policy, split points and range tracker, the classes the executor runs) over a
 * {@link KeySpace} of any size, each call to the server a draw of the {@link SimServer}'s latency. A worker pool of
 * the job's size takes ranges in the order they are queued; a range reads a page of keys (one call), commits it in
 * chunks (three calls each: begin, lookup, commit), moves past its last key and asks the policy whether to split,
 * exactly as {@code RangeWorker} does. Fixed costs around the job are the executor's sequential calls, counted in its
 * code: {@link #SETUP_CALLS} before the first range and {@link #END_CALLS} after the last.
 */
public final class Simulation {
    /**
     * Before the ranges: the job, its plan, its counter and its lease created in a transaction (begin, its read of the
     * job, commit). The plan's calls are made beside the first two, and beside them {@link Calibration#QUERIES}
     * queries one after another (the simulated server answers many at once, as production does); the commit once the
     * plan is made; the ranges wait for the commit and the calibration.
     */
    public static final int SETUP_CALLS = 3;
    /** After the last range: the end recorded in a transaction, the totals and the ledgers read. */
    public static final int END_CALLS = 3 + 1 + 1;
    /** A chunk's transaction: begin, one lookup (ledgers, counter shard, entities), commit. */
    public static final int CALLS_PER_CHUNK = 3;

    /**
     * The job and the server.
     *
     * @param workers          the concurrency cap
     * @param pageSize         keys per page
     * @param medianMs         median latency of a call
     * @param p99Ms            99th percentile latency
     * @param capacity         calls the server serves at once, 0 for no limit
     * @param cores            processors the client and server share, 0 for no limit
     * @param cpuMicrosPerCall CPU each call takes on them, client and server together
     * @param seed             seeds the latency draws and the scatter sample
     */
    public record Settings(int workers, int pageSize, double medianMs, double p99Ms, int capacity, int cores,
                           double cpuMicrosPerCall, long seed) {
    }

    private Simulation() {
    }

    /** Runs {@code strategy}'s job over {@code space}. */
    public static SimResult run(KeySpace space, SimStrategy strategy, Settings settings) {
        return run(space, strategy, settings, null);
    }

    /** As above, with {@code policy} in place of the strategy's split policy (null: its own), to try one out. */
    public static SimResult run(KeySpace space, SimStrategy strategy, Settings settings, SplitPolicy policy) {
        return new Run(space, strategy, settings, policy).run();
    }

    /** A range being worked on: its tracker (the executor's), where it reads next, and where its keys end. */
    private static final class Node {
        final int depth;
        final KeyRangeTracker tracker;
        final ProbeMemory memory = new ProbeMemory();
        long cursor;
        long end;
        Key lastKey;
        /** Keys its next page reads: the job's page, or more where the policy widens it. */
        int page;

        Node(int depth, KeyRange range, int page) {
            this.depth = depth;
            this.tracker = new KeyRangeTracker(range);
            this.page = page;
        }
    }

    private record Event(long time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private static final class Run {
        private static final KeyOrder ORDER = KeyOrder.PRODUCTION;
        private final KeySpace space;
        private final SimStrategy strategy;
        private final Settings settings;
        private final SimServer server;
        private final SplittableRandom random;
        private final PriorityQueue<Event> events = new PriorityQueue<>();
        private final ArrayDeque<Node> queue = new ArrayDeque<>();
        private final ServerGauge gauge = new ServerGauge();
        private final int workers;
        private final int chunkKeys;
        private final long threshold;
        private SplitPolicy policy;
        private SplitPoints splitPoints;
        private long seq;
        private int active;
        private long processed;
        private long tailStart = -1;
        private long splits;
        private long ranges;
        private int maxDepth;
        private long end = -1;

        private final SplitPolicy override;

        Run(KeySpace space, SimStrategy strategy, Settings settings, SplitPolicy override) {
            this.override = override;
            this.space = space;
            this.strategy = strategy;
            this.settings = settings;
            this.server = new SimServer(settings.medianMs(), settings.p99Ms(), settings.capacity(), settings.cores(),
                    settings.cpuMicrosPerCall(), settings.seed());
            this.random = new SplittableRandom(settings.seed() ^ 0x5ca77e5L);
            this.workers = strategy == SimStrategy.LINEAR ? 1 : settings.workers();
            this.threshold = Math.round(space.selected() * 0.95);
            this.chunkKeys = chunkKeys(space, ServerLimits.PRODUCTION);
        }

        SimResult run() {
            long started = System.nanoTime();
            SimPlan plan = SimPlan.of(space, strategy, workers, random);
            policy = override != null ? override : plan.policy();
            splitPoints = plan.splitPoints();
            setUp(plan);
            while (!events.isEmpty()) {
                events.poll().action().run();
            }
            if (processed != space.selected() || end < 0) {
                throw new IllegalStateException(strategy.id() + " processed " + processed + " of "
                        + space.selected() + " entities");
            }
            double tail = tailStart < 0 ? 0 : (end - tailStart) / (double) end;
            return new SimResult(strategy.id(), space.selected(), workers, end, server.calls() + plan.parallelCalls(), splits, ranges,
                    maxDepth, tail, (System.nanoTime() - started) / 1_000_000);
        }

        /**
         * The executor's start on a server that answers many requests at once: the creation transaction's first
         * calls, the plan and the calibration's queries at once; once the first two are done the commit; the ranges
         * once the commit and the calibration are done, the median of the calibration's queries the gauge's floor.
         */
        private void setUp(SimPlan plan) {
            long[] nanos = new long[Calibration.QUERIES];
            int[] beforeCommit = {2};
            int[] beforeRanges = {2};
            LongConsumer ranges = t -> {
                if (--beforeRanges[0] == 0) {
                    gauge.calibrate(nanos);
                    plan.starts().forEach(r -> queue.add(node(0, r)));
                    dispatch(t);
                }
            };
            LongConsumer commit = t -> {
                if (--beforeCommit[0] == 0) {
                    calls(t, 1, ranges);
                }
            };
            calls(0, plan.calls(), commit);
            calls(0, SETUP_CALLS - 1, commit);
            calibrate(0, 0, nanos, ranges);
        }

        /** Calibration query {@code i} of {@code nanos.length}, one after another; {@code then} once all are answered. */
        private void calibrate(long now, int i, long[] nanos, LongConsumer then) {
            if (i == nanos.length) {
                then.accept(now);
                return;
            }
            long answered = server.call(now);
            nanos[i] = answered - now;
            at(answered, () -> calibrate(answered, i + 1, nanos, then));
        }

        private Node node(int depth, KeyRange range) {
            ranges++;
            maxDepth = Math.max(maxDepth, depth);
            return new Node(depth, range, settings.pageSize());
        }

        private void dispatch(long now) {
            while (active < workers && !queue.isEmpty()) {
                Node node = queue.poll();
                active++;
                node.cursor = space.startIndex(node.tracker.remaining());
                node.end = space.endIndex(node.tracker.range());
                page(node, now);
            }
        }

        /** A page query: up to a page of keys and the one after, in [cursor, end). */
        private void page(Node node, long now) {
            long available = Math.max(0, node.end - node.cursor);
            int keys = (int) Math.min(node.page, available);
            boolean more = available > node.page;
            long answered = server.call(now);
            gauge.record(answered - now);
            at(answered, () -> commit(node, keys, more, keys, answered));
        }

        /** The page's chunks, one transaction after another (an empty page commits its span as covered). */
        private void commit(Node node, int keys, boolean more, int left, long now) {
            calls(now, CALLS_PER_CHUNK, t -> {
                int chunk = Math.min(chunkKeys, left);
                processed += chunk;
                if (tailStart < 0 && processed >= threshold) {
                    tailStart = t;
                }
                if (left > chunk) {
                    commit(node, keys, more, left - chunk, t);
                } else {
                    afterPage(node, keys, more, t);
                }
            });
        }

        private void afterPage(Node node, int keys, boolean more, long now) {
            if (keys > 0) {
                node.lastKey = space.key(node.cursor + keys - 1);
                if (!node.tracker.tryClaim(node.lastKey)) {
                    throw new IllegalStateException("a page read past its range: " + node.tracker);
                }
                node.cursor += keys;
            }
            if (!more) {
                node.tracker.markExhausted();
                finish(now);
                return;
            }
            Key next = space.key(node.cursor);
            long[] clock = {now};
            SplitPolicy.Load load = SplitPolicy.Load.of(workers, active, queue.size(), gauge);
            List<Key> points = policy.splitPoints(new SplitPolicy.Context(node.tracker.remaining(), node.lastKey, next,
                    load, ORDER, splitPoints, range -> probe(range, clock), node.memory));
            if (points.isEmpty()) {
                node.page = policy.nextPage(load, node.page, settings.pageSize());
            }
            long t = clock[0];
            Optional<KeyRange> right = points.isEmpty() ? Optional.empty()
                    : node.tracker.trySplit(next, points.get(0));
            if (right.isEmpty()) {
                at(t, () -> page(node, t));
                return;
            }
            splits++;
            List<Node> children = new ArrayList<>();
            children.add(node(node.depth + 1, node.tracker.remaining()));
            SplitPoints.pieces(right.get(), points).forEach(piece -> children.add(node(node.depth + 1, piece)));
            at(t, () -> {
                queue.addAll(children);
                finish(t);
            });
        }

        /** The first key in {@code range}, found by a query that the worker waits for. */
        private Optional<Key> probe(KeyRange range, long[] clock) {
            long answered = server.call(clock[0]);
            gauge.record(answered - clock[0]);
            clock[0] = answered;
            long first = space.startIndex(range);
            return first < space.endIndex(range) ? Optional.of(space.key(first)) : Optional.empty();
        }

        /** A worker is free: it takes the next range, or the job ends when none is left anywhere. */
        private void finish(long now) {
            active--;
            dispatch(now);
            if (active == 0 && queue.isEmpty()) {
                calls(now, END_CALLS, t -> end = t);
            }
        }

        /** {@code count} calls one after another from {@code now}; then {@code then} at the last one's answer. */
        private void calls(long now, int count, LongConsumer then) {
            if (count == 0) {
                then.accept(now);
                return;
            }
            long answered = server.call(now);
            at(answered, () -> calls(answered, count - 1, then));
        }

        private void at(long time, Runnable action) {
            events.add(new Event(time, seq++, action));
        }
    }

    /**
     * Keys per chunk of the bench's job (an increment keeping undo records) under {@code limits}: the executor's
     * {@link Chunker} cutting a full commit's worth of the kind's first keys, once (pages are cut the same way).
     */
    static int chunkKeys(KeySpace space, ServerLimits limits) {
        List<Key> keys = new ArrayList<>();
        for (long i = 0; i < Math.min(space.size(), limits.maxMutations()); i++) {
            keys.add(space.key(i));
        }
        return Chunker.chunks(keys, limits, true, 1, true, null).get(0).size();
    }

    static int ceil(long a, long b) {
        return (int) ((a + b - 1) / b);
    }
}

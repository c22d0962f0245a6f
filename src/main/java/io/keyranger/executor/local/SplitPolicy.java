package io.keyranger.executor.local;

import com.google.cloud.datastore.Key;
import io.keyranger.executor.cells.PageLoop;
import io.keyranger.executor.range.ProbeMemory;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a range splits after a page. KeyRanger's own is {@link #ADAPTIVE}; benchmarks bring baselines (see
 * {@code io.keyranger.bench.Baselines}) to compare it, on the same exactly-once path, with what a user would otherwise
 * run.
 */
public interface SplitPolicy {
    /**
     * Most pieces one split makes: how far one range fans out at a time. A split writes nothing (its pieces live in
     * the run's memory; what they commit goes through the cells' ledgers).
     */
    public int MAX_PIECES = 16;

    /**
     * KeyRanger's: split only when it can shorten the job, which is when no range waits for a worker (a waiting
     * range means every worker has work) and the server has headroom (its latency is near the lowest seen: more
     * ranges in flight would not queue). Then cut the rest into one piece more than twice its share of the idle
     * workers (idle workers over running ranges, rounded up; at most all of them: ranges reach their page ends one
     * after another, so the first to split would otherwise leave workers idle that later ones never reach in time; two
     * pieces when none is idle, so that a range is ready when a worker frees up), at evenly spaced scatter samples
     * after its first key, else in two at the first key found past the key midpoint (a few probes at most). Every
     * piece holds data.
     */
    public SplitPolicy ADAPTIVE = new SplitPolicy() {
        @Override
        public List<Key> splitPoints(Context context) {
            Load load = context.load();
            if (load.waiting() > 0 || !load.headroom()) {
                return List.of();
            }
            int running = Math.max(1, load.running());
            int share = load.idle() == 0 ? 1 : Math.min(load.idle(), (2 * load.idle() + running - 1) / running);
            return context.splitPoints().at(context, Math.min(MAX_PIECES, 1 + share));
        }

        @Override
        public int nextPage(Load load, int page, int jobPage) {
            return load.idle() > 0 ? PageLoop.wider(page, jobPage) : page;
        }
    };

    /**
     * The keys to cut the rest at, in key order (k keys make k + 1 pieces), or none to go on with the range
     * linearly.
     */
    public List<Key> splitPoints(Context context);

    /**
     * The size of a range's next page after one that found no split point ({@code page} keys; the job's page is
     * {@code jobPage}). KeyRanger's widens it ({@link PageLoop#wider}) while workers are idle: a range that
     * cannot be split (no sample inside it, e.g. where rows arrived after the plan) then pays a query's round trip
     * for more keys, and only the chunks of its commits, which go through one ledger one after another, remain. The
     * baselines keep the job's page.
     */
    public default int nextPage(Load load, int page, int jobPage) {
        return jobPage;
    }

    /**
     * Whether the split may fall where no data is known to be (the published midpoint baseline); KeyRanger's never
     * does: its split points are keys known to exist, after the next key of the range.
     */
    public default boolean blind() {
        return false;
    }

    /**
     * What a policy knows after a page.
     *
     * @param rest           the unclaimed rest of the range
     * @param lastKey        the last key committed
     * @param next           the first key of the rest (read with the page)
     * @param load           the job's workers and the server's headroom now
     * @param order          the server's key order
     * @param splitPoints    the job's scatter samples and the range's probes
     * @param probe          the first key in a range, read from the server (with retries), or empty
     * @param memory         what earlier probes of this range found
     */
    public record Context(KeyRange rest, Key lastKey, Key next, Load load, KeyOrder order,
                   SplitPoints splitPoints, Function<KeyRange, Optional<Key>> probe, ProbeMemory memory) {
    }

    /**
     * How busy a job is when a range decides.
     *
     * @param idle     workers with no range to work on
     * @param running  ranges being worked on (this one among them)
     * @param waiting  ranges waiting for a worker
     * @param headroom whether the server's latency says it has room for more concurrent calls
     */
    public record Load(int idle, int running, int waiting, boolean headroom) {
        /**
         * The load of a pool of {@code workers} with {@code active} of them on a range (this one among them) and
         * {@code queued} ranges waiting: no worker counts as idle while a range waits. The server has headroom by
         * {@code gauge}: with workers idle, while more calls in flight would still serve more a second ({@link
         * ServerGauge#headroom} with the {@code active} calls in flight); with none idle, a split only readies a
         * piece for the next worker to free up, worth it while the server's latency is near its floor (as with one
         * call in flight).
         */
        public static Load of(int workers, int active, int queued, ServerGauge gauge) {
            int running = Math.max(1, active);
            int idle = queued > 0 ? 0 : Math.max(0, workers - running);
            return new Load(idle, running, queued, gauge.headroom(idle > 0 ? running : 1));
        }
    }
}

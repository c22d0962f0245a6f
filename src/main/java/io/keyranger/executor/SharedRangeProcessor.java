package io.keyranger.executor;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Retries;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.PageMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Works one range of a shared job, the way a splittable DoFn processes its restriction: page by page within one cell
 * at a time, it reads a page of keys (and the key after it), claims them, and commits them in chunks through the
 * cell's ledger ({@link CellCommitter}); it moves past the spans covered when it entered a cell without reading them (a rerun or a retried
 * bundle skips finished work) and stops when a claim is refused (the range was split or checkpointed) or the range
 * holds no more keys. Beam-free, so the same loop runs under any runner and in tests.
 */
public final class SharedRangeProcessor {
    /** What a worker needs: the connection, the job's spec and cells, its mapper, committer and limits. */
    public record Job(Datastore datastore, JobSpec spec, KeyOrder order, ServerLimits limits, PageMapper mapper,
                      CellPlan cells, CellCommitter committer, Retries.Policy retries) {
    }

    private final Job job;

    public SharedRangeProcessor(Job job) {
        this.job = job;
    }

    /** Processes {@code tracker}'s range; {@code committed} hears of every commit. */
    public void process(SharedRangeTracker tracker, Consumer<CellCommitter.Outcome> committed) {
        process(tracker, tracker::tryClaim, committed);
    }

    /**
     * As above, claiming through {@code claim} (a runner's view of the same tracker, which must see every claim).
     */
    public void process(SharedRangeTracker tracker, java.util.function.Predicate<Key> claim,
                        Consumer<CellCommitter.Outcome> committed) {
        KeyOrder order = job.order();
        KeyRange rest = tracker.remaining();
        Key cursor = rest.start();
        boolean inclusive = rest.startInclusive();
        int spansCell = -1;
        CoveredSpans spans = null;
        while (true) {
            Key end = tracker.range().end();
            if (end != null && cursor != null && order.compare(cursor, end) >= 0) {
                tracker.markExhausted();
                return;
            }
            int cell = job.cells().cellOf(cursor);
            Key cellEnd = job.cells().cell(cell).end();
            Key hi = end == null ? cellEnd : cellEnd == null ? end : order.compare(end, cellEnd) <= 0 ? end : cellEnd;
            KeyRange query = range(cursor, inclusive, hi);
            if (cell != spansCell) { // read once per cell entered: spans only grow, and every commit checks anyway
                spans = retry(() -> job.committer().read(cell));
                spansCell = cell;
            }
            KeyRange covered = spans.spanAtStart(query);
            if (covered != null) {
                Key to = covered.end() == null ? hi : hi == null ? covered.end()
                        : order.compare(covered.end(), hi) < 0 ? covered.end() : hi;
                if (to == null) {
                    tracker.markExhausted();
                    return;
                }
                cursor = to;
                inclusive = true;
                tracker.movedTo(cursor);
                continue;
            }
            int pageSize = job.spec().pageSize();
            List<Key> fetched = retry(() -> fetch(query, pageSize + 1));
            List<Key> page = new ArrayList<>(fetched.subList(0, Math.min(pageSize, fetched.size())));
            Key next = fetched.size() > pageSize ? fetched.get(pageSize) : null;
            tracker.read(fetched, next == null ? hi : null);
            boolean stop = false;
            for (int i = 0; i < page.size(); i++) {
                if (!claim.test(page.get(i))) {
                    page = page.subList(0, i);
                    stop = true;
                    break;
                }
            }
            Key spanEnd = stop ? tracker.range().end() : min(next != null ? next : hi, tracker.range().end());
            if (!page.isEmpty() || !stop) {
                commitPage(cell, query, page, spanEnd, committed);
            }
            if (stop) {
                return;
            }
            if (next != null) {
                cursor = page.get(page.size() - 1);
                inclusive = false;
            } else if (hi == null) {
                tracker.markExhausted();
                return;
            } else {
                cursor = hi;
                inclusive = true;
                tracker.movedTo(cursor);
            }
        }
    }

    /** Commits a page in chunks, each covering the key space from the previous chunk's end to its own. */
    private void commitPage(int cell, KeyRange query, List<Key> page, Key spanEnd,
                            Consumer<CellCommitter.Outcome> committed) {
        List<List<Key>> chunks = page.isEmpty() ? List.of(List.of()) : Chunker.chunks(page, job.limits(),
                job.mapper().needsEntities() || job.mapper().writes(), job.mapper().entityGroupsPerKey());
        Key from = query.start();
        boolean fromInclusive = query.startInclusive();
        for (int c = 0; c < chunks.size(); c++) {
            List<Key> chunk = chunks.get(c);
            Key to = c < chunks.size() - 1 ? chunks.get(c + 1).get(0) : spanEnd;
            KeyRange span = range(from, fromInclusive, to);
            if (span.isEmpty()) {
                continue;
            }
            committed.accept(retry(() -> job.committer().commit(cell, span, chunk)));
            from = to;
            fromInclusive = true;
        }
    }

    private Key min(Key a, Key b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return job.order().compare(a, b) <= 0 ? a : b;
    }

    private KeyRange range(Key start, boolean inclusive, Key end) {
        if (start == null || inclusive) {
            return KeyRange.of(job.order(), start, end);
        }
        return KeyRange.of(job.order(), null, end).advancePast(start);
    }

    private List<Key> fetch(KeyRange range, int limit) {
        KeyQuery query = range.applyTo(Query.newKeyQueryBuilder().setNamespace(job.spec().namespace())
                .setKind(job.spec().kind()), job.spec().mapper().where()).setLimit(limit).build();
        List<Key> keys = new ArrayList<>(limit);
        job.datastore().run(query).forEachRemaining(keys::add);
        return keys;
    }

    private <T> T retry(java.util.function.Supplier<T> operation) {
        return Retries.call(job.retries(), Retries.Observer.NONE, operation);
    }
}

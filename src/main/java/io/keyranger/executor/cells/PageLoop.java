package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.Retries;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The page loop of every runner, local or Beam: page by page over its range it reads a page of keys (and the key
 * after it), claims them, and commits them in chunks through their cells' ledgers ({@link CellCommitter}); it moves
 * past spans it knows are covered without reading them (a resumed job, a rerun or a retried bundle skips finished
 * work) and stops when a claim is refused (the range was split or checkpointed), when the runner says so after a page,
 * or when the range holds no more keys. A range that starts inside a cell, split off one still working before it,
 * first divides the cell there ({@link CellCommitter#divideAt}). Once its runner's {@link Cancellation} says stop
 * (a cancelled job), it begins no call: no page is read and no chunk commits, not even the rest of a page already
 * read; a commit in flight ends, and what it did not reach stays for a resume. Beam-free, so the same loop runs under
 * any runner and in tests.
 */
public final class PageLoop {
    /** How a runner makes the loop's calls to the server: with its retries, rate limit and timing. */
    public interface Calls {
        /** A page query, {@code keys} the most it returns. */
        <T> T query(Supplier<T> query);

        /** A commit of {@code keys} keys. */
        <T> T commit(int keys, Supplier<T> commit);
    }

    /** Where the loop learns which spans are covered already (only to skip work: every commit checks anyway). */
    public interface Covered {
        /** The covered spans of {@code cell} as known, or null to read them. */
        CoveredSpans of(int cell);

        /** A fresh job's first run: nothing is covered but what this run commits, so nothing is read. */
        static Covered nothing(KeyOrder order) {
            return cell -> new CoveredSpans(order);
        }

        /** Read each cell's ledger when the loop enters it (a rerun, a retried bundle, a second runner). */
        Covered READ = cell -> null;
    }

    private final PageWork work;
    private final Calls calls;
    private final Covered covered;
    private int pageSize;
    private Cancellation stop = Cancellation.NEVER;

    public PageLoop(PageWork work) {
        this(work, null, Covered.READ);
    }

    /** With the runner's own calls ({@code calls} null: retried by the job's policy) and covered spans. */
    public PageLoop(PageWork work, Calls calls, Covered covered) {
        this.work = work;
        this.calls = calls != null ? calls : new Calls() {
            @Override
            public <T> T query(Supplier<T> query) {
                return Retries.call(work.retries(), Retries.Observer.NONE, query);
            }

            @Override
            public <T> T commit(int keys, Supplier<T> commit) {
                return Retries.call(work.retries(), Retries.Observer.NONE, commit);
            }
        };
        this.covered = covered;
        this.pageSize = work.spec().pageSize();
    }

    /**
     * The most keys a page grows to ({@link #wider}), unless the job's page is larger: a read of 1,000 keys and the
     * commits of their chunks stay well within a call's time and a request's size.
     */
    public static final int WIDEST_PAGE = 1_000;

    /**
     * The page after one of {@code page} keys, for a range that goes on linearly because it will not be split (the job's
     * page is {@code jobPage}): twice as wide, up to {@link #WIDEST_PAGE}. Such a range pays a query's round trip for
     * more keys and its commits carry more keys each, so it makes fewer calls an entity.
     */
    public static int wider(int page, int jobPage) {
        return Math.min(Math.max(jobPage, WIDEST_PAGE), page * 2);
    }

    /** From the next page on, read pages of {@code keys} (the job's page until this is called). */
    public PageLoop pageSize(int keys) {
        this.pageSize = Math.max(1, keys);
        return this;
    }

    /**
     * Stops the loop, with a {@link java.util.concurrent.CancellationException}, before any call it would begin once
     * {@code cancellation} says so (or its thread is interrupted): before a page is read, and before each chunk
     * commits, a page read when the job was cancelled included.
     */
    public PageLoop stopWhen(Cancellation cancellation) {
        this.stop = cancellation;
        return this;
    }

    /** How many keys the loop's next page reads. */
    public int pageSize() {
        return pageSize;
    }

    /** Processes {@code tracker}'s range; {@code committed} hears of every commit. */
    public void process(ConcurrentRangeTracker tracker, Consumer<CellCommitter.Outcome> committed) {
        process(tracker, tracker::tryClaim, committed, next -> true);
    }

    /** As below, going on after every page. */
    public void process(ConcurrentRangeTracker tracker, Predicate<Key> claim, Consumer<CellCommitter.Outcome> committed) {
        process(tracker, claim, committed, next -> true);
    }

    /**
     * Processes {@code tracker}'s range, claiming through {@code claim} (a runner's view of the same tracker, which
     * must see every claim). After each page that leaves keys in the range, {@code afterPage} is told the first of
     * them and says whether to go on (it may split the tracker meanwhile).
     */
    public void process(ConcurrentRangeTracker tracker, Predicate<Key> claim, Consumer<CellCommitter.Outcome> committed,
                        Predicate<Key> afterPage) {
        KeyOrder order = work.order();
        KeyRange rest = tracker.remaining();
        if (rest.start() != null && rest.startInclusive()) {
            stop.check();
            // split off a range still working before it (inside a cell): each commits through a part of its own
            calls.commit(0, () -> work.committer().divideAt(rest.start()));
        }
        Key cursor = rest.start();
        boolean inclusive = rest.startInclusive();
        Map<Integer, CoveredSpans> known = new HashMap<>();
        int offset = 0;
        while (true) {
            Key end = tracker.range().end();
            if (end != null && cursor != null && order.compare(cursor, end) >= 0) {
                tracker.markExhausted();
                return;
            }
            KeyRange query = range(cursor, inclusive, end);
            KeyRange span = spansAt(query, known).spanAtStart(query);
            if (span != null) { // covered already: move past it without reading it
                Key to = min(span.end(), end);
                if (to == null) {
                    tracker.markExhausted();
                    return;
                }
                cursor = to;
                inclusive = true;
                tracker.movedTo(cursor);
                continue;
            }
            PageDone done = onePage(tracker, claim, committed, rest, query, offset);
            if (done.refused()) {
                return;
            }
            if (done.next() == null) {
                tracker.markExhausted();
                return;
            }
            cursor = done.page().get(done.page().size() - 1);
            inclusive = false;
            offset += done.page().size();
            if (!afterPage.test(done.next())) {
                return;
            }
        }
    }

    /**
     * What one page did.
     *
     * @param page    the keys it claimed (and committed)
     * @param next    the key after the page, or null when the range holds no more
     * @param refused whether a claim was refused (the range was split or checkpointed): the loop stops
     */
    private record PageDone(List<Key> page, Key next, boolean refused) {
    }

    /**
     * Reads the page of {@code query} (or, when pages go by offset, the page {@code offset} keys into {@code rest})
     * and the key after it, claims its keys through {@code claim} up to the first refused, and commits those claimed.
     */
    private PageDone onePage(ConcurrentRangeTracker tracker, Predicate<Key> claim,
                             Consumer<CellCommitter.Outcome> committed, KeyRange rest, KeyRange query, int offset) {
        Key end = query.end(); // the range's end as the loop saw it, though a split may move it meanwhile
        int keys = pageSize;
        stop.check();
        PageSource.Page read = calls.query(() -> work.seams().pagesByOffset()
                ? work.source().fetch(rest, offset, keys + 1) : work.source().fetch(query, 0, keys + 1));
        List<Key> fetched = read.keys();
        List<Key> page = new ArrayList<>(fetched.subList(0, Math.min(keys, fetched.size())));
        Key next = fetched.size() > keys ? fetched.get(keys) : null;
        tracker.read(fetched, next == null ? end : null);
        List<Key> claimed = claimed(page, claim);
        boolean refused = claimed.size() < page.size();
        Key spanEnd = refused ? tracker.range().end() : min(next != null ? next : end, tracker.range().end());
        if (!claimed.isEmpty() || !refused) {
            commitPage(query, claimed, read.records(), spanEnd, committed);
        }
        return new PageDone(claimed, next, refused);
    }

    /** {@code page}'s keys up to the first one {@code claim} refuses. */
    private static List<Key> claimed(List<Key> page, Predicate<Key> claim) {
        for (int i = 0; i < page.size(); i++) {
            if (!claim.test(page.get(i))) {
                return page.subList(0, i);
            }
        }
        return page;
    }

    private CoveredSpans spansAt(KeyRange query, Map<Integer, CoveredSpans> known) {
        int cell = work.cells().cellOf(query.start());
        return known.computeIfAbsent(cell, c -> {
            CoveredSpans given = covered.of(c);
            return given != null ? given : calls.query(() -> work.committer().read(c));
        });
    }

    /** Commits a page in chunks, each covering the key space from the previous chunk's end to the next one's start. */
    private void commitPage(KeyRange query, List<Key> page, Map<Key, SourceRecord> records, Key spanEnd,
                            Consumer<CellCommitter.Outcome> committed) {
        List<List<Key>> chunks = page.isEmpty() ? List.of(List.of())
                : work.mapper().readsSource() ? Chunker.records(page, work.limits(), work.mapper().keepsUndo(),
                        work.mapper().writesEachKeyOnce(), work.mapper()::entitiesPer, work.cells())
                : Chunker.chunks(page, work.limits(), work.mapper().needsEntities() || work.mapper().writes(),
                        work.mapper().entityGroupsPerKey(), work.mapper().keepsUndo(),
                        work.mapper().writesEachKeyOnce(), work.mapper()::entitiesPer, work.cells());
        Key from = query.start();
        boolean fromInclusive = query.startInclusive();
        for (int c = 0; c < chunks.size(); c++) {
            List<Key> chunk = chunks.get(c);
            Key to = c < chunks.size() - 1 ? chunks.get(c + 1).get(0) : spanEnd;
            KeyRange span = range(from, fromInclusive, to);
            if (span.isEmpty()) {
                continue;
            }
            stop.check(); // a page read as the job was cancelled goes no further
            committed.accept(calls.commit(chunk.size(), () -> work.committer().commit(span, chunk, records)));
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
        return work.order().compare(a, b) <= 0 ? a : b;
    }

    private KeyRange range(Key start, boolean inclusive, Key end) {
        if (start == null || inclusive) {
            return KeyRange.of(work.order(), start, end);
        }
        return KeyRange.of(work.order(), null, end).advancePast(start);
    }
}

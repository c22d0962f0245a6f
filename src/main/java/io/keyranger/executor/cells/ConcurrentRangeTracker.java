package io.keyranger.executor.cells;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.keys.KeyRangeTracker;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The {@link KeyRangeTracker} of one range of a shared job, safe to split from another thread while its worker claims
 * keys (a runner's dynamic work rebalancing calls {@link #trySplit} at any time). It only ever cuts where data is
 * known to be: a checkpoint ({@code fraction} 0) at the first key read but not yet claimed, any other fraction at a
 * cell bound (a scatter sample) or, within one cell, at a key of the page being worked on.
 */
public final class ConcurrentRangeTracker {
    /** A split: the primary this tracker keeps, and the residual handed back. */
    public record Split(KeyRange primary, KeyRange residual) {
    }

    private final KeyRangeTracker tracker;
    private final CellPlan cells;
    private final KeyOrder order;
    /** Keys read and not claimed yet, in order: the rest of the current page and the key after it. */
    private final Deque<Key> known = new ArrayDeque<>();
    /** Where the worker will read next when it has no key in hand: a cell bound it moved to (inclusive). */
    private Key position;
    private final double entitiesPerCell;

    public ConcurrentRangeTracker(KeyRange range, CellPlan cells, double entitiesPerCell) {
        this.tracker = new KeyRangeTracker(range);
        this.cells = cells;
        this.order = range.order();
        this.entitiesPerCell = entitiesPerCell;
    }

    public synchronized KeyRange range() {
        return tracker.range();
    }

    public synchronized KeyRange remaining() {
        return tracker.remaining();
    }

    public synchronized boolean tryClaim(Key key) {
        while (!known.isEmpty() && order.compare(known.peekFirst(), key) <= 0) {
            known.pollFirst();
        }
        return tracker.tryClaim(key);
    }

    /**
     * The worker read these keys (a page and the key after it) and will claim them in order; with no key after them
     * in their cell, it goes on at {@code then} (the cell's end bound, or null).
     */
    public synchronized void read(List<Key> keys, Key then) {
        known.clear();
        known.addAll(keys);
        position = then;
    }

    /** The worker moved to {@code bound} (a cell bound or a covered span's end) with no key in hand. */
    public synchronized void movedTo(Key bound) {
        known.clear();
        position = bound;
    }

    public synchronized void markExhausted() {
        tracker.markExhausted();
    }

    public synchronized boolean isDone() {
        return tracker.isDone();
    }

    public synchronized void checkDone() {
        tracker.checkDone();
    }

    public synchronized long claimedKeys() {
        return tracker.claimedKeys();
    }

    /**
     * Splits off the part of the rest past {@code fraction} of it (0: everything not claimed yet). Empty when no
     * point known to hold data lies there, or the tracker is done.
     */
    public synchronized Optional<Split> trySplit(double fraction) {
        if (tracker.isDone()) {
            return Optional.empty();
        }
        KeyRange rest = tracker.remaining();
        Key head = known.stream().filter(rest::contains).findFirst().orElse(null);
        Key next = head != null ? head : position != null && rest.contains(position) ? position : null;
        if (next == null) {
            return Optional.empty();
        }
        Optional<KeyRange> residual;
        if (fraction <= 0) {
            residual = tracker.trySplitBlind(next); // the first unread or unclaimed key: data known to be there
        } else {
            List<Key> candidates = cells.boundsInside(rest, next);
            if (candidates.isEmpty()) {
                candidates = known.stream().filter(k -> rest.contains(k) && order.compare(k, next) > 0).toList();
            }
            if (candidates.isEmpty()) {
                return Optional.empty();
            }
            int index = (int) Math.ceil(fraction * (candidates.size() + 1)) - 1;
            Key at = candidates.get(Math.max(0, Math.min(candidates.size() - 1, index)));
            residual = tracker.trySplit(next, at);
        }
        if (residual.isEmpty()) {
            return Optional.empty();
        }
        known.removeIf(k -> !tracker.range().contains(k));
        return Optional.of(new Split(tracker.range(), residual.get()));
    }

    /**
     * Splits off the rest from {@code at} on, {@code next} being the first key not claimed yet and {@code at} a key
     * after it; {@code blind} (a baseline) cuts at {@code at} whatever lies there. Empty when it cannot.
     */
    public synchronized Optional<KeyRange> splitAt(Key next, Key at, boolean blind) {
        Optional<KeyRange> residual = blind ? tracker.trySplitBlind(at) : tracker.trySplit(next, at);
        known.removeIf(k -> !tracker.range().contains(k));
        return residual;
    }

    /** Work done and left, in entities: claimed keys, and the cells of the rest times the entities per cell. */
    public synchronized KeyRangeTracker.Progress progress() {
        return tracker.progress(rest -> cells.cellsIn(rest) * entitiesPerCell);
    }

    @Override
    public synchronized String toString() {
        return tracker.toString();
    }
}

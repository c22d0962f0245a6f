package io.keyranger.keys;

import com.google.cloud.datastore.Key;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Who owns which keys of a range while it is worked on, with no I/O and no threads: the contract of a splittable
 * DoFn's restriction tracker (Apache Beam's {@code ByteKeyRangeTracker} is the model), for Datastore keys in the
 * server's order. The local executor and a distributed runner both drive it the same way: claim the keys of a page in
 * order, then either go on, split the unclaimed rest in two, or checkpoint (hand the rest back).
 *
 * <ul>
 *   <li>{@link #tryClaim} takes strictly increasing keys; a key past the range's end is refused and ends the work.</li>
 *   <li>{@link #trySplit} cuts the unclaimed rest at a key known to exist, and only when a key before it is known to
 *       exist too: both halves always hold data, never empty key space.</li>
 *   <li>{@link #checkpoint} stops after the last claimed key and returns the rest (strictly after it).</li>
 *   <li>{@link #checkDone} says whether every key of the range has been accounted for.</li>
 * </ul>
 *
 * Together: every key of the original range is claimed by exactly one tracker, the original or one made from a residual
 * it gave away, with no gap and no overlap.
 */
public final class KeyRangeTracker {
    private final KeyOrder order;
    private KeyRange range;
    private Key lastAttempted;
    private Key lastClaimed;
    private long claimed;
    private boolean done;

    public KeyRangeTracker(KeyRange range) {
        this.order = range.order();
        this.range = range;
    }

    /**
     * A tracker that resumes a range whose keys up to {@code lastClaimed} (inclusive) were processed before, as a
     * persisted checkpoint says.
     */
    public static KeyRangeTracker resume(KeyRange range, Key lastClaimed, long claimedBefore) {
        KeyRangeTracker tracker = new KeyRangeTracker(range);
        if (lastClaimed != null) {
            if (!range.contains(lastClaimed)) {
                throw new IllegalArgumentException(KeyFormat.format(lastClaimed) + " is not in " + range);
            }
            tracker.lastAttempted = lastClaimed;
            tracker.lastClaimed = lastClaimed;
        }
        tracker.claimed = claimedBefore;
        return tracker;
    }

    /** The range this tracker owns now: its original one, or the primary left after a split. */
    public KeyRange range() {
        return range;
    }

    /** The last key claimed, or null. */
    public Key lastClaimed() {
        return lastClaimed;
    }

    /** How many keys were claimed, including any before a {@link #resume}. */
    public long claimedKeys() {
        return claimed;
    }

    /** The part of the range not claimed yet (empty of work once done). */
    public KeyRange remaining() {
        return lastClaimed == null ? range : range.advancePast(lastClaimed);
    }

    /**
     * Claims {@code key}: true if it lies in the range and may be processed. A key past the end is refused, and the
     * tracker is then done. Keys must come in strictly increasing order and never before the range.
     */
    public boolean tryClaim(Key key) {
        if (lastAttempted != null && order.compare(key, lastAttempted) <= 0) {
            throw new IllegalArgumentException("Keys must be claimed in increasing order: " + KeyFormat.format(key)
                    + " after " + KeyFormat.format(lastAttempted));
        }
        if (range.start() != null) {
            int c = order.compare(key, range.start());
            if (c < 0 || (c == 0 && !range.startInclusive())) {
                throw new IllegalArgumentException(KeyFormat.format(key) + " is before " + range);
            }
        }
        lastAttempted = key;
        if (done || !range.contains(key)) {
            done = true;
            return false;
        }
        lastClaimed = key;
        claimed++;
        return true;
    }

    /** The rest of the range holds no key: the work is done (a page query found nothing more). */
    public void markExhausted() {
        done = true;
    }

    /**
     * Splits the unclaimed rest at {@code at}: this tracker keeps [start, at), the residual [at, end) is returned.
     * {@code next} is a key known to lie in the rest before {@code at} (the first key of the next page) and {@code at}
     * a key known to exist (a scatter sample or a probed key), so that both halves hold data. Empty when the split
     * cannot be made that way, or when the tracker is done.
     */
    public Optional<KeyRange> trySplit(Key next, Key at) {
        KeyRange rest = remaining();
        if (done || next == null || at == null || !rest.contains(next) || !rest.contains(at)
                || order.compare(next, at) >= 0) {
            return Optional.empty();
        }
        KeyRange[] halves = range.splitAt(at);
        range = halves[0];
        return Optional.of(halves[1]);
    }

    /**
     * Splits the unclaimed rest at {@code at} whether or not data lies on either side: for baselines that split
     * blindly (at key midpoints), never for KeyRanger's own splits. Empty when {@code at} is not strictly inside the
     * rest, or when the tracker is done.
     */
    public Optional<KeyRange> trySplitBlind(Key at) {
        KeyRange rest = remaining();
        if (done || at == null || !rest.contains(at) || (rest.start() != null && order.compare(at, rest.start()) == 0)) {
            return Optional.empty();
        }
        KeyRange[] halves = range.splitAt(at);
        range = halves[0];
        return Optional.of(halves[1]);
    }

    /**
     * Stops after the last claimed key and returns what is left, strictly after it (the whole range if nothing was
     * claimed); empty when nothing is left. The tracker is done afterwards.
     */
    public Optional<KeyRange> checkpoint() {
        if (done) {
            return Optional.empty();
        }
        KeyRange rest = remaining();
        done = true;
        return rest.isEmpty() ? Optional.empty() : Optional.of(rest);
    }

    /** Whether every key of the range is accounted for: refused past the end, found exhausted, or checkpointed. */
    public boolean isDone() {
        return done;
    }

    /** Throws unless {@link #isDone()}: work that stops before its range is accounted for would lose keys. */
    public void checkDone() {
        if (!done) {
            throw new IllegalStateException("Range " + range + " is not done: its rest " + remaining()
                    + " was neither claimed, found empty nor handed back");
        }
    }

    /**
     * Work done and left, in keys: done is what was claimed; left is {@code estimate} of the unclaimed rest (e.g. from
     * scatter samples), or 0 once done.
     */
    public Progress progress(ToDoubleFunction<KeyRange> estimate) {
        return new Progress(claimed, done ? 0 : Math.max(0, estimate.applyAsDouble(remaining())));
    }

    /**
     * Work done and left, in keys.
     *
     * @param completed keys claimed
     * @param remaining keys estimated to be left
     */
    public record Progress(double completed, double remaining) {
        /** The share done, 0-1; 0 when nothing is known. */
        public double fraction() {
            double total = completed + remaining;
            return total <= 0 ? 0 : completed / total;
        }
    }

    @Override
    public String toString() {
        return "KeyRangeTracker" + range + (lastClaimed == null ? "" : " after " + KeyFormat.format(lastClaimed))
                + (done ? " done" : "");
    }
}

package io.keyranger.model;

import com.google.datastore.v1.ReadOptions;
import com.google.protobuf.Timestamp;
import com.google.rpc.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The model's clock of versions and its window, as production keeps them: every commit is stamped with the server's
 * clock in microseconds (its commit time, which is also the version number it answers, strictly increasing), and a
 * read may ask for any moment of the last {@code retention} (an hour; with point-in-time recovery 7 days, whole minutes
 * only past the first hour). A moment in the future or older than the window is refused with the errors production
 * and the Firestore emulator answer. Versions that no read in the window can need any more are handed back to be
 * pruned ({@link #expired}).
 */
final class ModelVersions {
    /** A read of the present: sees the newest version of every entity. */
    static final long LIVE = Long.MAX_VALUE;
    /** Versions every database keeps at any microsecond; with PITR older ones are kept at whole minutes. */
    static final Duration FINE = Duration.ofHours(1);
    /** What point-in-time recovery keeps. */
    static final Duration PITR = Duration.ofDays(7);

    private final Duration retention;
    private final long retentionMicros;
    /** The newest commit's time; written under this object's lock. */
    private volatile long last;
    /** Commits stamped and not yet applied: a read at or after one of their times waits for them. */
    private final ConcurrentSkipListSet<Long> pending = new ConcurrentSkipListSet<>();
    /** Versions that replaced another, in (about) the order of their times: the replaced ones expire with them. */
    private final ConcurrentLinkedQueue<Stored> replacing = new ConcurrentLinkedQueue<>();
    private final AtomicInteger replacingCount = new AtomicInteger();

    ModelVersions(Duration retention) {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the version window must be positive");
        }
        this.retention = retention;
        this.retentionMicros = TimeUnit.SECONDS.toMicros(retention.getSeconds()) + retention.getNano() / 1_000;
    }

    Duration retention() {
        return retention;
    }

    /** Whether versions older than an hour are kept (at whole minutes), as with point-in-time recovery. */
    boolean pitr() {
        return retention.compareTo(FINE) > 0;
    }

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    /** The oldest moment a read can ask for now. */
    long earliest() {
        return nowMicros() - retentionMicros;
    }

    /** A new commit's time (and version): the clock, or just after the last commit when the clock has not moved. */
    synchronized long begin() {
        last = Math.max(last + 1, nowMicros());
        pending.add(last);
        return last;
    }

    /** The commit stamped {@code version} is applied (or failed): reads at its time may go on. */
    void end(long version) {
        pending.remove(version);
    }

    /** The newest commit's time. */
    long current() {
        return last;
    }

    /**
     * The moment a read asks for ({@link #LIVE} when it names none), once every commit at or before it is applied and
     * no later commit can be stamped at or before it; refused as production refuses it when it is in the future,
     * older than the window, or (with PITR) older than an hour and not a whole minute.
     */
    long readAt(ReadOptions options) {
        if (!options.hasReadTime()) {
            return LIVE;
        }
        Timestamp time = options.getReadTime();
        long at = time.getSeconds() * 1_000_000L + time.getNanos() / 1_000;
        long now = nowMicros();
        if (at > now) {
            throw new ModelError(Code.INVALID_ARGUMENT, "The requested 'read_time' cannot be in the future.");
        }
        if (at < now - retentionMicros) {
            throw tooOld();
        }
        if (at < now - TimeUnit.SECONDS.toMicros(FINE.getSeconds())
                && (time.getNanos() != 0 || time.getSeconds() % 60 != 0)) {
            throw new ModelError(Code.INVALID_ARGUMENT, "The requested 'read_time' is more than an hour old: versions "
                    + "that old are kept at whole minutes only.");
        }
        synchronized (this) {
            last = Math.max(last, at);
        }
        while (true) {
            Long first = pending.ceiling(Long.MIN_VALUE); // null when none: first() would throw
            if (first == null || first > at) {
                return at;
            }
            LockSupport.parkNanos(20_000);
        }
    }

    /** What production and the Firestore emulator answer a read older than the versions they keep. */
    static ModelError tooOld() {
        return new ModelError(Code.FAILED_PRECONDITION, "The requested 'read_time' is too old.");
    }

    /** {@code head} replaced an older version at its time: that one expires once the window has passed it. */
    void replaced(Stored head) {
        replacing.add(head);
        replacingCount.incrementAndGet();
    }

    /** The next version whose predecessors no read in the window can need any more, or null. */
    Stored expired() {
        synchronized (replacing) {
            Stored head = replacing.peek();
            if (head == null || head.version() >= earliest()) {
                return null;
            }
            replacingCount.decrementAndGet();
            return replacing.poll();
        }
    }

    /** Versions replaced and not yet expired (each holds its predecessor in memory). */
    int replacedCount() {
        return replacingCount.get();
    }

    static Timestamp timestamp(long micros) {
        return Timestamp.newBuilder().setSeconds(Math.floorDiv(micros, 1_000_000L))
                .setNanos((int) Math.floorMod(micros, 1_000_000L) * 1_000).build();
    }
}

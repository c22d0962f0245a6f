package io.keyranger.datastore;

import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.Transaction;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.http.HttpConnectTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Which Datastore errors are worth retrying, and how long to wait: exponential backoff with full jitter.
 * UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED, INTERNAL and RESOURCE_EXHAUSTED are transient, and so is a connection
 * that failed (the server went away).
 */
public final class Retries {
    private static final Set<String> TRANSIENT_REASONS = Set.of("UNAVAILABLE", "DEADLINE_EXCEEDED", "ABORTED",
            "INTERNAL", "RESOURCE_EXHAUSTED");
    /** gRPC codes of the same, which the client reports even over HTTP. */
    private static final Set<Integer> TRANSIENT_CODES = Set.of(14, 4, 10, 13, 8, 409, 429, 500, 503, 504);

    /**
     * How each server says a transaction is gone: the legacy emulator ("transaction has expired or is invalid"), the
     * Firestore emulator in Datastore mode on a commit ("Transaction is invalid or closed.") and on a rollback
     * ("Transaction is invalid or expired.").
     */
    private static final List<String> EXPIRED_TRANSACTION = List.of(
            "transaction has expired or is invalid", "Transaction is invalid or closed",
            "Transaction is invalid or expired");
    /**
     * A server that locks (the Firestore emulator in Datastore mode; production's pessimistic concurrency) makes a
     * writer wait about 2 s for another transaction's lock, then answers ABORTED "Transaction lock timeout.". A
     * transaction whose runner froze (a closed laptop lid) holds its locks until the server expires it after 60 s of
     * idleness, so lock timeouts are waited through for up to this long, without using up the policy's attempts.
     */
    public static final long LOCK_WAIT_MILLIS = 90_000;

    private Retries() {
    }

    /** Whether {@code error} is a lock another transaction holds ("Transaction lock timeout."). */
    public static boolean isLockTimeout(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof DatastoreException e && e.getMessage() != null
                    && e.getMessage().contains("Transaction lock timeout")) {
                return true;
            }
        }
        return false;
    }

    public static boolean isTransient(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof DatastoreException e) {
                // some errors carry no reason (an interrupted request): their code decides
                if (e.getReason() != null && TRANSIENT_REASONS.contains(e.getReason())
                        || TRANSIENT_CODES.contains(e.getCode())) {
                    return true;
                }
                // a transaction the server no longer holds (it restarted, or the transaction sat idle past its 60 s):
                // a fresh transaction will do
                if (e.getMessage() != null && EXPIRED_TRANSACTION.stream().anyMatch(e.getMessage()::contains)) {
                    return true;
                }
            }
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the server could not be reached at all (refused or reset connection), or is going away (the emulator
     * answers calls in flight while it shuts down with UNKNOWN "channel closed"): wait for it to come back.
     */
    public static boolean isServerUnreachable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof NoRouteToHostException
                    || t instanceof SocketException || t instanceof HttpConnectTimeoutException) {
                return true;
            }
            if (t instanceof DatastoreException e && ("UNKNOWN".equals(e.getReason()) || e.getCode() == 2)
                    && e.getMessage() != null && e.getMessage().contains("channel closed")) {
                return true;
            }
        }
        return false;
    }

    public static boolean isAborted(Throwable error) {
        return error instanceof DatastoreException e && ("ABORTED".equals(e.getReason()) || e.getCode() == 10
                || e.getCode() == 409);
    }

    /** Milliseconds to wait before attempt {@code attempt + 1}: random in [0, min(cap, base·2^attempt)]. */
    public static long backoffMillis(int attempt, long baseMillis, long capMillis) {
        long ceiling = Math.min(capMillis, baseMillis << Math.min(attempt, 20));
        return ThreadLocalRandom.current().nextLong(ceiling / 4, ceiling + 1);
    }

    /** Sleeps for a backoff; an interrupt becomes a cancellation. */
    public static void sleepBackoff(int attempt, long baseMillis, long capMillis) {
        try {
            Thread.sleep(backoffMillis(attempt, baseMillis, capMillis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while backing off");
        }
    }

    /** How often and how long to retry: the executor's {@code RetryPolicy} is one. */
    public interface Policy {
        /** Tries of an operation that keeps failing with transient errors. */
        int maxAttempts();

        long baseMillis();

        long capMillis();

        /** How long to wait for a server that cannot be reached at all, without using up the attempts. */
        long serverLostMillis();
    }

    /** A policy of its own, for callers outside a job (counters on the command line). */
    public record Simple(int maxAttempts, long baseMillis, long capMillis, long serverLostMillis) implements Policy {
    }

    /** Hears what a retried operation goes through; every method is optional. */
    public interface Observer {
        Observer NONE = new Observer() {
        };

        /** A transient error; another attempt follows after a backoff. */
        default void retrying(Throwable problem) {
        }

        /** The server cannot be reached; the operation waits for it. */
        default void waitingForServer(Throwable problem) {
        }

        /** The server answered again after {@link #waitingForServer}. */
        default void serverBack() {
        }

        /** Whether to stop waiting for the server (a cancelled job). */
        default boolean cancelled() {
            return false;
        }
    }

    private static final long SERVER_WAIT_CAP_MILLIS = 5_000;

    /**
     * The one retry loop of KeyRanger, for ranges, imports, counters and bookkeeping alike: transient errors back off
     * with jitter and retry up to the policy's attempts; a server that cannot be reached is waited for (up to the
     * policy's server-lost time) without using up the attempts, and so is a lock another transaction holds (up to
     * {@link #LOCK_WAIT_MILLIS}). A {@link io.keyranger.KeyRangerException} (a problem
     * the user must fix, or a fenced runner) and any other error are thrown at once, as is the last one.
     */
    public static <T> T call(Policy policy, Observer observer, Supplier<T> operation) {
        long unreachableSince = 0;
        long lockedSince = 0;
        for (int attempt = 1; ; attempt++) {
            try {
                T value = operation.get();
                if (unreachableSince != 0) {
                    observer.serverBack();
                }
                return value;
            } catch (KeyRangerException | CancellationException e) {
                throw e;
            } catch (RuntimeException e) {
                if (isServerUnreachable(e) && !observer.cancelled()) {
                    long now = System.nanoTime();
                    unreachableSince = unreachableSince == 0 ? now : unreachableSince;
                    if (now - unreachableSince < TimeUnit.MILLISECONDS.toNanos(
                            policy.serverLostMillis())) {
                        observer.waitingForServer(e);
                        sleepBackoff(Math.min(attempt, 8), policy.baseMillis(),
                                Math.min(policy.capMillis(), SERVER_WAIT_CAP_MILLIS));
                        attempt = 0; // waiting for the server does not use up the attempts
                        continue;
                    }
                }
                if (isLockTimeout(e) && policy.maxAttempts() > 1 && !observer.cancelled()) {
                    long now = System.nanoTime();
                    lockedSince = lockedSince == 0 ? now : lockedSince;
                    if (now - lockedSince < TimeUnit.MILLISECONDS.toNanos(LOCK_WAIT_MILLIS)) {
                        observer.retrying(e); // the server itself waited ~2 s for the lock
                        sleepBackoff(1, policy.baseMillis(), policy.capMillis());
                        attempt = 0;
                        continue;
                    }
                }
                if (!isTransient(e) || attempt >= policy.maxAttempts()) {
                    throw e;
                }
                observer.retrying(e);
                sleepBackoff(attempt, policy.baseMillis(), policy.capMillis());
            }
        }
    }

    /**
     * Rolls a transaction back in a {@code finally}: a transaction the server no longer knows (it restarted, or the
     * connection dropped) cannot be rolled back, and that must not hide the error that got here.
     */
    public static void rollbackQuietly(Transaction tx) {
        try {
            tx.rollback();
        } catch (RuntimeException gone) {
            // nothing to undo on the server: the transaction is gone with it
        }
    }
}

package io.keyranger.executor;

import io.keyranger.datastore.Retries;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one operation of a range with retries: transient errors back off and retry up to the policy's attempts; an
 * unreachable server is waited for (up to the policy's server-lost time) without using up the range's attempts, and
 * the job says once that it is waiting and once that the server is back.
 */
final class RangeAttempts {
    private static final Logger LOG = LoggerFactory.getLogger(RangeAttempts.class);
    private static final long SERVER_WAIT_CAP_MILLIS = 5_000;

    private final RetryPolicy retries;
    private final String jobId;
    private final JobListener listener;
    private final BooleanSupplier cancelled;
    private final BiConsumer<RangeNode, String> retried;
    private final BiConsumer<RangeNode, Exception> fail;
    private final AtomicBoolean serverLost = new AtomicBoolean();

    RangeAttempts(RetryPolicy retries, String jobId, JobListener listener, BooleanSupplier cancelled,
                  BiConsumer<RangeNode, String> retried, BiConsumer<RangeNode, Exception> fail) {
        this.retries = retries;
        this.jobId = jobId;
        this.listener = listener;
        this.cancelled = cancelled;
        this.retried = retried;
        this.fail = fail;
    }

    /** The operation's value, or empty when the node failed for good (and was marked failed). */
    <T> Optional<T> run(RangeNode node, Supplier<T> operation) {
        long unreachableSince = 0;
        for (int attempt = 1; ; attempt++) {
            try {
                T value = operation.get();
                if (unreachableSince != 0) {
                    serverBack();
                }
                return Optional.of(value);
            } catch (CancellationException | JobFencedException e) {
                throw e;
            } catch (RuntimeException e) {
                if (Retries.isServerUnreachable(e) && !cancelled.getAsBoolean()) {
                    long now = System.nanoTime();
                    unreachableSince = unreachableSince == 0 ? now : unreachableSince;
                    if (now - unreachableSince < TimeUnit.MILLISECONDS.toNanos(retries.serverLostMillis())) {
                        serverLost(describe(e));
                        retried.accept(node, "waiting for the server: " + describe(e));
                        if (!sleep(Retries.backoffMillis(Math.min(attempt, 8), retries.baseMillis(),
                                Math.min(retries.capMillis(), SERVER_WAIT_CAP_MILLIS)))) {
                            fail.accept(node, e);
                            return Optional.empty();
                        }
                        attempt = 0; // waiting for the server does not use up the range's attempts
                        continue;
                    }
                }
                if (!Retries.isTransient(e) || attempt >= retries.maxAttempts()) {
                    fail.accept(node, e);
                    return Optional.empty();
                }
                retried.accept(node, describe(e));
                if (!sleep(Retries.backoffMillis(attempt, retries.baseMillis(), retries.capMillis()))) {
                    fail.accept(node, e);
                    return Optional.empty();
                }
            }
        }
    }

    private void serverLost(String problem) {
        if (serverLost.compareAndSet(false, true)) {
            LOG.warn("Job {} is waiting for the server: {}", jobId, problem);
            listener.onServerStatus("Waiting for the server (" + problem + "); retrying with backoff. Everything "
                    + "committed is safe.");
        }
    }

    private void serverBack() {
        if (serverLost.compareAndSet(true, false)) {
            LOG.info("Job {}: the server is back", jobId);
            listener.onServerStatus(null);
        }
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** An error in one line: its type and the first line of its message. */
    static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message.lines().findFirst().orElse(""));
    }
}

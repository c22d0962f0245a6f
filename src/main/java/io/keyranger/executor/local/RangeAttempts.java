package io.keyranger.executor.local;

import io.keyranger.datastore.ServerErrors;
import io.keyranger.datastore.Retries;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.JobListener;
import io.keyranger.job.RetryPolicy;
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
public final class RangeAttempts {
    private static final Logger LOG = LoggerFactory.getLogger(RangeAttempts.class);

    private final RetryPolicy retries;
    private final String jobId;
    private final JobListener listener;
    private final BooleanSupplier cancelled;
    private final BiConsumer<RangeNode, String> retried;
    private final AtomicBoolean serverLost = new AtomicBoolean();

    public RangeAttempts(RetryPolicy retries, String jobId, JobListener listener, BooleanSupplier cancelled,
                  BiConsumer<RangeNode, String> retried) {
        this.retries = retries;
        this.jobId = jobId;
        this.listener = listener;
        this.cancelled = cancelled;
        this.retried = retried;
    }

    /**
     * The operation's value; it throws what the last attempt threw when retrying gives up. The loop is the one of
     * {@link Retries#call}; this reports its retries on the node and the server's absence to the job.
     */
    public <T> T run(RangeNode node, Supplier<T> operation) {
        return Retries.call(retries, new Retries.Observer() {
                @Override
                public void retrying(Throwable problem) {
                    retried.accept(node, describe(problem));
                }

                @Override
                public void waitingForServer(Throwable problem) {
                    serverLost(describe(problem));
                    retried.accept(node, "waiting for the server: " + describe(problem));
                }

                @Override
                public void serverBack() {
                    RangeAttempts.this.serverBack();
                }

                @Override
                public boolean cancelled() {
                    return cancelled.getAsBoolean();
                }
        }, operation);
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

    /** An error in one line, as a user reads it ({@link ServerErrors#describe}). */
    public static String describe(Throwable e) {
        return ServerErrors.describe(e);
    }
}

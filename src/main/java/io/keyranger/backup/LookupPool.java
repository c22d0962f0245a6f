package io.keyranger.backup;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads against the database kept in flight at once by a comparison (lookups of pages, scans of ranges), on named
 * daemon threads that end with it. A failed read rethrows its own exception where its result is awaited.
 */
final class LookupPool implements AutoCloseable {
    private final ExecutorService threads;

    LookupPool(int size, String name) {
        this.threads = Executors.newFixedThreadPool(Math.max(1, size), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    <T> Future<T> submit(Callable<T> read) {
        return threads.submit(read);
    }

    /** The read's result; its runtime exception as it was thrown, an interruption as a cancellation. */
    static <T> T await(Future<T> read) throws IOException {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}

package io.keyranger.ui.common;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import javafx.concurrent.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The app-wide pool for slow work: named daemon threads, and every failure no handler caught gets logged. */
public final class BackgroundExecutor implements TaskRunner, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundExecutor.class);

    private final ExecutorService pool;

    public BackgroundExecutor() {
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, "keyranger-bg-" + counter.incrementAndGet());
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((t, e) -> LOG.error("Uncaught error in {}", t.getName(), e));
            return thread;
        };
        this.pool = Executors.newCachedThreadPool(factory);
    }

    @Override
    public void run(Task<?> task) {
        task.exceptionProperty().addListener((obs, old, error) -> {
            if (error != null && !task.isCancelled()) { // cancelled work ends by throwing: asked for, not failed
                LOG.warn("Background task '{}' failed", task.getTitle(), error);
            }
        });
        try {
            pool.execute(task);
        } catch (RejectedExecutionException closing) {
            // the window is closing (the pool is shut down): a follow-up of work that just ended has no one to show
            // its result to, so it is not started
            LOG.debug("Not starting '{}': the app is closing", task.getTitle());
            task.cancel();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}

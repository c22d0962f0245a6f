package io.keyranger.support;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** Reads UI state on the FX thread, and waits for conditions that background tasks bring about. */
public final class Fx {
    private static final long POLL_MILLIS = 40;
    private Fx() {
    }

    public static <T> T get(Callable<T> read) {
        try {
            return WaitForAsyncUtils.asyncFx(read).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not read UI state", e);
        }
    }

    /** Makes {@code change} on the FX thread and returns once it is made. */
    public static void on(Runnable change) {
        get(() -> {
            change.run();
            return null;
        });
    }

    /**
     * Waits until {@code condition}, read on the FX thread, holds; a read that throws counts as not yet. It looks every
     * 40 ms, not TestFX's 10: each look runs on the FX thread, most of them a lookup over the whole scene, and a window
     * test spends much of its time waiting.
     */
    public static void waitUntil(int seconds, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(get(condition))) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                last = notYet;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + seconds + " s", last);
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for a condition", e);
            }
        }
    }
}

package io.keyranger.support;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** Reads UI state on the FX thread, and waits for conditions that background tasks bring about. */
public final class Fx {
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

    public static void waitUntil(int seconds, Callable<Boolean> condition) {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, () -> get(condition));
        } catch (Exception e) {
            throw new AssertionError("condition not met within " + seconds + " s", e);
        }
    }
}

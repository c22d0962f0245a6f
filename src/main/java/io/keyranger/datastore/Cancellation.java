package io.keyranger.datastore;

import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/** A cancellation check that long loops call between RPCs. */
@FunctionalInterface
public interface Cancellation {
    Cancellation NEVER = () -> false;

    boolean isCancelled();

    static Cancellation of(BooleanSupplier supplier) {
        return supplier::getAsBoolean;
    }

    /** Throws {@link CancellationException} when cancelled or when the thread was interrupted. */
    default void check() {
        if (isCancelled() || Thread.currentThread().isInterrupted()) {
            throw new CancellationException("cancelled");
        }
    }
}

package io.keyranger.job;

import java.util.function.LongSupplier;

/**
 * Lets workers through unless paused; paused workers wait until resumed. It keeps how long it stood paused, so that
 * a job's running time leaves its pauses out, as the clock a user watches does.
 */
public final class PauseGate {
    private final LongSupplier nanos;
    private boolean paused;
    private long pausedSince;
    private long pausedNanos;

    public PauseGate() {
        this(System::nanoTime);
    }

    /** A gate that reads time from {@code nanos}: tests drive a made-up timeline. */
    public PauseGate(LongSupplier nanos) {
        this.nanos = nanos;
    }

    public synchronized void pause() {
        if (!paused) {
            paused = true;
            pausedSince = nanos.getAsLong();
        }
    }

    public synchronized void resume() {
        if (paused) {
            pausedNanos += nanos.getAsLong() - pausedSince;
        }
        paused = false;
        notifyAll();
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    /** How long the gate has stood paused in all, a pause under way included. */
    public synchronized long pausedNanos() {
        return pausedNanos + (paused ? nanos.getAsLong() - pausedSince : 0);
    }

    public synchronized void awaitOpen() throws InterruptedException {
        while (paused) {
            wait();
        }
    }
}

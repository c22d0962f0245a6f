package io.keyranger.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    /** When the pause under way began, by the wall clock; a chart places the pauses where they fell. */
    private Instant pausedAt;
    private final List<Pause> pauses = new ArrayList<>();

    public PauseGate() {
        this(System::nanoTime);
    }

    /** A gate that reads running time from {@code nanos}: tests drive a made-up timeline. */
    public PauseGate(LongSupplier nanos) {
        this.nanos = nanos;
    }

    public synchronized void pause() {
        if (!paused) {
            paused = true;
            pausedSince = nanos.getAsLong();
            pausedAt = Instant.now();
        }
    }

    public synchronized void resume() {
        if (paused) {
            pausedNanos += nanos.getAsLong() - pausedSince;
            pauses.add(new Pause(pausedAt, Instant.now()));
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

    /** The times the gate stood paused, oldest first, a pause under way included up to now. */
    public synchronized List<Pause> pauses() {
        List<Pause> all = new ArrayList<>(pauses);
        if (paused) {
            all.add(new Pause(pausedAt, Instant.now()));
        }
        return List.copyOf(all);
    }

    public synchronized void awaitOpen() throws InterruptedException {
        while (paused) {
            wait();
        }
    }
}

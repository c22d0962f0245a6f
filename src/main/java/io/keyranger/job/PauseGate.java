package io.keyranger.job;

/**
 * Lets workers through unless paused; paused workers wait until resumed. It keeps how long it stood paused, so that
 * a job's running time leaves its pauses out, as the clock a user watches does.
 */
public final class PauseGate {
    private boolean paused;
    private long pausedSince;
    private long pausedNanos;

    public synchronized void pause() {
        if (!paused) {
            paused = true;
            pausedSince = System.nanoTime();
        }
    }

    public synchronized void resume() {
        if (paused) {
            pausedNanos += System.nanoTime() - pausedSince;
        }
        paused = false;
        notifyAll();
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    /** How long the gate has stood paused in all, a pause under way included. */
    public synchronized long pausedNanos() {
        return pausedNanos + (paused ? System.nanoTime() - pausedSince : 0);
    }

    public synchronized void awaitOpen() throws InterruptedException {
        while (paused) {
            wait();
        }
    }
}

package io.keyranger.job;

/** Lets workers through unless paused; paused workers wait until resumed. */
public final class PauseGate {
    private boolean paused;

    public synchronized void pause() {
        paused = true;
    }

    public synchronized void resume() {
        paused = false;
        notifyAll();
    }

    public synchronized boolean isPaused() {
        return paused;
    }

    public synchronized void awaitOpen() throws InterruptedException {
        while (paused) {
            wait();
        }
    }
}

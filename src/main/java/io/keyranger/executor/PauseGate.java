package io.keyranger.executor;

/** Lets workers through unless paused; paused workers wait until resumed. */
final class PauseGate {
    private boolean paused;

    synchronized void pause() {
        paused = true;
    }

    synchronized void resume() {
        paused = false;
        notifyAll();
    }

    synchronized boolean isPaused() {
        return paused;
    }

    synchronized void awaitOpen() throws InterruptedException {
        while (paused) {
            wait();
        }
    }
}

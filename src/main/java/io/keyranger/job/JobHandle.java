package io.keyranger.job;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** A running job: pause, resume, cancel, and its result when it ends. */
public final class JobHandle {
    private final String jobId;
    private final PauseGate gate;
    private final CompletableFuture<JobResult> result;
    private volatile boolean cancelled;

    public JobHandle(String jobId, PauseGate gate, CompletableFuture<JobResult> result) {
        this.jobId = jobId;
        this.gate = gate;
        this.result = result;
    }

    public String jobId() {
        return jobId;
    }

    /** Workers finish their current commit and then wait. */
    public void pause() {
        gate.pause();
    }

    public void resume() {
        gate.resume();
    }

    public boolean isPaused() {
        return gate.isPaused();
    }

    /** How long the job has stood paused in all: its running time leaves this out. */
    public long pausedNanos() {
        return gate.pausedNanos();
    }

    /** The times the job stood paused, by the wall clock, oldest first: a chart of its run leaves them out. */
    public List<Pause> pauses() {
        return gate.pauses();
    }

    /**
     * Stops the job now: no range starts and no page or commit begins after this; only the commits in flight end.
     * Every commit stays committed, and the job can be resumed from its ledgers.
     */
    public void cancel() {
        cancelled = true;
        gate.resume();
    }

    public boolean isCancelled() {
        return cancelled;
    }

    public CompletableFuture<JobResult> result() {
        return result;
    }

    /** Waits for the end of the job. */
    public JobResult await() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}

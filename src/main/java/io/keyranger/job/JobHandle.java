package io.keyranger.job;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/** A running job: pause, resume, cancel, and its result when it ends. */
public final class JobHandle {
    private final String jobId;
    private final PauseGate gate;
    private final CompletableFuture<JobResult> result;
    private final Supplier<List<RunThroughput.Point>> throughput;
    private volatile boolean cancelled;

    /** A job whose run draws no chart of its own (one already ended). */
    public JobHandle(String jobId, PauseGate gate, CompletableFuture<JobResult> result) {
        this(jobId, gate, result, List::of);
    }

    /** {@code throughput}: the run's chart so far, as its {@link ThroughputSampler} draws it. */
    public JobHandle(String jobId, PauseGate gate, CompletableFuture<JobResult> result,
                     Supplier<List<RunThroughput.Point>> throughput) {
        this.jobId = jobId;
        this.gate = gate;
        this.result = result;
        this.throughput = throughput;
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

    /** The run's throughput so far: entities read per second, as the run measured it, the chart its end stores. */
    public List<RunThroughput.Point> throughput() {
        return throughput.get();
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

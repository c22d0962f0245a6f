package io.keyranger.cli;

import io.keyranger.KeyRangerException;
import io.keyranger.datastore.Session;
import io.keyranger.job.RetryPolicy;
import io.keyranger.launch.Jobs;
import io.keyranger.testhooks.FaultInjector;
import io.keyranger.executor.cells.EngineSeams;
import io.keyranger.testhooks.HoldHook;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The hidden options tests drive the job commands with: faults injected into Datastore calls, workers held after some
 * chunks (inside a chunk's transaction, or between transactions), a short lease. {@link #jobs} applies them all in
 * one place; without them it is the product's own set-up.
 */
final class TestHooks {
    @Option(names = "--lease-seconds", hidden = true, defaultValue = "30", paramLabel = "S",
            description = "Testing only: how long this runner's lease lasts without renewal.")
    double leaseSeconds;

    @Option(names = "--hold-after-chunks", hidden = true, paramLabel = "N", descriptionKey = "hold-after-chunks")
    Integer holdAfterChunks;

    @Option(names = "--hold-between-chunks", hidden = true, paramLabel = "N", descriptionKey = "hold-between-chunks")
    Integer holdBetweenChunks;

    @Option(names = "--inject-faults", hidden = true, paramLabel = "rate=R,lost=R,latency=MS,seed=N",
            description = "Testing only: fail a share of Datastore calls, lose commit answers, add latency.")
    String injectFaults;

    private FaultInjector faults;

    /**
     * The jobs of {@code session}, with the faults injected into its calls (and retries patient enough for them), the
     * lease and the hold asked for; the hold says it holds on {@code err}.
     */
    Jobs jobs(Session session, PrintWriter err) {
        Session used = session;
        RetryPolicy retries = RetryPolicy.DEFAULT;
        if (injectFaults != null) {
            faults = FaultInjector.parse(injectFaults);
            used = session.wrap(faults::wrap);
            retries = new RetryPolicy(40, 5, 500);
        }
        if (holdAfterChunks != null && holdBetweenChunks != null) {
            throw new KeyRangerException("--hold-after-chunks and --hold-between-chunks hold a job at different "
                    + "places: give one of them.");
        }
        HoldHook.Between between = holdBetweenChunks == null ? null : HoldHook.between(holdBetweenChunks, err);
        if (between != null) {
            used = used.wrap(between.client());
        }
        Jobs jobs = new Jobs(used, retries, lease());
        if (holdAfterChunks != null) {
            jobs.seams(EngineSeams.NONE.withMapper(mapper -> HoldHook.inside(mapper, holdAfterChunks, err)));
        } else if (between != null) {
            jobs.seams(EngineSeams.NONE.withMapper(between::mapper));
        }
        return jobs;
    }

    /** With --inject-faults, after the job: how many calls failed and commit answers were lost. */
    void sayInjected(PrintWriter err) {
        if (faults != null) {
            err.printf("keyranger: injected %d failed calls and %d lost commit answers%n", faults.failures(),
                    faults.lostCommits());
        }
    }

    private Duration lease() {
        if (!(leaseSeconds >= 0.5 && leaseSeconds <= 3600)) {
            throw new KeyRangerException("--lease-seconds must be between 0.5 and 3600 (got " + leaseSeconds + ").");
        }
        return Duration.ofMillis(Math.round(leaseSeconds * 1000));
    }
}

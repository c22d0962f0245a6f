package io.keyranger.undo;

import io.keyranger.job.LeaseMode;
import io.keyranger.executor.PipelineJobs;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.cells.RevertMarks;
import io.keyranger.executor.lease.Holding;
import io.keyranger.executor.lease.JobLease;
import io.keyranger.executor.source.InputRun;
import io.keyranger.executor.store.JobPlans;
import io.keyranger.executor.store.JobStore;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobStatus;
import io.keyranger.job.RetryPolicy;
import io.keyranger.keys.KeyOrder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Consumer;

/**
 * A revert takes each job it reverts from whoever ran it, before it writes anything: in one transaction on the job's
 * fence it bumps the epoch, marks a job that was left running (its runner gone: killed, or its lease ran out) as
 * cancelled where it stopped, and records the revert; then it marks every cell ledger of the job ({@link RevertMarks}).
 * So a runner that comes back cannot record an end, stops at its next lease renewal, and commits none of the chunks it
 * had in flight (each commit reads its ledgers: one that landed before the mark left its undo record for the revert,
 * one after it finds the mark and writes nothing); and no resume goes on with a reverted job. A job whose runner is
 * alive is refused.
 */
final class RevertFence {
    private RevertFence() {
    }

    /** Refuses a job that is still running with a live runner; {@code asked} is the id the user gave. */
    static void checkEnded(Datastore datastore, JobStore.StoredJob job, String asked) {
        if (job.status() != JobStatus.RUNNING) {
            return;
        }
        new JobStore(datastore).holding(job.spec().jobId()).filter(Holding::live).ifPresent(h -> {
            throw running(job.spec().jobId(), asked, h.runner().describe(), h.expiresAt());
        });
    }

    /**
     * Takes each of {@code jobs} for revert {@code revertId}, a job's ledgers marked a server's transaction ({@code limits}) at a time; {@code said} hears of each job
     * that was left running.
     */
    static void take(Datastore datastore, KeyOrder order, ServerLimits limits, List<JobStore.StoredJob> jobs,
                     String asked, String revertId, Consumer<String> said) {
        JobStore store = new JobStore(datastore);
        for (JobStore.StoredJob job : jobs) {
            String id = job.spec().jobId();
            JobLease lease = store.lease(id, JobLease.DEFAULT_DURATION);
            boolean[] wasRunning = {false};
            try {
                // refused in the same transaction if a prune has marked the job's undo records removed: a prune
                // deletes them only after its mark, and marks no job whose revert has not ended done
                boolean taken = lease.take(LeaseMode.RESUME, fence -> fence == null
                        || !fence.contains(JobStore.UNDO_REMOVED_AT), b -> {
                    if (JobStatus.RUNNING.name().equals(b.build().getString("status"))) {
                        wasRunning[0] = true;
                        b.set("status", JobStatus.CANCELLED.name()).set("finishedAt", Timestamp.now());
                    }
                    return b.set(JobStore.REVERTED_BY, revertId);
                }, null, m -> { });
                if (!taken) {
                    throw new KeyRangerException("Job " + id + "'s undo records were removed (jobs --prune) just "
                            + "now: it cannot be reverted any more.");
                }
                store.fencedOnJob("release", lease, e -> List.of(lease.released()));
            } catch (JobBusyException e) {
                throw running(id, asked, e.holder(), e.expiresAt());
            } finally {
                lease.ended();
            }
            KeyOrder cut = InputRun.of(job.spec()).order(order); // the order its cells were cut in
            JobPlans.Stored plan = RetryPolicy.DEFAULT.call(() -> store.loadPlan(id, cut));
            RevertMarks.mark(datastore, id, plan.cells(), revertId, limits);
            if (wasRunning[0]) {
                said.accept(leftRunning(job));
            }
        }
    }

    /**
     * What a revert says of a job it found left running with no live lease. A Beam launch that did not wait for its
     * pipeline (--waitUntilFinish=false, a Flex Template) holds no lease while the pipeline runs, so for a job a Beam
     * runner worked on the runner may not be gone: it is not refused (a Beam job whose pipeline died would then never
     * be revertible, and the ledger marks keep the data right either way), but it is not said to be gone either.
     */
    static String leftRunning(JobStore.StoredJob job) {
        String id = job.spec().jobId();
        if (job.runners().contains(PipelineJobs.BEAM)) {
            return "Job " + id + " was left running and no runner holds its lease (killed, or a detached Beam "
                    + "pipeline still running): it is marked cancelled and reverted as far as it ran; pages still in "
                    + "flight commit nothing after this.";
        }
        return "Job " + id + " was left running, and its runner is gone: it is marked cancelled where it stopped and "
                + "reverted as far as it ran. A runner of it that comes back commits nothing more.";
    }

    private static KeyRangerException running(String id, String asked, String holder, Instant expiresAt) {
        return new KeyRangerException("Job " + id + " is still running: " + holder
                + " holds it, its lease renewed until " + expiresAt.truncatedTo(ChronoUnit.SECONDS) + ". "
                + "Stop it first (Ctrl-C where it runs; it ends cancelled) or let it finish, then run 'keyranger "
                + "revert " + asked + "' again. If that runner is gone for good, revert goes ahead once its lease "
                + "runs out.");
    }
}

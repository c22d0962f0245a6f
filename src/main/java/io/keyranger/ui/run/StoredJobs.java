package io.keyranger.ui.run;

import io.keyranger.job.ListedJob;
import io.keyranger.job.JobStatus;
import io.keyranger.launch.Inspection;
import io.keyranger.launch.Jobs;
import io.keyranger.job.RunThroughput;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javafx.animation.PauseTransition;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableMap;
import javafx.util.Duration;

/** The jobs stored on the connection: the Run tab's job list, and reading one job's tree and totals. */
final class StoredJobs {
    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final ObservableList<ListedJob> jobs = FXCollections.observableArrayList();
    private final ObservableMap<String, String> backups = FXCollections.observableHashMap();
    /** The job being followed, or null: following another job, or none, ends the earlier one's readings. */
    private String followed;
    /** Listings asked for so far: only the newest one's answer is shown, never an older one that came in late. */
    private long listings;

    StoredJobs(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
    }

    /** The jobs of the target's connection: what the Run tab starts, resumes, lists and inspects them with. */
    static Jobs jobsOf(KindTarget t) {
        return Jobs.on(t.session());
    }

    /**
     * Lists the jobs stored on the target's connection (none without a target). Listings run in the background side
     * by side; one asked for while a job ran that answers after one asked for once it ended would list the ended job
     * as running, so only the newest listing's answer is shown.
     */
    void refresh(KindTarget t) {
        long listing = ++listings;
        if (t == null) {
            jobs.clear();
            return;
        }
        Tasks.create("Listing jobs", () -> jobsOf(t).list()).onSuccess(listed -> {
            if (listing != listings) {
                return;
            }
            if (!backups.equals(listed.backups())) {
                backups.clear();
                backups.putAll(listed.backups());
            }
            if (!jobs.equals(listed.jobs())) { // read again every few seconds: most listings change nothing
                jobs.setAll(listed.jobs());
            }
        })
                .onError(e -> errors.accept("Cannot list jobs: " + ErrorMessages.of(e)))
                .run(tasks);
    }

    /**
     * A stored job as read back, and the throughput chart of its last run as it ended (none while it runs elsewhere):
     * the one its run drew live, or for a run elsewhere ({@link RunThroughput#of}) drawn from every cell's records, so
     * worked out off the FX thread with the reading.
     *
     * @param job        the job as read back
     * @param throughput the chart's points
     */
    record Reading(Inspection job, List<ThroughputPoint> throughput) {
        static Reading of(Inspection job) {
            // the chart the run drew live, when it ran here; else drawn from its cells' records (a Beam run's)
            List<RunThroughput.Point> points = job.lastRun() != null ? job.lastRun().throughput()
                    : RunThroughput.of(job.nodes(), job.finished(), job.ended() ? job.lastWallMillis() : 0,
                    job.lastPauses());
            return new Reading(job, points.stream().map(p -> new ThroughputPoint(p.seconds(), p.rate())).toList());
        }
    }

    /** Reads one job's tree, totals and chart in the background, then hands them to {@code shown} on the FX thread. */
    void inspect(KindTarget t, String jobId, Consumer<Reading> shown) {
        Tasks.create("Reading job " + jobId, () -> Reading.of(jobsOf(t).inspect(jobId)))
                .onSuccess(shown::accept)
                .onError(e -> errors.accept(ErrorMessages.of(e)))
                .run(tasks);
    }

    /** How often a job running elsewhere is read again. */
    static final Duration FOLLOW = Duration.seconds(2);

    /**
     * Inspects a job, and while it runs elsewhere (another process, a Beam pipeline) reads it again every
     * {@link #FOLLOW} until another job is followed, {@link #stopFollowing} is called or {@code shownHere} says no,
     * handing each reading to {@code shown}.
     */
    void follow(KindTarget t, String jobId, BooleanSupplier shownHere, Consumer<Reading> shown) {
        followed = jobId;
        read(t, jobId, () -> jobId.equals(followed) && shownHere.getAsBoolean(), shown);
    }

    /** Ends the readings of the job followed, if any. */
    void stopFollowing() {
        followed = null;
    }

    private void read(KindTarget t, String jobId, BooleanSupplier following,
                      Consumer<Reading> shown) {
        inspect(t, jobId, reading -> {
            if (!following.getAsBoolean()) {
                return;
            }
            shown.accept(reading);
            if (reading.job().status() == JobStatus.RUNNING) {
                PauseTransition again = new PauseTransition(FOLLOW);
                again.setOnFinished(e -> {
                    if (following.getAsBoolean()) {
                        read(t, jobId, following, shown);
                    }
                });
                again.play();
            }
        });
    }

    ObservableList<ListedJob> jobs() {
        return jobs;
    }

    /** Where the listed jobs that were backed up first were backed up to, by job id. */
    ObservableMap<String, String> backups() {
        return backups;
    }
}

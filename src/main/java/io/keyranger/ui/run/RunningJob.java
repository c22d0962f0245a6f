package io.keyranger.ui.run;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.ListedJob;
import io.keyranger.summary.JobOutcome;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.concurrent.Task;
import javafx.util.Duration;

/**
 * The job the Run tab runs here, from the command that launches it (Start, Back up first, Resume, Revert, Take over)
 * to its end: what is refused before it starts, the launch off the FX thread and what the tab says when it does not
 * start (with the offer to take over a job another runner holds), its events applied about ten times a second on the
 * FX thread, pause, resume and cancel, and what follows its end (the job a backup was run for, the listeners).
 * It shows on the tab's {@link JobDisplay} and never calls the tab: the {@link RunViewModel} owns it.
 */
final class RunningJob {
    static final Duration TICK = Duration.millis(100);

    private final ObservableValue<KindTarget> target;
    private final JobForm form;
    private final StartPrice startPrice;
    private final Supplier<PriceTable> prices;
    private final JobDisplay display;
    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final StoredJobs stored;
    private final ThroughputMeter meter;
    private final RunStatus status;
    private final ObjectProperty<TakeOverOffer> takeOverOffer = new SimpleObjectProperty<>();
    private Task<JobHandle> launching;
    private final Timeline ticker = new Timeline(new KeyFrame(TICK, e -> tick()));
    private CoalescingJobFeed feed;
    private JobHandle handle;
    /** What runs here now, as the toolbar names it ({@link TabJob#mapper}), or null while nothing runs. */
    private final ReadOnlyStringWrapper mapper = new ReadOnlyStringWrapper();
    /** What the launch said of the job before it ran (a revert: the job it took was left running), kept for its end. */
    private String launchNote = "";
    /** What the launch told the user before the job ran (a spec's unknown property, a failure retrying won't fix). */
    private final List<String> notices = new ArrayList<>();
    /** The job waiting for the backup that runs now, or null. */
    private AfterBackup afterBackup;
    /** Where the job that runs now was backed up first, once known (set off the FX thread as it starts), or null. */
    private final AtomicReference<String> backedUpTo = new AtomicReference<>();
    /** Who hears that a job run here ended (done, failed or cancelled): what shows the data it changed. */
    private final List<Consumer<FinishedJob>> whenFinished = new ArrayList<>();
    /** The job launched last: what it writes and over which kinds, told to {@link #whenFinished} once it ends. */
    private TabJob launched;
    /** Who waits off the FX thread for the job that runs now to end (a migration's step), or null. */
    private CompletableFuture<JobResult> step;

    /**
     * {@code target}, {@code form}, {@code startPrice} and {@code prices}: what a job starts on, with and at;
     * {@code display}: where it shows; {@code stored}: the job list, read again as jobs start and end.
     */
    RunningJob(ObservableValue<KindTarget> target, JobForm form, StartPrice startPrice, Supplier<PriceTable> prices,
               JobDisplay display, StoredJobs stored, TaskRunner tasks, Consumer<String> errors) {
        this.target = target;
        this.form = form;
        this.startPrice = startPrice;
        this.prices = prices;
        this.display = display;
        this.tasks = tasks;
        this.errors = errors;
        this.stored = stored;
        this.meter = display.meter();
        this.status = display.status();
        ticker.setCycleCount(Timeline.INDEFINITE);
    }

    /**
     * Plans and starts a job on the current target (one kind, or the checked kinds); planning runs off the FX thread.
     */
    void start() {
        launchOnTarget(true, t -> {
            TabJob job = form.kinds().isEmpty() ? TabJob.newJob(t, form.spec(t))
                    : TabJob.group(t, form.groupSpec(t), List.copyOf(form.kinds()));
            form.handedOverStarted();
            return job;
        });
    }

    /**
     * Backs the kind up, then runs the job on the form: the user confirmed once ("Back up first?"), so both run
     * without another question, one after the other, each followed here. The backup is a managed export of the kind
     * ({@link JobForm#backupBefore}); once it is done the job starts and records where it was backed up (as
     * {@code run --backup-to} does: {@code jobs} and the job list name it). A backup that fails or is cancelled
     * starts nothing.
     */
    void startBackedUp() {
        KindTarget t = target.getValue();
        if (t == null || status.isRunning()) {
            return;
        }
        JobSpec job;
        JobSpec backup;
        try {
            if (!form.kinds().isEmpty()) {
                throw new KeyRangerException("Back up first is offered for one kind: uncheck the kinds.");
            }
            job = form.spec(t);
            backup = form.backupBefore(job);
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        afterBackup = new AfterBackup(backup.jobId(), job, t);
        launch(TabJob.newJob(t, backup), true);
    }

    /** The job to start once backup {@code backupJobId} is done. */
    private record AfterBackup(String backupJobId, JobSpec job, KindTarget target) {
    }

    /** Resumes a stored job on the current connection. */
    void resume(String jobId) {
        launchOnTarget(false, t -> TabJob.resume(t, jobId, List.copyOf(stored.jobs())));
    }

    /** Reverts a stored job: a job of its own, followed like any other ({@link TabJob#revert}). */
    void revert(String jobId) {
        List<ListedJob> listed = List.copyOf(stored.jobs());
        launchOnTarget(false, t -> TabJob.revert(t, jobId, listed, message -> Platform.runLater(() -> {
            launchNote = " " + message;
            status.say(message);
        })));
    }

    /**
     * Takes a job from the runner that holds it and runs it here: at once ({@code now}; that runner stops at its next
     * lease renewal, and nothing it does is applied twice), or once its lease runs out. Waiting can be cancelled.
     */
    void takeOver(String jobId, boolean now) {
        takeOverOffer.set(null);
        List<ListedJob> listed = List.copyOf(stored.jobs());
        launchOnTarget(false, t -> TabJob.takeOver(t, jobId, now, listed, message -> Platform.runLater(
                () -> status.say(message))));
    }

    /**
     * Launches on the current connection, unless there is none or a job runs; a bad spec is said, not thrown.
     * {@code formJob}: whether it is the form's job (else a stored job's), which Start runs again if it does not start.
     */
    private void launchOnTarget(boolean formJob, Function<KindTarget, TabJob> launch) {
        KindTarget t = target.getValue();
        if (t == null || status.isRunning()) {
            return;
        }
        TabJob what;
        try {
            what = launch.apply(t);
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        launch(what, formJob);
    }

    /**
     * Runs {@code job} here, followed like any job (its tree, totals, Pause and Cancel), for a caller off the FX thread
     * that waits for its end ({@code ended}: a migration's step, or its revert): it completes with the job's result, or
     * fails when the job does not start (a job runs here already, or the launch refused it). On the FX thread.
     */
    void runStep(TabJob job, CompletableFuture<JobResult> ended) {
        if (status.isRunning()) {
            ended.completeExceptionally(new KeyRangerException("A job is running on the Run tab: let it end (or "
                    + "cancel it), then try again."));
            return;
        }
        step = ended;
        launch(job, false);
    }

    /** The pending offer to take a job over, or null. */
    ObjectProperty<TakeOverOffer> takeOverOfferProperty() {
        return takeOverOffer;
    }

    private void launch(TabJob launch, boolean formJob) {
        String jobId = launch.jobId();
        String message = launch.message();
        launched = launch;
        backedUpTo.set(null);
        launchNote = "";
        notices.clear();
        mapper.set(launch.mapper());
        stored.stopFollowing();
        display.clear();
        status.setTiming("");
        status.showTree(JobDisplay.NO_RANGES_YET);
        handle = null;
        feed = new CoalescingJobFeed();
        CoalescingJobFeed current = feed;
        status.setRunning(true);
        status.setCancelling(false);
        status.say(message);
        meter.restart();
        ticker.play();
        launching = Tasks.create(message, () -> launch.start(current, notice -> Platform.runLater(() -> {
                    if (feed == current) {
                        notices.add("warning: " + notice);
                        status.setProblems(String.join("\n", notices));
                    }
                })))
                .onSuccess(h -> {
                    if (feed != current) {
                        return; // it ended in a tick before this, and what it led to (its backed-up job) runs now
                    }
                    launching = null;
                    handle = h;
                    if (status.isCancelling()) { // Cancel came as it started: it stops before anything new
                        cancelStarted();
                    } else if (status.isRunning()) { // a job done already may have said so in a tick before this
                        meter.restart();
                        status.say("Job " + h.jobId() + " running");
                    }
                    stored.refresh(target.getValue()); // the running job is in the list too
                })
                .onError(e -> {
                    notLaunched(formJob, e instanceof JobBusyException ? "Job " + jobId + " is running elsewhere."
                            : "Could not start: " + ErrorMessages.of(e));
                    if (e instanceof JobBusyException busy) {
                        takeOverOffer.set(new TakeOverOffer(jobId, busy.getMessage()));
                    } else {
                        errors.accept(ErrorMessages.of(e));
                    }
                })
                .onCancelled(() -> notLaunched(formJob, "Stopped before the job started; nothing was run."))
                .run(tasks);
    }

    private void notLaunched(boolean formJob, String why) {
        launching = null;
        CompletableFuture<JobResult> waiting = step;
        step = null;
        if (waiting != null) {
            waiting.completeExceptionally(new KeyRangerException(why));
        }
        // the form's job is still the one Start runs; a stored job's was not taken up here
        status.showTree(formJob ? null : "Not started here");
        mapper.set(null);
        afterBackup = null;
        ticker.stop();
        status.setRunning(false);
        status.setCancelling(false);
        status.say(why);
    }

    /** Each worker stops after its current page; the clock stands still and the ranges show as paused. */
    void pause() {
        if (handle != null && status.isRunning() && !status.isCancelling()) {
            handle.pause();
            status.setPaused(true);
            meter.pause(System.nanoTime());
            status.say("Job " + handle.jobId() + " paused: each worker stops after its current page. Resume goes "
                    + "on; Cancel stops it.");
        }
    }

    void resumePaused() {
        if (handle != null && !status.isCancelling()) {
            handle.resume();
            status.setPaused(false);
            meter.resume(System.nanoTime());
            status.say("Job " + handle.jobId() + " running");
        }
    }

    /**
     * Stops the job: no range or page starts after this, the commits under way end, and the job can be resumed later.
     * Until it has ended it is "Cancelling…", and Pause and Cancel are off.
     */
    void cancel() {
        if (!status.isRunning() || status.isCancelling()) {
            return;
        }
        status.setCancelling(true);
        if (handle == null && launching != null) {
            launching.cancel(true); // e.g. waiting for another runner's lease: nothing was taken yet
            status.say("Cancelling: stopping before the job starts…"); // if it started already, it stops at once
            return;
        }
        if (handle != null) {
            cancelStarted();
        }
    }

    private void cancelStarted() {
        handle.cancel();
        meter.stopping(System.nanoTime());
        status.setPaused(false);
        status.say(cancellingWords(handle.jobId()));
    }

    private static String cancellingWords(String jobId) {
        return "Cancelling " + jobId + ": no range or page starts now; the commits under way end…";
    }

    /** Whether job {@code jobId} is the one running here now. */
    boolean runs(String jobId) {
        return handle != null && status.isRunning() && jobId.equals(handle.jobId());
    }

    /** One UI update: apply the coalesced batch, the totals, throughput and ETA. */
    void tick() {
        if (feed == null) {
            return;
        }
        LiveTree tree = display.tree();
        CoalescingJobFeed.Batch batch = feed.drain();
        tree.tick(batch.nodes(), batch.finished() != null);
        if (!batch.nodes().isEmpty() || batch.finished() != null) {
            tree.changed();
        }
        if (batch.totals() != null) {
            status.setTotals(batch.totals());
        }
        if (handle != null) {
            meter.show(handle.throughput());
        }
        status.setTiming(meter.tick(status.totals().getOrDefault("read", 0L), handle != null,
                launched == null ? -1 : launched.size(), status.isRunning()));
        if (batch.serverStatus() != null && handle != null) {
            status.say(status.isCancelling() ? cancellingWords(handle.jobId())
                    : batch.serverStatus().isEmpty()
                    ? "Job " + handle.jobId() + (status.isPaused() ? " paused" : " running")
                    : batch.serverStatus());
        }
        if (batch.finished() != null) {
            finished(batch.finished());
        }
    }

    private void finished(JobResult result) {
        ticker.stop();
        startPrice.jobRan();
        mapper.set(null);
        JobOutcome outcome = JobOutcome.of(result);
        status.setRunning(false);
        status.setPaused(false);
        status.setCancelling(false);
        status.showTree(JobDisplay.JOB_WITHOUT_RANGES);
        status.setTotals(outcome.totals());
        status.setTiming(JobWords.timing(outcome));
        List<String> problems = new ArrayList<>(notices); // what it was warned of stays beside what went wrong
        problems.addAll(outcome.report().lines());
        status.setProblems(String.join("\n", problems));
        String backup = backedUpTo.get();
        status.say(JobWords.finished(outcome, prices.get()) + (backup == null ? "" : " Backed up first to " + backup
                + ".") + launchNote);
        stored.refresh(target.getValue());
        FinishedJob ended = launched == null ? new FinishedJob(result, true, null, false)
                : new FinishedJob(result, launched.writes(), launched.kinds(), launched.keepsCounts());
        whenFinished.forEach(listener -> listener.accept(ended));
        CompletableFuture<JobResult> waiting = step;
        step = null;
        if (waiting != null) {
            waiting.complete(result);
        }
        AfterBackup next = afterBackup;
        afterBackup = null;
        if (next != null && next.backupJobId().equals(result.jobId())) {
            if (result.status() == JobStatus.DONE && result.output() != null) {
                launch(TabJob.backedUp(next.target(), next.job(), result.output(), backedUpTo::set), true);
            } else {
                status.say(JobWords.finished(outcome, prices.get()) + (result.status() == JobStatus.DONE
                        ? " The backup did not say which export it wrote, so " : " The backup did not finish, so ")
                        + next.job().mapper().template() + " over " + next.job().kind() + " was not started.");
            }
        }
    }

    /**
     * Calls {@code listener} on the FX thread each time a job run here ends, done, failed or cancelled, with what the
     * job wrote.
     */
    void whenFinished(Consumer<FinishedJob> listener) {
        whenFinished.add(listener);
    }

    /** What runs here now, as the toolbar names it ({@link TabJob#mapper}), or null while nothing runs. */
    ReadOnlyStringProperty mapper() {
        return mapper.getReadOnlyProperty();
    }
}

package io.keyranger.ui.run;

import io.keyranger.job.ListedJob;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobBusyException;
import io.keyranger.job.JobHandle;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.launch.Inspection;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.report.JobOutcome;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;
import javafx.util.Duration;

/**
 * The Run tab: starts, pauses, resumes and cancels jobs, and keeps the live split tree, the totals and the
 * throughput. Events from workers are coalesced and applied about ten times a second on the FX thread.
 */
public final class RunViewModel {
    static final Duration TICK = Duration.millis(100);
    /** What the empty tree says while a job here has no ranges yet (it plans them, or reads its file first). */
    static final String NO_RANGES_YET = "No ranges yet";
    /** What the empty tree says beside a job that ran or was inspected and has none to show. */
    static final String JOB_WITHOUT_RANGES = "No ranges to show for this job";

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final ObjectProperty<KindTarget> target = new SimpleObjectProperty<>();
    private final JobForm form = new JobForm();
    private volatile PriceTable prices = PriceTable.BUILT_IN;
    private final LiveTree tree = new LiveTree();
    private final ThroughputMeter meter = new ThroughputMeter();
    private final RunStatus status = new RunStatus();
    private final StoredJobs stored;
    private final ObjectProperty<TakeOverOffer> takeOverOffer = new SimpleObjectProperty<>();
    private Task<JobHandle> launching;
    private final Timeline ticker = new Timeline(new KeyFrame(TICK, e -> tick()));
    private CoalescingJobFeed feed;
    private JobHandle handle;
    /** What runs here now, as the toolbar names it ({@link JobLaunch#mapper}), or null while nothing runs. */
    private final ReadOnlyStringWrapper runningMapper = new ReadOnlyStringWrapper();
    private final ObservableValue<String> toolbarMapper = Bindings.createStringBinding(() ->
            runningMapper.get() != null ? runningMapper.get() : form.mapperSummary().getValue(), runningMapper,
            form.mapperSummary());
    /** What the launch said of the job before it ran (a revert: the job it took was left running), kept for its end. */
    private String launchNote = "";
    /** What Start's job costs and asks: the form's job over the target, at these prices. */
    private final StartPrice startPrice = new StartPrice(target, form, () -> prices);
    /** The job waiting for the backup that runs now, or null. */
    private AfterBackup afterBackup;
    /** Where the job that runs now was backed up first, once known (set off the FX thread as it starts), or null. */
    private final AtomicReference<String> backedUpTo = new AtomicReference<>();
    /** Who hears that a job run here ended (done, failed or cancelled): what shows the data it changed. */
    private final List<Consumer<FinishedJob>> whenFinished = new ArrayList<>();
    /** The job launched last: what it writes and over which kinds, told to {@link #whenFinished} once it ends. */
    private JobLaunch launched;

    public RunViewModel(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
        this.stored = new StoredJobs(tasks, errors);
        ticker.setCycleCount(Timeline.INDEFINITE);
        status.hintProperty().bind(Bindings.createStringBinding(() -> hint(target.get(), form.mapperJsonProperty()
                .get(), form.kinds()), target, form.mapperJsonProperty(), form.kinds()));
        status.nextJobProperty().bind(Bindings.createStringBinding(() -> JobWords.next(target.get(),
                form.mapperJsonProperty().get(), form.gqlProperty().get(), form.kinds()), target,
                form.mapperJsonProperty(), form.gqlProperty(), form.kinds()));
    }

    /**
     * Hands the tab a job to start (the Mapper tab's spec, a restore from the Backups tab): the form takes its mapper
     * and query, and unless a job runs here the tab shows that job, not started: no tree, totals, chart or summary of
     * the job shown before, which Start would not act on, and a tree that names the job Start runs.
     */
    public void handOver(String mapperJson, String gql) {
        form.gqlProperty().set(gql);
        form.mapperJsonProperty().set(mapperJson);
        if (status.isRunning()) {
            return; // the running job stays on show; once it ends, Start runs the job handed over
        }
        stored.stopFollowing();
        clearTree();
        status.setTiming("");
        status.say(null); // what Start runs
        status.showTree(null);
    }

    /**
     * What the summary says before any job: the kind to choose while none is chosen, the mapper to fix while its JSON
     * is not valid, else what Start runs.
     */
    static String hint(KindTarget target, String mapperJson, List<String> kinds) {
        if (target == null) {
            return "Choose a kind on the left, then Start.";
        }
        try {
            MapperSpec.parse(mapperJson);
        } catch (KeyRangerException e) {
            return JobForm.describe(mapperJson) + " Fix the mapper, then Start.";
        }
        return "Start runs " + JobForm.describe(mapperJson) + " over "
                + (kinds.isEmpty() ? target.kind() : String.join(", ", kinds)) + ".";
    }

    /** Plans and starts a job on the current target (one kind, or the checked kinds); planning runs off the FX thread. */
    public void start() {
        launchOnTarget(true, t -> form.kinds().isEmpty() ? JobLaunch.newJob(t, form.spec(t))
                : JobLaunch.group(t, form.groupSpec(t), List.copyOf(form.kinds())));
    }

    /**
     * Backs the kind up, then runs the job on the form: the user confirmed once ("Back up first?"), so both run
     * without another question, one after the other, each followed here. The backup is a managed export of the kind
     * ({@link JobForm#backupBefore}); once it is done the job starts and records where it was backed up (as
     * {@code run --backup-to} does: {@code jobs} and the job list name it). A backup that fails or is cancelled
     * starts nothing.
     */
    public void startBackedUp() {
        KindTarget t = target.get();
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
        launch(JobLaunch.newJob(t, backup), true);
    }

    /** The job to start once backup {@code backupJobId} is done. */
    private record AfterBackup(String backupJobId, JobSpec job, KindTarget target) {
    }

    /** Resumes a stored job on the current connection. */
    public void resume(String jobId) {
        launchOnTarget(false, t -> JobLaunch.resume(t, jobId, List.copyOf(stored.jobs())));
    }

    /** Reverts a stored job: a job of its own, followed like any other ({@link JobLaunch#revert}). */
    public void revert(String jobId) {
        List<ListedJob> listed = List.copyOf(stored.jobs());
        launchOnTarget(false, t -> JobLaunch.revert(t, jobId, listed, message -> Platform.runLater(() -> {
            launchNote = " " + message;
            status.say(message);
        })));
    }

    /**
     * Takes a job from the runner that holds it and runs it here: at once ({@code now}; that runner stops at its next
     * lease renewal, and nothing it does is applied twice), or once its lease runs out. Waiting can be cancelled.
     */
    public void takeOver(String jobId, boolean now) {
        takeOverOffer.set(null);
        List<ListedJob> listed = List.copyOf(stored.jobs());
        launchOnTarget(false, t -> JobLaunch.takeOver(t, jobId, now, listed, message -> Platform.runLater(
                () -> status.say(message))));
    }

    /**
     * Launches on the current connection, unless there is none or a job runs; a bad spec is said, not thrown.
     * {@code formJob}: whether it is the form's job (else a stored job's), which Start runs again if it does not start.
     */
    private void launchOnTarget(boolean formJob, Function<KindTarget, JobLaunch> launch) {
        KindTarget t = target.get();
        if (t == null || status.isRunning()) {
            return;
        }
        JobLaunch what;
        try {
            what = launch.apply(t);
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        launch(what, formJob);
    }

    /** The pending offer to take a job over, or null. */
    public ObjectProperty<TakeOverOffer> takeOverOfferProperty() {
        return takeOverOffer;
    }

    private void launch(JobLaunch launch, boolean formJob) {
        String jobId = launch.jobId();
        String message = launch.message();
        launched = launch;
        backedUpTo.set(null);
        launchNote = "";
        runningMapper.set(launch.mapper());
        stored.stopFollowing();
        clearTree();
        status.setTiming("");
        status.showTree(NO_RANGES_YET);
        handle = null;
        feed = new CoalescingJobFeed();
        CoalescingJobFeed current = feed;
        status.setRunning(true);
        status.say(message);
        meter.restart();
        ticker.play();
        launching = Tasks.create(message, () -> launch.start(current))
                .onSuccess(h -> {
                    if (feed != current) {
                        return; // it ended in a tick before this, and what it led to (its backed-up job) runs now
                    }
                    launching = null;
                    handle = h;
                    if (status.isRunning()) { // a job done already may have said so in a tick before this
                        meter.restart();
                        status.say("Job " + h.jobId() + " running");
                    }
                    refreshJobs(); // the running job is in the list too
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
        // the form's job is still the one Start runs; a stored job's was not taken up here
        status.showTree(formJob ? null : "Not started here");
        runningMapper.set(null);
        afterBackup = null;
        ticker.stop();
        status.setRunning(false);
        status.say(why);
    }

    /** Each worker stops after its current page; the clock stands still and the ranges show as paused. */
    public void pause() {
        if (handle != null && status.isRunning()) {
            handle.pause();
            status.setPaused(true);
            meter.pause(System.nanoTime());
            status.say("Job " + handle.jobId() + " paused: each worker stops after its current page. Resume goes "
                    + "on; Cancel stops it.");
        }
    }

    public void resumePaused() {
        if (handle != null) {
            handle.resume();
            status.setPaused(false);
            meter.resume(System.nanoTime());
            status.say("Job " + handle.jobId() + " running");
        }
    }

    /** Stops at the next page boundary; the job can be resumed later. */
    public void cancel() {
        if (handle == null && launching != null) {
            launching.cancel(true); // e.g. waiting for another runner's lease: nothing was taken yet
            return;
        }
        if (handle != null && status.isRunning()) {
            handle.cancel();
            meter.stopping(System.nanoTime());
            status.setPaused(false);
            status.say("Cancelling " + handle.jobId() + " at the next page boundary…");
        }
    }

    /** Lists the jobs stored on the current connection. */
    public void refreshJobs() {
        stored.refresh(target.get());
    }

    /**
     * Shows a stored job's tree and persisted totals without running it; while the job is running elsewhere (another
     * process, a Beam pipeline on Dataflow), follows it until it ends, another job is inspected, or a job starts here.
     */
    public void inspect(String jobId) {
        KindTarget t = target.get();
        if (t == null || status.isRunning()) {
            return;
        }
        stored.follow(t, jobId, () -> !status.isRunning(), reading -> {
            Inspection inspection = reading.job();
            clearTree();
            status.showTree(JOB_WITHOUT_RANGES);
            tree.apply(inspection.nodes());
            tree.changed();
            status.setTotals(inspection.totals());
            // its last run as it ended, the figures its summary gave: no ETA, and the chart over the whole run
            status.setTiming(inspection.ended() ? JobWords.timing(inspection.lastWallMillis() / 1000.0) : "");
            meter.points().setAll(reading.throughput());
            status.say(JobWords.inspected(inspection));
        });
    }

    /** One UI update: apply the coalesced batch, the totals, throughput and ETA. */
    void tick() {
        if (feed == null) {
            return;
        }
        CoalescingJobFeed.Batch batch = feed.drain();
        tree.tick(batch.nodes(), batch.finished() != null);
        if (!batch.nodes().isEmpty() || batch.finished() != null) {
            tree.changed();
        }
        if (batch.totals() != null) {
            status.setTotals(batch.totals());
        }
        KindTarget t = target.get();
        status.setTiming(meter.tick(status.totals().getOrDefault("read", 0L), handle != null,
                t == null ? -1 : t.countOrUnknown(), status.isRunning()));
        if (batch.serverStatus() != null && handle != null) {
            status.say(batch.serverStatus().isEmpty() ? "Job " + handle.jobId() + (status.isPaused() ? " paused" : " running")
                    : batch.serverStatus());
        }
        if (batch.finished() != null) {
            finished(batch.finished());
        }
    }

    private void finished(JobResult result) {
        ticker.stop();
        startPrice.jobRan();
        runningMapper.set(null);
        JobOutcome outcome = JobOutcome.of(result);
        status.setRunning(false);
        status.setPaused(false);
        status.showTree(JOB_WITHOUT_RANGES);
        status.setTotals(outcome.totals());
        status.setTiming(JobWords.timing(outcome));
        status.setProblems(String.join("\n", outcome.report().lines()));
        String backup = backedUpTo.get();
        status.say(JobWords.finished(outcome, prices) + (backup == null ? "" : " Backed up first to " + backup + ".")
                + launchNote);
        refreshJobs();
        FinishedJob ended = launched == null ? new FinishedJob(result, true, null)
                : new FinishedJob(result, launched.writes(), launched.kinds());
        whenFinished.forEach(listener -> listener.accept(ended));
        AfterBackup next = afterBackup;
        afterBackup = null;
        if (next != null && next.backupJobId().equals(result.jobId())) {
            if (result.status() == JobStatus.DONE && result.output() != null) {
                launch(JobLaunch.backedUp(next.target(), next.job(), result.output(), backedUpTo::set), true);
            } else {
                status.say(JobWords.finished(outcome, prices) + (result.status() == JobStatus
                        .DONE ? " The backup did not say which export it wrote, so " : " The backup did not finish, so ")
                        + next.job().mapper().template() + " over " + next.job().kind() + " was not started.");
            }
        }
    }

    /**
     * Calls {@code listener} on the FX thread each time a job run here ends, done, failed or cancelled, with what the
     * job wrote.
     */
    public void whenFinished(Consumer<FinishedJob> listener) {
        whenFinished.add(listener);
    }

    /** Tells the tree's watchers (the key-space map) that rows changed outside a tick (the start-up warm-up). */
    void treeChanged() {
        tree.changed();
    }

    void clearTree() {
        tree.clear();
        tree.changed();
        meter.clear();
        status.setTotals(Map.of());
        status.setProblems("");
    }

    /** Whether a job is running now (the window asks before closing). */
    public boolean isRunning() {
        return status.isRunning();
    }

    public ObjectProperty<KindTarget> targetProperty() {
        return target;
    }

    public JobForm form() {
        return form;
    }

    /** The price of the job Start runs, and what the user must agree to before it runs. */
    public StartPrice startPrice() {
        return startPrice;
    }

    /** Bumped whenever the tree's rows changed (once per coalesced tick at most): when the key-space map redraws. */
    public ReadOnlyIntegerProperty treeVersionProperty() {
        return tree.versionProperty();
    }

    public ObservableList<NodeRow> roots() {
        return tree.roots();
    }

    LiveTree tree() {
        return tree;
    }

    public ObservableList<ThroughputPoint> throughput() {
        return meter.points();
    }

    public ObservableList<ListedJob> pastJobs() {
        return stored.jobs();
    }

    /**
     * A listed job's status in words: the stored one ({@link ListedJob#describeStatus}), but for the job running
     * here while it is paused, which is stored as running.
     */
    public String describeStatus(ListedJob job) {
        boolean here = handle != null && status.isRunning() && job.spec().jobId().equals(handle.jobId());
        return here && status.isPaused() && job.status() == JobStatus.RUNNING ? "paused" : job.describeStatus();
    }

    /** What the toolbar names: the job running here, or else the form's mapper, the next job's. */
    public ObservableValue<String> toolbarMapper() {
        return toolbarMapper;
    }

    /** Where a listed job was backed up first (recorded with the job), or null. */
    public String backupOf(String jobId) {
        return stored.backups().get(jobId);
    }

    public void setPrices(PriceTable prices) {
        this.prices = prices;
    }

    /** The prices estimates and summaries use. */
    public PriceTable prices() {
        return prices;
    }

    /** What the tab shows of the job: its summary line, totals, timing and problems, and whether it runs or pauses. */
    public RunStatus status() {
        return status;
    }
}

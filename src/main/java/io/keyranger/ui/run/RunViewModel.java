package io.keyranger.ui.run;

import javafx.application.Platform;
import java.util.concurrent.CompletableFuture;
import io.keyranger.launch.JobRequest;
import io.keyranger.job.JobResult;
import io.keyranger.datastore.Session;
import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.job.ListedJob;
import io.keyranger.launch.Inspection;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.TaskRunner;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.value.ObservableValue;
import javafx.collections.ObservableList;

/**
 * The Run tab: the job it runs ({@link RunningJob}: started, paused, resumed, cancelled), the job list, and what the
 * tab shows of a job, run here or inspected: the live split tree, the totals and the throughput.
 */
public final class RunViewModel {

    private final ObjectProperty<KindTarget> target = new SimpleObjectProperty<>();
    private final JobForm form = new JobForm();
    private volatile PriceTable prices = PriceTable.BUILT_IN;
    private final LiveTree tree = new LiveTree();
    private final ThroughputMeter meter = new ThroughputMeter();
    private final RunStatus status = new RunStatus();
    /** What the tab shows of a job: the job run here reports to it, and an inspected job shows on it. */
    private final JobDisplay display = new JobDisplay(tree, meter, status);
    private final StoredJobs stored;
    /** The job run here: its launch, its events, pause, resume and cancel, and what follows its end. */
    private final RunningJob job;
    private final ObservableValue<String> toolbarMapper;
    /** What Start's job costs and asks: the form's job over the target, at these prices. */
    private final StartPrice startPrice = new StartPrice(target, form, () -> prices);

    public RunViewModel(TaskRunner tasks, Consumer<String> errors) {
        this.stored = new StoredJobs(tasks, errors);
        this.job = new RunningJob(target, form, startPrice, () -> prices, display, stored, tasks, errors);
        this.toolbarMapper = Bindings.createStringBinding(() -> job.mapper().get() != null ? job.mapper().get()
                : form.mapperSummary().getValue(), job.mapper(), form.mapperSummary());
        status.hintProperty().bind(Bindings.createStringBinding(() -> hint(target.get(), form.mapperJsonProperty()
                .get(), form.kinds()), target, form.mapperJsonProperty(), form.kinds()));
        status.nextJobProperty().bind(Bindings.createStringBinding(() -> JobWords.next(target.get(),
                form.mapperJsonProperty().get(), form.gqlProperty().get(), form.kinds()), target,
                form.mapperJsonProperty(), form.gqlProperty(), form.kinds()));
    }

    /**
     * Hands the tab a job to start (the Mapper tab's spec and query): the form takes its mapper and query, and unless
     * a job runs here the tab shows that job, not started: no tree, totals, chart or summary of the job shown before,
     * which Start would not act on, and a tree that names the job Start runs.
     */
    public void handOver(String mapperJson, String gql) {
        form.gqlProperty().set(gql);
        form.mapperJsonProperty().set(mapperJson);
        showHandedOver();
    }

    /**
     * Hands the tab a whole job to start (a restore from the Backups tab): Start runs it under its id, with its
     * settings, as {@link #handOver(String, String)} shows it.
     */
    public void handOver(JobSpec job) {
        form.handOver(job);
        showHandedOver();
    }

    private void showHandedOver() {
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
        String problem = JobForm.problemOf(mapperJson);
        if (!problem.isEmpty()) {
            return problem + " Fix the mapper, then Start.";
        }
        return "Start runs " + JobForm.describe(mapperJson) + " over "
                + (kinds.isEmpty() ? target.kind() : String.join(", ", kinds)) + ".";
    }

    /** Plans and starts a job on the current target (one kind, or the checked kinds); planning runs off the FX thread. */
    public void start() {
        job.start();
    }

    /** Backs the kind up, then runs the job on the form, as {@link RunningJob#startBackedUp} says. */
    public void startBackedUp() {
        job.startBackedUp();
    }

    /**
     * Resumes a stored job on the current connection; it runs with its own settings, so the settings bar shows them,
     * not the form's.
     */
    public void resume(String jobId) {
        stored.jobs().stream().filter(j -> j.spec().jobId().equals(jobId)).findFirst()
                .ifPresent(listed -> form.showSettingsOf(listed.spec()));
        job.resume(jobId);
    }

    /** Reverts a stored job: a job of its own, followed like any other ({@link TabJob#revert}). */
    public void revert(String jobId) {
        job.revert(jobId);
    }

    /**
     * Runs {@code request} on {@code session} here, followed like any job, named {@code label}; for a caller off the
     * FX thread that waits for it (a migration's step): the future ends with the job's result, or fails when it does
     * not start. Any thread.
     */
    public CompletableFuture<JobResult> runStep(Session session, JobRequest request, String label) {
        CompletableFuture<JobResult> ended = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                job.runStep(TabJob.of(session, request, label), ended);
            } catch (RuntimeException e) {
                ended.completeExceptionally(e);
            }
        });
        return ended;
    }

    /** Takes a job from the runner that holds it and runs it here, as {@link RunningJob#takeOver} says. */
    public void takeOver(String jobId, boolean now) {
        job.takeOver(jobId, now);
    }

    /** The pending offer to take a job over, or null. */
    public ObjectProperty<TakeOverOffer> takeOverOfferProperty() {
        return job.takeOverOfferProperty();
    }

    /** Each worker stops after its current page; the clock stands still and the ranges show as paused. */
    public void pause() {
        job.pause();
    }

    public void resumePaused() {
        job.resumePaused();
    }

    /** Stops the job: nothing new starts, the commits under way end; the job can be resumed later. */
    public void cancel() {
        job.cancel();
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
            status.showTree(JobDisplay.JOB_WITHOUT_RANGES);
            // the tree its last run here split into, as it ended; else the cells stored of it
            tree.apply(inspection.lastRun() != null && !inspection.lastRun().ranges().isEmpty()
                    ? inspection.lastRun().ranges() : inspection.nodes());
            tree.changed();
            status.setTotals(inspection.totals());
            // its last run as it ended, the figures its summary gave: no ETA, and the chart over the whole run
            status.setTiming(inspection.ended() ? JobWords.timing(inspection.lastWallMillis() / 1000.0) : "");
            meter.points().setAll(reading.throughput());
            status.say(JobWords.inspected(inspection));
        });
    }

    /**
     * Calls {@code listener} on the FX thread each time a job run here ends, done, failed or cancelled, with what the
     * job wrote.
     */
    public void whenFinished(Consumer<FinishedJob> listener) {
        job.whenFinished(listener);
    }

    /** Tells the tree's watchers (the key-space map) that rows changed outside a tick (the start-up warm-up). */
    void treeChanged() {
        tree.changed();
    }

    void clearTree() {
        display.clear();
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
    public String describeStatus(ListedJob listed) {
        return job.runs(listed.spec().jobId()) && status.isPaused() && listed.status() == JobStatus.RUNNING ? "paused"
                : listed.describeStatus();
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

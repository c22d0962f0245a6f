package io.keyranger.ui.shards;

import io.keyranger.datastore.EntityCount;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.sharding.Balance;
import io.keyranger.sharding.PlanRequest;
import io.keyranger.sharding.PlannedRange;
import io.keyranger.sharding.RangeCounter;
import io.keyranger.sharding.ShardPlan;
import io.keyranger.sharding.ShardPlanner;
import io.keyranger.sharding.ShardPreview;
import io.keyranger.sharding.TotalEstimate;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.KindTarget;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;
import javafx.concurrent.WorkerStateEvent;

/** The Shards tab: plans the selected kind, shows both plans and their balance, and counts ranges on demand. */
public final class ShardsViewModel {
    private static final int COUNT_PARALLELISM = 4;

    private final TaskRunner tasks;
    private final StatusModel status;
    private final Consumer<String> errors;
    private final IntegerProperty shards = new SimpleIntegerProperty(16);
    private final IntegerProperty oversample = new SimpleIntegerProperty(PlanRequest.DEFAULT_OVERSAMPLE);
    private final ObjectProperty<KindTarget> target = new SimpleObjectProperty<>();
    private final ReadOnlyObjectWrapper<ShardPreview> preview = new ReadOnlyObjectWrapper<>();
    private final ObservableList<PlannedRange> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("Select a kind, then Plan.");
    private final ReadOnlyStringWrapper balance = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private Task<?> running;

    public ShardsViewModel(TaskRunner tasks, StatusModel status, Consumer<String> errors) {
        this.tasks = tasks;
        this.status = status;
        this.errors = errors;
        target.addListener((obs, old, now) -> {
            cancel();
            show(null);
            summary.set(now == null ? "Select a kind, then Plan." : "Plan " + now.kind() + " into shards.");
        });
    }

    public void plan() {
        KindTarget t = target.get();
        if (t == null || busy.get()) {
            return;
        }
        PlanRequest request;
        try {
            request = new PlanRequest(t.namespace(), t.kind(), List.of(), shards.get(), oversample.get());
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        EntityCount known = t.knownCount().get();
        TotalEstimate knownTotal = known == null ? null : new TotalEstimate(known.count(),
                known.method() == EntityCount.Method.AGGREGATION ? TotalEstimate.Method.COUNT
                        : TotalEstimate.Method.EXACT_SCAN);
        run(Tasks.create("Planning " + t.kind(), context -> new ShardPlanner(t.session().datastore(), t.session().order())
                .preview(request, knownTotal,
                        (done, all) -> context.progress(done, all, "Sampling and planning " + t.kind() + "…"),
                        context::isCancelled)).onSuccess(this::show).build());
    }

    /**
     * Counts every range of both plans exactly, in parallel: each range's count fills in its row and bar as it comes,
     * and the keys counted so far move the progress within a long range. Cancel keeps the ranges already counted; a
     * count started again counts only the others.
     */
    public void countExactly() {
        ShardPreview current = preview.get();
        KindTarget t = target.get();
        if (current == null || t == null || busy.get()) {
            return;
        }
        int scatterRanges = current.scatter().ranges().size();
        int total = scatterRanges + current.lexicographic().ranges().size();
        // what is left to read, as estimated: the progress bar moves with the keys counted against it
        long toRead = Math.max(1, Stream.of(current.scatter(), current.lexicographic())
                .flatMap(p -> p.ranges().stream()).filter(r -> r.exact() == null).mapToLong(PlannedRange::size).sum());
        run(Tasks.create("Counting ranges", context -> {
            RangeCounter counter = new RangeCounter(new KeyCounter(t.session().datastore()), COUNT_PARALLELISM);
            CountProgress progress = new CountProgress(context, total, toRead);
            ShardPlan scatter = counter.countExactly(current.scatter(), current.request(),
                    progress.pass(0, range -> fillIn(current, range, true)), context::isCancelled);
            progress.passDone();
            ShardPlan lexicographic = counter.countExactly(current.lexicographic(), current.request(),
                    progress.pass(scatterRanges, range -> fillIn(current, range, false)), context::isCancelled);
            return current.withPlans(scatter, lexicographic);
        }).onSuccess(this::show).onCancelled(() -> {
            ShardPreview shown = preview.get();
            long counted = shown == null ? 0 : Stream.of(shown.scatter(), shown.lexicographic())
                    .flatMap(p -> p.ranges().stream()).filter(r -> r.exact() != null).count();
            summary.set(String.format("Counting cancelled: %d of %d ranges counted. Count exactly again to count "
                    + "the others.", counted, total));
        }).build());
    }

    /** One range's count, from a counting thread: shown in its row and bar if its plan is still the one on show. */
    private void fillIn(ShardPreview counting, PlannedRange range, boolean scatter) {
        Platform.runLater(() -> {
            ShardPreview shown = preview.get();
            if (shown == null || shown.request() != counting.request() || !busy.get()) {
                return; // another plan is on show, or the count ended: its result (or what was counted) is there
            }
            show(scatter ? shown.withPlans(shown.scatter().withRange(range), shown.lexicographic())
                    : shown.withPlans(shown.scatter(), shown.lexicographic().withRange(range)));
        });
    }

    public void cancel() {
        if (running != null && running.isRunning()) {
            running.cancel();
        }
    }

    private <T> void run(Task<T> task) {
        busy.set(true);
        running = task;
        // beside the task's own handlers (a cancelled count says what it kept), not in their place
        task.addEventHandler(WorkerStateEvent.WORKER_STATE_FAILED, e -> {
            busy.set(false);
            errors.accept(ErrorMessages.of(task.getException()));
        });
        task.addEventHandler(WorkerStateEvent.WORKER_STATE_CANCELLED, e -> busy.set(false));
        task.runningProperty().addListener((obs, was, is) -> {
            if (!is) {
                busy.set(false);
            }
        });
        status.track(task);
        tasks.run(task);
    }

    private void show(ShardPreview value) {
        preview.set(value);
        if (value == null) {
            rows.clear();
            balance.set("");
            return;
        }
        rows.setAll(value.scatter().ranges());
        // a plan from an exact scan names no sample count: there were none, or too few (the notes say which)
        summary.set(String.format("%s: %d ranges from %s. %s.%s",
                value.request().kind(), value.scatter().ranges().size(), value.scatter().method()
                        == ShardPlan.Method.SCATTER ? String.format("%,d scatter samples", value.samples())
                        : "an exact keys-only scan", value.total().describe(),
                value.notes().isEmpty() ? "" : " " + String.join(" ", value.notes())));
        balance.set(describe(name(value.scatter()), value.scatter()) + "     "
                + describe(name(value.lexicographic()), value.lexicographic()));
    }

    /**
     * A plan's name in the tab, after how it was made: "Scatter", "Exact" (from an exact scan, when scatter samples
     * are too few or the server has none, as the Firestore emulator) or "Lexicographic".
     */
    static String name(ShardPlan plan) {
        return switch (plan.method()) {
            case SCATTER -> "Scatter";
            case EXACT_QUANTILES -> "Exact";
            case LEXICOGRAPHIC -> "Lexicographic";
        };
    }

    /** A plan's series in the tab's chart: its name, and whether its sizes are counted or estimated. */
    public static String seriesName(ShardPlan plan) {
        return name(plan) + " (" + sizes(plan) + ")";
    }

    /**
     * What a plan's sizes are: all counted ("exact"), none ("estimated"), or some, after a count was cancelled (they
     * are not called estimated then, nor exact).
     */
    private static String sizes(ShardPlan plan) {
        long counted = plan.ranges().stream().filter(r -> r.exact() != null).count();
        return plan.hasExactCounts() ? "exact" : counted == 0 ? "estimated"
                : counted + " of " + plan.ranges().size() + " counted, the rest estimated";
    }

    private static String describe(String name, ShardPlan plan) {
        Balance b = plan.balance();
        return String.format("%s: max/mean %.2f, cv %.2f (%s)", name, b.maxOverMean(), b.cv(), sizes(plan));
    }

    public IntegerProperty shardsProperty() {
        return shards;
    }

    public IntegerProperty oversampleProperty() {
        return oversample;
    }

    public ObjectProperty<KindTarget> targetProperty() {
        return target;
    }

    public ReadOnlyObjectProperty<ShardPreview> previewProperty() {
        return preview.getReadOnlyProperty();
    }

    public ObservableList<PlannedRange> rows() {
        return rows;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty balanceProperty() {
        return balance.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /**
     * A count's progress in the status bar, from the counting threads: ranges counted of all, and the keys counted
     * so far against the estimate of what is left, page by page, so the bar moves within a long range.
     */
    private static final class CountProgress {
        private final Tasks.Context context;
        private final int total;
        private final long toRead;
        private final AtomicInteger ranges = new AtomicInteger();
        /** Keys counted by the passes (plans) that ended, and by the one counting now. */
        private final AtomicLong earlier = new AtomicLong();
        private final AtomicLong now = new AtomicLong();

        CountProgress(Tasks.Context context, int total, long toRead) {
            this.context = context;
            this.total = total;
            this.toRead = toRead;
        }

        /** The listener of one plan's pass, whose ranges come after {@code before} others. */
        RangeCounter.Listener pass(int before, Consumer<PlannedRange> counted) {
            return new RangeCounter.Listener() {
                @Override
                public void counted(PlannedRange range, int done, int all) {
                    ranges.accumulateAndGet(before + done, Math::max);
                    counted.accept(range);
                    report();
                }

                @Override
                public void keys(long counted) {
                    now.accumulateAndGet(counted, Math::max);
                    report();
                }
            };
        }

        void passDone() {
            earlier.addAndGet(now.getAndSet(0));
        }

        /**
         * Reads the figures and hands on the message as one step: counting threads report at once, and a message
         * made from figures read before another thread's update must not land after that thread's message.
         */
        private synchronized void report() {
            long keys = earlier.get() + now.get();
            context.progress(Math.min(keys, toRead), toRead, String.format("Counting ranges: %d / %d, %,d keys "
                    + "counted", ranges.get(), total, keys));
        }
    }
}

package io.keyranger.ui.main;

import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.EntityCount;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import io.keyranger.ui.kinds.KindItem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.value.ObservableBooleanValue;
import javafx.concurrent.Task;

/**
 * The kind list's counts: kinds counted one after the other in one background task (a keys-only scan where the server
 * has no COUNT), its progress in the status bar, cancellable. A count made again (after a job) keeps showing the
 * last one until the new one is known. Counts of a kind may overlap (the listing's, a job's recount): only the one
 * asked for last shows, so a count begun before a job that ends after its recount never shows the kind as it was.
 */
final class KindCounts {
    private final TaskRunner tasks;
    private final StatusModel status;
    private final Consumer<String> errors;
    /** Whether the browser is reading a page: counts wait for it between batches. */
    private volatile boolean pageLoading;
    /** The counts under way (a job's recount may run beside the listing's). */
    private final List<Task<?>> counting = new ArrayList<>();
    /** By kind, the latest count asked for: an earlier one still under way is stale, skipped or dropped. */
    private final Map<String, Long> generations = new ConcurrentHashMap<>();

    KindCounts(TaskRunner tasks, StatusModel status, Consumer<String> errors, ObservableBooleanValue pageLoads) {
        this.tasks = tasks;
        this.status = status;
        this.errors = errors;
        pageLoads.addListener((obs, was, now) -> pageLoading = now);
    }

    /** Stops the counts under way, if any (another namespace or moment is listed). */
    void cancel() {
        counting.forEach(Task::cancel);
        counting.clear();
    }

    /** Counts {@code items} through {@code source}; a count under way goes on (cancel it first to replace it). */
    void count(DatastoreGateway source, String namespace, List<KindItem> items) {
        // read on the FX thread: a kind counted before keeps its count on show, not a partial one, until the new one
        List<Boolean> shownBefore = items.stream().map(item -> item.countProperty().get() != null).toList();
        List<Long> asked = items.stream().map(item -> generations.merge(item.name(), 1L, Long::sum)).toList();
        Task<Void> task = Tasks.<Void>create("Counting entities", context -> {
            for (int i = 0; i < items.size(); i++) {
                KindItem item = items.get(i);
                boolean shown = shownBefore.get(i);
                long generation = asked.get(i);
                if (!latest(item, generation)) {
                    continue; // counted again since: the newer count shows
                }
                EntityCount count = source.count(namespace, item.name(),
                        (done, total) -> {
                            context.progress(-1, -1, String.format("Counting %s: %,d", item.name(), done));
                            if (!shown) {
                                Platform.runLater(() -> {
                                    if (latest(item, generation)) {
                                        item.partialCountProperty().set(done);
                                    }
                                });
                            }
                            yieldToPageLoads(context::isCancelled);
                        },
                        context::isCancelled);
                Platform.runLater(() -> {
                    if (latest(item, generation)) {
                        item.countProperty().set(count);
                    }
                });
            }
            return null;
        }).onError(e -> errors.accept("Cannot count entities: " + ErrorMessages.of(e))).build();
        counting.removeIf(Task::isDone);
        counting.add(task);
        status.track(task);
        tasks.run(task);
    }

    /** Whether {@code generation} is the latest count of {@code item}'s kind asked for. */
    private boolean latest(KindItem item, long generation) {
        return generations.get(item.name()) == generation;
    }

    /**
     * Between two batches of a count, waits while the browser reads a page: an emulator serves one request at a time
     * and scans the whole kind for each, so a count would keep the page the user asked for waiting until it ended.
     */
    private void yieldToPageLoads(BooleanSupplier cancelled) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pageLoading && !cancelled.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

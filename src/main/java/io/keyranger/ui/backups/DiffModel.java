package io.keyranger.ui.backups;

import com.google.common.hash.Hashing;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.SideBySide;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.Session;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.launch.DiffRequest;
import io.keyranger.launch.Diffs;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.BooleanExpression;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.concurrent.Task;

/**
 * The comparison of one kind of an open export, of the database as of a past moment, or of another database, with
 * the live database
 * ({@link ExportDiff}: pages of keys, then the live keys for entities added since), its examples and one example's
 * properties side by side. Restoring the kind from it is {@link RestoreModel}'s.
 */
public final class DiffModel {
    /** Examples of each outcome the view lists. */
    static final int EXAMPLES = 200;

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    /** Where comparisons keep their state and key lists, a folder each ({@link #folderOf}). */
    private final Path comparisons;
    private final Object folders = new Object();
    private final ObjectProperty<ManagedExport> export = new SimpleObjectProperty<>();
    /** The moment compared instead of an export, or null. */
    private final ObjectProperty<PointInTime> past = new SimpleObjectProperty<>();
    /** Another database compared instead of an export or a moment (read at its own moment), or null. */
    private final ObjectProperty<Session> database = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper("");
    private final ObservableList<ExportDiff.Example> examples = FXCollections.observableArrayList();
    private final ObjectProperty<ExportDiff.Example> selected = new SimpleObjectProperty<>();
    /** The rows of the comparison the user selected: a restore takes only their keys. */
    private final ObservableList<ExportDiff.Example> chosen = FXCollections.observableArrayList();
    /** The folder of the comparison on show (its key lists, and the keys of a restore of chosen rows), or null. */
    private final ReadOnlyObjectWrapper<Path> folder = new ReadOnlyObjectWrapper<>();
    private final ObservableList<SideBySide.Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<ExportDiff.Result> compared = new ReadOnlyObjectWrapper<>();
    private final StatusModel status;
    /** The comparison running, or null. */
    private final ObjectProperty<Task<?>> running = new SimpleObjectProperty<>();
    private final BooleanBinding comparing = running.isNotNull();
    /** Bumped by {@link #clear}: a comparison started before it is no longer what the tab shows, and is dropped. */
    private long shown;

    DiffModel(TaskRunner tasks, StatusModel status, Consumer<String> errors, Path comparisons) {
        this.tasks = tasks;
        this.status = status;
        this.errors = errors;
        this.comparisons = comparisons;
        selected.addListener((obs, old, example) -> rows.setAll(example == null ? List.of()
                : SideBySide.of(example.before(), example.now())));
    }

    /**
     * Compares {@code row}'s kind of the export (or of the database as of the moment on show) with the live database
     * of {@code session}. The comparison keeps its state and key lists in a folder of its own (one per database,
     * export or moment, namespace and kind), so one that was cancelled goes on where it stopped when it is started
     * again, as {@code keyranger diff --resume} does.
     */
    public void compare(Session session, BackupsViewModel.KindRow row) {
        if (!ready(session, row)) {
            return;
        }
        ManagedExport opened = export.get();
        PointInTime moment = past.get();
        Session other = database.get();
        // another database's kind goes into the connected namespace; an export's or the past's into its own
        String namespace = other != null ? session.spec().namespace() : row.namespace();
        DiffRequest.Before before = opened != null ? new DiffRequest.Export(opened)
                : other != null ? new DiffRequest.Database(other) : new DiffRequest.Past(moment);
        String since = before.since();
        long asked = shown;
        String comparing = "Comparing " + row.kind() + " with " + session.describe();
        forgetResult(); // what the comparison before found is no longer what the restore would do
        summary.set(comparing + "…");
        Task<Compared> task = Tasks.create("Comparing " + row.kind() + " with live data", ctx -> {
            synchronized (folders) { // a cancelled comparison writes its state until it stops: the next one waits
                // off the FX thread: the folder's name reads the export's file time
                Path folder = opened != null ? folderOf(comparisons, session.spec(), Path.of(opened.metadata()),
                        row.namespace(), row.kind()) : other != null ? folderOf(comparisons, session.spec(), other,
                        namespace, row.kind()) : folderOf(comparisons, session.spec(), moment, row.namespace(),
                        row.kind());
                DiffRequest request = DiffRequest.of(before, namespace, row.kind()).examples(EXAMPLES)
                        .keysOut(folder, DiffRequest.Resume.GO_ON_IF_STOPPED);
                return new Compared(new Diffs(session).run(request, progress(ctx, comparing, row.count(), since),
                        Cancellation.of(ctx::isCancelled)), folder);
            }
        }).onSuccess(done -> {
            if (asked != shown) {
                return; // another export or kind is on screen now
            }
            ExportDiff.Result r = done.result();
            compared.set(r.cancelled() ? null : r);
            folder.set(done.folder());
            examples.setAll(r.examples());
            summary.set(String.format("%s against %s: %,d the same, %,d changed, %,d removed and %,d added "
                    + "%s (%,d compared in %,d lookup%s)%s%s", row.kind(), session.describe(),
                    r.same(), r.changed(), r.removed(), r.added(), since, r.compared(), r.lookups(),
                    r.lookups() == 1 ? "" : "s", r.resumedFrom() == 0 ? "" : String.format("; went on from %,d "
                            + "compared before it stopped (the examples are from the rest)", r.resumedFrom()),
                    r.cancelled() ? "; stopped early: Compare again to go on" : ". Their keys are listed in "
                            + done.folder()));
            if (!examples.isEmpty()) {
                selected.set(examples.get(0));
            }
        }).onError(e -> {
            if (asked == shown) {
                summary.set("");
                errors.accept(ErrorMessages.of(e));
            }
        }).onCancelled(() -> {
            if (asked == shown) {
                summary.set("Comparison cancelled: Compare again to go on where it stopped.");
            }
        }).build();
        // the tab's summary follows the comparison as the status bar does, until it ends
        task.messageProperty().addListener((obs, old, message) -> {
            if (asked == shown && task.isRunning()) {
                summary.set(message);
            }
        });
        running.set(task);
        task.runningProperty().addListener((obs, was, is) -> {
            if (!is && running.get() == task) {
                running.set(null);
            }
        });
        status.track(task);
        tasks.run(task);
    }

    /**
     * The comparison's progress as the status bar and the tab show it: entities compared of the kind's, then the live
     * keys read by the pass for those added since.
     */
    private static ExportDiff.Progress progress(Tasks.Context ctx, String comparing, long total, String since) {
        return new ExportDiff.Progress() {
            private volatile long compared;

            @Override
            public void compared(long entities) {
                compared = entities;
                ctx.progress(entities, total, String.format("%s: %,d of %,d compared…", comparing, entities, total));
            }

            @Override
            public void scanned(long liveKeys) {
                ctx.progress(-1, -1, String.format("%s: %,d compared; looking for entities added %s: %,d live keys "
                        + "read…", comparing, compared, since, liveKeys));
            }
        };
    }

    /** Stops the comparison running, if any: what it compared is kept, and Compare goes on from there. */
    public void cancel() {
        Task<?> task = running.get();
        if (task != null) {
            task.cancel();
        }
    }

    /** True while a comparison runs. */
    public BooleanExpression comparingProperty() {
        return comparing;
    }

    /** A comparison's result and the folder that keeps its key lists. */
    private record Compared(ExportDiff.Result result, Path folder) {
    }

    /**
     * The folder that keeps the state and key lists (added.keys, changed.keys, removed.keys) of the comparison of
     * {@code kind} in {@code namespace} of the export at {@code metadata} (as written then: an export written again
     * there is compared afresh) with the database {@code spec} names.
     */
    public static Path folderOf(Path root, ConnectionSpec spec, Path metadata, String namespace, String kind) {
        String what = String.join("\n", String.valueOf(spec.emulatorHost()), spec.projectId(),
                String.valueOf(spec.databaseId()), metadata.toAbsolutePath().normalize().toString(),
                ExportDiff.exportWritten(metadata), namespace, kind);
        return root.resolve(Hashing.sha256().hashString(what, StandardCharsets.UTF_8).toString().substring(0, 20));
    }

    /**
     * The folder that keeps the state and key lists of the comparison of {@code kind} in {@code namespace} as the
     * database {@code spec} names held it at {@code moment} with that database live.
     */
    public static Path folderOf(Path root, ConnectionSpec spec, PointInTime moment, String namespace, String kind) {
        String what = String.join("\n", String.valueOf(spec.emulatorHost()), spec.projectId(),
                String.valueOf(spec.databaseId()), "as of " + moment.time(), namespace, kind);
        return root.resolve(Hashing.sha256().hashString(what, StandardCharsets.UTF_8).toString().substring(0, 20));
    }

    /**
     * The folder that keeps the state and key lists of the comparison of {@code kind} in {@code namespace} of another
     * database ({@code source}, at its moment, or live) with the database {@code spec} names.
     */
    public static Path folderOf(Path root, ConnectionSpec spec, Session source, String namespace, String kind) {
        ConnectionSpec from = source.spec();
        String what = String.join("\n", String.valueOf(spec.emulatorHost()), spec.projectId(),
                String.valueOf(spec.databaseId()), "from " + from.emulatorHost() + " " + from.projectId() + " "
                        + from.databaseId() + " " + from.namespace() + " " + (source.past() ? source.asOf().time()
                        : "live " + System.nanoTime()), namespace, kind);
        return root.resolve(Hashing.sha256().hashString(what, StandardCharsets.UTF_8).toString().substring(0, 20));
    }

    private boolean ready(Session session, BackupsViewModel.KindRow row) {
        if (export.get() == null && past.get() == null && database.get() == null || row == null) {
            errors.accept("Open an export (or the database as of a moment, or another database) and select a kind "
                    + "first.");
            return false;
        }
        if (session == null) {
            errors.accept("Connect to a database first: the export is compared with, and restored to, the open "
                    + "connection.");
            return false;
        }
        return true;
    }

    /** Forgets the comparison on screen (and any still running for it), its examples and its side-by-side rows. */
    void clear() {
        shown++;
        forgetResult();
        summary.set("");
    }

    private void forgetResult() {
        selected.set(null);
        chosen.clear();
        examples.clear();
        compared.set(null);
        folder.set(null);
    }

    ObjectProperty<ManagedExport> exportProperty() {
        return export;
    }

    /** The moment compared instead of an export, or null. */
    public ObjectProperty<PointInTime> pastProperty() {
        return past;
    }

    /** Another database compared instead of an export or a moment, or null. */
    ObjectProperty<Session> databaseProperty() {
        return database;
    }

    /** The comparison on show, or null while there is none (or it stopped early). */
    ReadOnlyObjectProperty<ExportDiff.Result> comparedProperty() {
        return compared.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    public ObservableList<ExportDiff.Example> examples() {
        return examples;
    }

    public ObjectProperty<ExportDiff.Example> selectedProperty() {
        return selected;
    }

    /** The rows the user selected (the view's table keeps it): Restore… takes exactly their keys. */
    public ObservableList<ExportDiff.Example> chosen() {
        return chosen;
    }

    /** The folder of the comparison on show, or null. */
    ReadOnlyObjectProperty<Path> folderProperty() {
        return folder.getReadOnlyProperty();
    }

    public ObservableList<SideBySide.Row> rows() {
        return rows;
    }
}

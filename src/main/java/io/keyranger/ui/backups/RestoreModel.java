package io.keyranger.ui.backups;

import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.backup.managed.ManagedExport;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * Restoring the selected kind from what the Backups tab shows (an export, or the database as of a moment) into the
 * live database, as a job the Run tab follows: the mode, and from the past the end of a window of damage to undo
 * ("until", as {@code restore --as-of T --until T2}: checked through {@code ReadWindow.open} off the FX thread, each
 * entity then decided by its state at until, so the mode does not apply; an until rounded to a whole minute is said in
 * the confirmation) and whether entities added in it are removed; what the restore would do, as of the comparison
 * ({@link DiffModel}).
 */
public final class RestoreModel {
    /** A restore the user asked for: the Run tab starts and follows it. */
    public record RestoreRequest(Session session, String namespace, String kind, JobSpec job) {
    }

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final ObjectProperty<RestoreMode> mode = new SimpleObjectProperty<>(RestoreMode.SKIP_CHANGED);
    /** The moment restored from instead of an export, or null: until and remove-added apply to it only. */
    private final ObjectProperty<PointInTime> past = new SimpleObjectProperty<>();
    private final StringProperty until = new SimpleStringProperty("");
    private final BooleanProperty removeAdded = new SimpleBooleanProperty();
    private final BooleanBinding undoesWindow = Bindings.createBooleanBinding(
            () -> past.get() != null && !stripped(until.get()).isEmpty(), past, until);
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper();
    private final ObjectProperty<ExportDiff.Result> compared = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper preview = new ReadOnlyStringWrapper("");
    private Consumer<RestoreRequest> restorer = request -> { };

    RestoreModel(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
        compared.addListener((obs, old, r) -> updatePreview());
        mode.addListener((obs, old, m) -> updatePreview());
        undoesWindow.addListener((obs, old, u) -> updatePreview());
        removeAdded.addListener((obs, old, r) -> updatePreview());
    }

    /**
     * Restores {@code row}'s kind from {@code export} (or, when null, from the moment on show) to {@code live}, once
     * {@code confirm} agrees to what it writes and where. With until, that time is first checked against what the
     * server keeps and against the moment restored, off the FX thread; a refusal says why and hands nothing over.
     */
    void restore(Session live, BackupsViewModel.KindRow row, ManagedExport export,
                 BiPredicate<ConnectionSpec, String> confirm) {
        PointInTime from = past.get();
        if (export == null && from == null || row == null) {
            errors.accept("Open an export (or the database as of a moment) and select a kind first.");
            return;
        }
        if (live == null) {
            errors.accept("Connect to a database first: the export is compared with, and restored to, the open "
                    + "connection.");
            return;
        }
        if (!undoesWindow.get()) {
            boolean remove = from != null && removeAdded.get() && mode.get() == RestoreMode.OVERWRITE;
            String what = "restore " + row.kind() + " from " + (from == null ? "the export"
                    : "the database as of " + from.time()) + " (" + mode.get().id() + (remove
                    ? ", removing entities added since" : "") + ")";
            hand(live, row, what, confirm, () -> from == null ? new RestoreSpec(Path.of(export.metadata()),
                    row.namespace(), row.kind(), mode.get(), null, null, true)
                    : RestoreSpec.fromPast(from, null, remove, row.namespace(), row.kind(), mode.get(), null, null,
                    true));
            return;
        }
        String typed = stripped(until.get());
        boolean remove = removeAdded.get();
        checking.set(true);
        AtomicReference<String> told = new AtomicReference<>(""); // rounded to a minute: said in the confirmation
        Tasks.create("Checking until", () -> ReadWindow.open(live, typed, told::set).asOf())
                .onSuccess(end -> {
                    checking.set(false);
                    if (from != past.get()) {
                        return; // another moment (or an export) is on show now
                    }
                    if (!end.time().isAfter(from.time())) {
                        errors.accept("Until " + end.describe() + " must be after " + from.time() + ": the window "
                                + "of damage starts at the moment on show and ends at until.");
                        return;
                    }
                    hand(live, row, "restore " + row.kind() + " from the database as of " + from.time()
                            + ", undoing what was written until " + end.time() + (told.get().isEmpty() ? ""
                            : " (" + told.get() + ")") + (remove
                            ? " (entities added in the window removed)" : ""), confirm,
                            () -> RestoreSpec.fromPast(from, end, remove, row.namespace(), row.kind(),
                                    RestoreMode.OVERWRITE, null, null, true));
                })
                .onError(e -> {
                    checking.set(false);
                    errors.accept("Until: " + ErrorMessages.of(e));
                })
                .run(tasks);
    }

    private void hand(Session live, BackupsViewModel.KindRow row, String what,
                      BiPredicate<ConnectionSpec, String> confirm, Supplier<RestoreSpec> spec) {
        JobSpec job;
        try {
            job = spec.get().job(null); // the job checks its spec: refused before anything is asked
        } catch (RuntimeException e) {
            errors.accept(ErrorMessages.of(e));
            return;
        }
        if (confirm.test(live.spec(), what)) {
            restorer.accept(new RestoreRequest(live, row.namespace(), row.kind(), job));
        }
    }

    private void updatePreview() {
        preview.set(undoesWindow.get() ? undoPreview(compared.get(), removeAdded.get())
                : preview(compared.get(), mode.get(), past.get() != null && removeAdded.get()
                && mode.get() == RestoreMode.OVERWRITE));
    }

    /**
     * What a restore of the compared kind would do with {@code m} (removing the entities added since, or not), as of
     * the comparison: the restore's dry run (the restore decides again, per entity, in its transactions).
     */
    static String preview(ExportDiff.Result r, RestoreMode m, boolean removeAdded) {
        if (r == null || m == null) {
            return "";
        }
        long writes = r.removed() + (m == RestoreMode.OVERWRITE ? r.changed() : 0) + (removeAdded ? r.added() : 0);
        String changed = switch (m) {
            case OVERWRITE -> String.format("overwrite %,d changed since", r.changed());
            case SKIP_CHANGED -> String.format("leave %,d changed since (reported)", r.changed());
            case MISSING_ONLY -> String.format("leave %,d present", r.changed());
        };
        return String.format("Restore (%s) would bring back %,d removed and %s; %,d entities added since %s. "
                + "About %,d reads and %,d writes (undo records included).", m.id(), r.removed(), changed, r.added(),
                removeAdded ? "are removed" : "stay", r.compared(), writes * 2);
    }

    /** What undoing the window would do, as far as the comparison can tell (it does not know the state at until). */
    static String undoPreview(ExportDiff.Result r, boolean removeAdded) {
        if (r == null) {
            return "";
        }
        return String.format("Undoing the window: of %,d removed, %,d changed and %,d added since, each still as it "
                + "was at until goes back (%s); each written again after until is left alone and named in the job's "
                + "report. The mode does not apply.", r.removed(), r.changed(), r.added(),
                removeAdded ? "the added are removed" : "the added stay");
    }

    /** Where restores go: the Run tab's launcher. */
    public void setRestorer(Consumer<RestoreRequest> value) {
        this.restorer = value;
    }

    /** The comparison on show, which the preview is of (bound to the comparison's). */
    ObjectProperty<ExportDiff.Result> comparedProperty() {
        return compared;
    }

    /** The moment restored from instead of an export, or null (bound to what the tab shows). */
    ObjectProperty<PointInTime> pastProperty() {
        return past;
    }

    public ObjectProperty<RestoreMode> modeProperty() {
        return mode;
    }

    /** The end of the window of damage to undo (RFC 3339 or {@code -5m}); "" restores with the mode. */
    public StringProperty untilProperty() {
        return until;
    }

    /** Whether entities absent at the moment restored are deleted: those added in the window (or, with overwrite, since). */
    public BooleanProperty removeAddedProperty() {
        return removeAdded;
    }

    /** True when until is given with the past on show: each entity is decided by its state then, not by the mode. */
    public BooleanBinding undoesWindow() {
        return undoesWindow;
    }

    /** True while until is being checked. */
    public ReadOnlyBooleanProperty checkingProperty() {
        return checking.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty restorePreviewProperty() {
        return preview.getReadOnlyProperty();
    }

    private static String stripped(String text) {
        return text == null ? "" : text.strip();
    }
}

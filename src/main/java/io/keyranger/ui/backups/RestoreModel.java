package io.keyranger.ui.backups;

import io.keyranger.mapper.MapperSpec;
import io.keyranger.datastore.Partition;
import io.keyranger.KeyRangerException;
import io.keyranger.backup.ExportDiff;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.job.JobSpec;
import io.keyranger.job.RestoreMode;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import com.google.cloud.datastore.Key;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
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
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;

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
    /** Another database restored from instead of an export or a moment, or null: sample and transform apply to it. */
    private final ObjectProperty<Session> database = new SimpleObjectProperty<>();
    /** With another database: the percentage of its keys copied ("" for all). */
    private final StringProperty sample = new SimpleStringProperty("");
    /** With another database: a transform spec file applied to each entity on the way ("" for none). */
    private final StringProperty transform = new SimpleStringProperty("");
    /** With another database: whether each entity taken brings its ancestors there. */
    private final BooleanProperty withAncestors = new SimpleBooleanProperty();
    private final StringProperty until = new SimpleStringProperty("");
    private final BooleanProperty removeAdded = new SimpleBooleanProperty();
    private final BooleanBinding undoesWindow = Bindings.createBooleanBinding(
            () -> past.get() != null && !stripped(until.get()).isEmpty(), past, until);
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper();
    private final ObjectProperty<ExportDiff.Result> compared = new SimpleObjectProperty<>();
    private final ReadOnlyStringWrapper preview = new ReadOnlyStringWrapper("");
    /** The rows of the comparison selected (bound to the comparison's): a restore takes only their keys. */
    private final ObservableList<ExportDiff.Example> chosen = FXCollections.observableArrayList();
    /** The comparison's folder, where the keys of a restore of selected rows are written (bound to it). */
    private final ObjectProperty<Path> keysFolder = new SimpleObjectProperty<>();
    private static final DateTimeFormatter SELECTION_NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")
            .withZone(ZoneOffset.UTC);
    private Consumer<RestoreRequest> restorer = request -> { };

    RestoreModel(TaskRunner tasks, Consumer<String> errors) {
        this.tasks = tasks;
        this.errors = errors;
        compared.addListener((obs, old, r) -> updatePreview());
        mode.addListener((obs, old, m) -> updatePreview());
        undoesWindow.addListener((obs, old, u) -> updatePreview());
        removeAdded.addListener((obs, old, r) -> updatePreview());
        chosen.addListener((ListChangeListener<ExportDiff.Example>) c -> updatePreview());
    }

    /**
     * Restores {@code row}'s kind from {@code export} (or, when null, from the moment on show) to {@code live}, once
     * {@code confirm} agrees to what it writes and where: exactly the rows of the comparison the user selected (their
     * keys written to a file in the comparison's folder, as {@code restore --keys} takes them), or, when none is,
     * the whole kind once {@code whole} agrees to that question. With until, that time is first checked against what
     * the server keeps and against the moment restored, off the FX thread; a refusal says why and hands nothing over.
     */
    void restore(Session live, BackupsViewModel.KindRow row, ManagedExport export,
                 BiPredicate<ConnectionSpec, String> confirm, Predicate<String> whole) {
        PointInTime from = past.get();
        Session other = database.get();
        if (export == null && from == null && other == null || row == null) {
            errors.accept("Open an export (or the database as of a moment, or another database) and select a kind "
                    + "first.");
            return;
        }
        if (live == null) {
            errors.accept("Connect to a database first: the export is compared with, and restored to, the open "
                    + "connection.");
            return;
        }
        // another database's kind goes into the connected namespace; an export's or the past's into its own
        String namespace = other != null ? live.spec().namespace() : row.namespace();
        List<Key> keys = chosenKeys(namespace, row.kind());
        Path folder = keysFolder.get();
        String source = other != null ? Partition.of(other.spec()).describe() + (other.past() ? " as of "
                + other.asOf().time() : "") : from == null ? "the export" : "the database as of " + from.time();
        if (keys.isEmpty() && !whole.test(wholeQuestion(row, source))) {
            return;
        }
        String what = "restore " + (keys.isEmpty() ? row.kind() : String.format("the %,d selected entit%s of %s",
                keys.size(), keys.size() == 1 ? "y" : "ies", row.kind())) + " from " + source;
        if (other != null) {
            boolean remove = removeAdded.get() && mode.get() == RestoreMode.OVERWRITE;
            String told = what + " (" + mode.get().id() + (remove ? ", removing what the source does not hold" : "")
                    + (stripped(sample.get()).isEmpty() ? "" : ", a " + stripped(sample.get()) + "% sample")
                    + (stripped(transform.get()).isEmpty() ? "" : ", transformed by " + stripped(transform.get()))
                    + (withAncestors.get() ? ", with their ancestors" : "") + ")";
            boolean ancestors = withAncestors.get();
            handOver(live, row, told, confirm, keys, folder, file -> RestoreSpec.fromDatabase(other.spec(),
                    other.asOf(), remove, namespace, row.kind(), mode.get(), null, file, true)
                    .shaped(sample(), transform()).withAncestors(ancestors));
            return;
        }
        if (!undoesWindow.get()) {
            boolean remove = from != null && removeAdded.get() && mode.get() == RestoreMode.OVERWRITE;
            String told = what + " (" + mode.get().id() + (remove ? ", removing entities added since" : "") + ")";
            handOver(live, row, told, confirm, keys, folder, file -> from == null ? new RestoreSpec(
                    Path.of(export.metadata()), row.namespace(), row.kind(), mode.get(), null, file, true)
                    : RestoreSpec.fromPast(from, null, remove, row.namespace(), row.kind(), mode.get(), null, file,
                    true));
            return;
        }
        String typed = stripped(until.get());
        boolean remove = removeAdded.get();
        AtomicReference<String> rounded = new AtomicReference<>(""); // rounded to a minute: said in the confirmation
        prepare(() -> new Prepared(keys.isEmpty() ? null : written(folder, keys),
                ReadWindow.open(live, typed, rounded::set).asOf()), ready -> {
                    PointInTime end = ready.until();
                    if (from != past.get()) {
                        return; // another moment (or an export) is on show now
                    }
                    if (!end.time().isAfter(from.time())) {
                        errors.accept("Until " + end.describe() + " must be after " + from.time() + ": the window "
                                + "of damage starts at the moment on show and ends at until.");
                        return;
                    }
                    hand(live, row, what + ", undoing what was written until " + end.time() + (rounded.get()
                            .isEmpty() ? "" : " (" + rounded.get() + ")") + (remove
                            ? " (entities added in the window removed)" : ""), confirm,
                            () -> RestoreSpec.fromPast(from, end, remove, row.namespace(), row.kind(),
                                    RestoreMode.OVERWRITE, null, ready.keys(), true));
                }, "Until: ");
    }

    /**
     * Hands over the restore {@code spec} makes of the file of the chosen {@code keys} (written first, off the FX
     * thread, into {@code folder}), or of none when no row is chosen.
     */
    private void handOver(Session live, BackupsViewModel.KindRow row, String what,
                          BiPredicate<ConnectionSpec, String> confirm, List<Key> keys, Path folder,
                          Function<Path, RestoreSpec> spec) {
        if (keys.isEmpty()) {
            hand(live, row, what, confirm, () -> spec.apply(null));
            return;
        }
        prepare(() -> new Prepared(written(folder, keys), null),
                ready -> hand(live, row, what, confirm, () -> spec.apply(ready.keys())), "");
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
            restorer.accept(new RestoreRequest(live, job.namespace(), row.kind(), job));
        }
    }

    /** The sample box as a percentage, or null when empty; a number out of range is the job's to refuse. */
    private Double sample() {
        String text = stripped(sample.get());
        if (text.isEmpty()) {
            return null;
        }
        try {
            return Double.valueOf(text.endsWith("%") ? text.substring(0, text.length() - 1).strip() : text);
        } catch (NumberFormatException e) {
            throw new KeyRangerException("Sample: give a percentage such as 10 (got '" + text + "').");
        }
    }

    /** The transform box's spec file read (a spec of the transform template), or null when empty. */
    private MapperSpec transform() {
        String text = stripped(transform.get());
        if (text.isEmpty()) {
            return null;
        }
        MapperSpec spec = MapperSpec.read(Path.of(text));
        if (!spec.template().equals("transform")) {
            throw new KeyRangerException("Transform: " + text + " is a spec of the " + spec.template() + " template, "
                    + "not of transform.");
        }
        return spec;
    }

    /** What a restore needs read or written first: the file of the selected keys, and until checked (or null). */
    private record Prepared(Path keys, PointInTime until) {
    }

    /** Runs {@code work} off the FX thread, then {@code then} on it; an error is said after {@code prefix}. */
    private void prepare(Callable<Prepared> work, Consumer<Prepared> then, String prefix) {
        checking.set(true);
        Tasks.create("Preparing the restore", work)
                .onSuccess(ready -> {
                    checking.set(false);
                    then.accept(ready);
                })
                .onError(e -> {
                    checking.set(false);
                    errors.accept(prefix + ErrorMessages.of(e));
                })
                .run(tasks);
    }

    /** The keys of the chosen rows that are of {@code row}'s kind, in the order shown. */
    private List<Key> chosenKeys(String namespace, String kind) {
        return chosen.stream().map(ExportDiff.Example::key).filter(k -> k.getKind().equals(kind)
                && k.getNamespace().equals(namespace)).distinct().toList();
    }

    /** Writes {@code keys} to a new keys file in {@code folder} (the comparison's), as {@code restore --keys} reads. */
    private static Path written(Path folder, List<Key> keys) throws IOException {
        Path file = folder.resolve("restore-" + SELECTION_NAME.format(Instant.now()) + ".keys");
        RestoreSpec.writeKeys(file, keys);
        return file;
    }

    /** The question asked before a restore with no row selected: it takes the whole kind. */
    private String wholeQuestion(BackupsViewModel.KindRow row, String source) {
        ExportDiff.Result r = compared.get();
        return "No row of the comparison is selected, so this restores the whole of " + row.kind() + " from "
                + source + (r == null ? " (no comparison says what that would do)"
                : String.format(" (%,d removed, %,d changed and %,d added since)", r.removed(), r.changed(),
                r.added())) + ". To restore only some entities, select their rows in the comparison. Restore the "
                + "whole kind?";
    }

    private void updatePreview() {
        Counts c = Counts.of(compared.get(), chosen);
        preview.set(undoesWindow.get() ? undoPreview(c, removeAdded.get())
                : preview(c, mode.get(), past.get() != null && removeAdded.get()
                && mode.get() == RestoreMode.OVERWRITE));
    }

    /**
     * What a restore acts on, as of the comparison: its whole result, or the rows selected in it.
     *
     * @param what "" for the whole comparison, else "of the 3 selected rows "
     */
    record Counts(long removed, long changed, long added, long reads, String what) {
        /** The selected rows of {@code r} when any is, else all of it; null when there is no comparison. */
        static Counts of(ExportDiff.Result r, List<ExportDiff.Example> chosen) {
            if (r == null) {
                return null;
            }
            if (chosen.isEmpty()) {
                return new Counts(r.removed(), r.changed(), r.added(), r.compared(), "");
            }
            long removed = chosen.stream().filter(x -> x.now() == null).count();
            long added = chosen.stream().filter(x -> x.before() == null).count();
            return new Counts(removed, chosen.size() - removed - added, added, chosen.size(),
                    String.format("of the %,d selected row%s ", chosen.size(), chosen.size() == 1 ? "" : "s"));
        }
    }

    /**
     * What a restore of the compared kind (or of the rows selected) would do with {@code m} (removing the entities
     * added since, or not), as of the comparison: the restore's dry run (the restore decides again, per entity, in
     * its transactions).
     */
    static String preview(Counts r, RestoreMode m, boolean removeAdded) {
        if (r == null || m == null) {
            return "";
        }
        long writes = r.removed() + (m == RestoreMode.OVERWRITE ? r.changed() : 0) + (removeAdded ? r.added() : 0);
        String changed = switch (m) {
            case OVERWRITE -> String.format("overwrite %,d changed since", r.changed());
            case SKIP_CHANGED -> String.format("leave %,d changed since (reported)", r.changed());
            case MISSING_ONLY -> String.format("leave %,d present", r.changed());
        };
        return String.format("Restore (%s) %swould bring back %,d removed and %s; %,d entit%s added since %s. "
                + "About %,d reads and %,d writes (undo records included).", m.id(), r.what(), r.removed(), changed,
                r.added(), r.added() == 1 ? "y" : "ies", removeAdded ? (r.added() == 1 ? "is removed" : "are removed")
                : "stay" + (r.added() == 1 ? "s" : ""), r.reads(), writes * 2);
    }

    /** What undoing the window would do, as far as the comparison can tell (it does not know the state at until). */
    static String undoPreview(Counts r, boolean removeAdded) {
        if (r == null) {
            return "";
        }
        return String.format("Undoing the window%s: of %,d removed, %,d changed and %,d added since, each still as it "
                + "was at until goes back (%s); each written again after until is left alone and named in the job's "
                + "report. The mode does not apply.", r.what().isEmpty() ? "" : " " + r.what().strip(), r.removed(),
                r.changed(), r.added(), removeAdded ? "the added are removed" : "the added stay");
    }

    /** Where restores go: the Run tab's launcher. */
    public void setRestorer(Consumer<RestoreRequest> value) {
        this.restorer = value;
    }

    /** The comparison on show, which the preview is of (bound to the comparison's). */
    ObjectProperty<ExportDiff.Result> comparedProperty() {
        return compared;
    }

    /** The rows of the comparison selected (bound to the comparison's). */
    ObservableList<ExportDiff.Example> chosen() {
        return chosen;
    }

    /** The comparison's folder, where a restore of selected rows writes their keys (bound to the comparison's). */
    ObjectProperty<Path> keysFolderProperty() {
        return keysFolder;
    }

    /** The moment restored from instead of an export, or null (bound to what the tab shows). */
    ObjectProperty<PointInTime> pastProperty() {
        return past;
    }

    /** Another database restored from, or null (bound to the comparison's). */
    ObjectProperty<Session> databaseProperty() {
        return database;
    }

    /** With another database: the percentage of its keys copied, "" for all. */
    public StringProperty sampleProperty() {
        return sample;
    }

    /** With another database: whether each entity taken brings its ancestors there (a whole entity group). */
    public BooleanProperty withAncestorsProperty() {
        return withAncestors;
    }

    /** With another database: the path of a transform spec applied to each entity on the way, "" for none. */
    public StringProperty transformProperty() {
        return transform;
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

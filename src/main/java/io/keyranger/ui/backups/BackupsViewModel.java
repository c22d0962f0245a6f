package io.keyranger.ui.backups;

import static io.keyranger.ui.backups.ShownBackup.pastLabel;
import static io.keyranger.ui.backups.ShownBackup.stripped;

import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.keys.KeyOrder;
import io.keyranger.formats.managed.ExportContents;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.ui.asof.AsOfModel;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.StatusModel;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import io.keyranger.profile.ConnectionProfile;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.binding.BooleanExpression;
import javafx.beans.binding.StringBinding;
import javafx.beans.binding.StringExpression;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Backups tab: opens a managed export read-only, lists its namespaces and kinds with counts, pages through the
 * entities a GQL query selects ({@link ExportPages}), compares a kind with the live database of the open connection
 * ({@link DiffModel}) and restores it from what is open ({@link RestoreModel}). The database as of a past moment opens the same way ({@link #openPast}), to be
 * compared and restored from like an export. All reading runs off the FX thread, with progress and Cancel in the status bar.
 */
public final class BackupsViewModel {
    /** One namespace and kind of the export, with its entities. */
    public record KindRow(String namespace, String kind, long count) {
        /** Whether the kind is KeyRanger's own (its jobs' bookkeeping and undo records), listed apart after the user's. */
        public boolean keyRangers() {
            return BookkeepingKinds.isBookkeeping(kind);
        }

        @Override
        public String toString() {
            return (namespace.isEmpty() ? "" : namespace + " / ") + kind + "  (" + String.format("%,d", count) + ")";
        }
    }

    /** An export read through once: its parts, and what they hold. */
    private record Opened(ManagedExport export, ExportContents contents) {
    }


    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final ObjectProperty<Session> session = new SimpleObjectProperty<>();
    /** What is on show (an export, a moment, another database) and the boxes it was opened from. */
    private final ShownBackup shown = new ShownBackup();
    private final ReadOnlyObjectProperty<Session> past = shown.pastProperty();
    private final ReadOnlyObjectProperty<Session> database = shown.databaseProperty();
    private static final String NOTHING_OPEN = "Open a managed export: its folder or its .overall_export_metadata "
            + "file (gcloud datastore export, then gcloud storage cp -r); the database as of a moment it still "
            + "keeps; or another database (a saved connection).";
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(NOTHING_OPEN);
    private final ObservableList<KindRow> kinds = FXCollections.observableArrayList();
    private final ObjectProperty<KindRow> selectedKind = new SimpleObjectProperty<>();
    /** True while an export or a moment is being opened; {@link #busy} adds a page being read, a
     * comparison running, and a restore until checked. */
    private final ReadOnlyBooleanWrapper opening = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final BooleanBinding canAct = busy.not().and(selectedKind.isNotNull()).and(shown.showsOpened());
    /** The past pages on the Entities tab (its As of), not here: queries here scan an export. */
    private final BooleanBinding canQuery = canAct.and(past.isNull()).and(database.isNull());
    private final BooleanBinding canCompare = canAct.and(session.isNotNull());
    /** Why the database as of a moment cannot be opened here (as the As of control says), or "". */
    private final StringBinding pastOff = Bindings.createStringBinding(
            () -> AsOfModel.unavailableReason(session.get()), session);
    private final BooleanBinding canOpenPast = busy.not().and(pastOff.isEmpty());
    private final BooleanBinding canOpenDatabase = busy.not().and(session.isNotNull())
            .and(shown.profileProperty().isNotNull());
    private final DiffModel diff;
    private final RestoreModel restoring;
    private final ExportPages pages;

    /** {@code comparisons}: where comparisons with live data keep their state, so a cancelled one goes on. */
    public BackupsViewModel(TaskRunner tasks, StatusModel status, Consumer<String> errors, Path comparisons) {
        this.tasks = tasks;
        this.errors = errors;
        this.diff = new DiffModel(tasks, status, errors, comparisons);
        this.restoring = new RestoreModel(tasks, errors);
        restoring.comparedProperty().bind(diff.comparedProperty());
        restoring.pastProperty().bind(diff.pastProperty());
        restoring.databaseProperty().bind(diff.databaseProperty());
        restoring.keysFolderProperty().bind(diff.folderProperty());
        Bindings.bindContent(restoring.chosen(), diff.chosen());
        this.pages = new ExportPages(tasks, errors, new ExportPages.Shown() {
            @Override
            public ManagedExport export() {
                return shown.export();
            }

            @Override
            public KindRow kind() {
                return selectedKind.get();
            }

            @Override
            public String project() {
                return BackupsViewModel.this.project();
            }

            @Override
            public KeyOrder order() {
                return BackupsViewModel.this.order();
            }

            @Override
            public String refusal() {
                return shown.showsOpened().get() ? "" : shown.otherThanShown();
            }
        });
        busy.bind(opening.or(pages.readingProperty()).or(restoring.checkingProperty()).or(diff.comparingProperty()));
        selectedKind.addListener((obs, old, row) -> {
            diff.clear();
            if (row != null && past.get() == null && database.get() == null) {
                pages.showKind(row);
            } else {
                pages.clear();
            }
        });
        // the past on show is another connection's, and another database is read for it: they go with it
        session.addListener((obs, old, now) -> {
            if (past.get() != null || database.get() != null) {
                closeShown();
                summary.set(NOTHING_OPEN);
            }
        });
    }

    /**
     * Opens the export at {@link #locationProperty()} and reads it through once for its kinds and counts; once it is
     * read, it takes the place of what was shown (an export or a moment, its kinds, entities and comparison). If it
     * cannot be opened, what was shown stays as it was: Compare, Restore… and queries stay off while the path box names
     * another export than the one shown ({@link #locationNotice()}), so they never act on an export the box no longer
     * names. The path box keeps what was typed, to be fixed.
     */
    public void open() {
        String text = stripped(shown.locationProperty().get());
        if (text.isEmpty()) {
            errors.accept("Give the export's folder or its .overall_export_metadata file.");
            return;
        }
        String before = summary.get();
        summary.set("Reading " + text + "…");
        opening.set(true);
        Tasks.create("Reading the export", ctx -> {
            ManagedExport opened = ManagedExport.open(Path.of(text));
            ExportContents contents = ExportContents.scan(opened, project(), "", null,
                    n -> ctx.progress(n, -1, String.format("Reading the export: %,d entities", n)),
                    ctx::isCancelled);
            return new Opened(opened, contents);
        }).onSuccess(result -> {
            opening.set(false);
            closeShown();
            shown.showExport(result.export(), text);
            ManagedExport export = result.export();
            ExportContents contents = result.contents();
            List<KindRow> rows = new ArrayList<>();
            contents.counts().forEach((ns, byKind) -> byKind.forEach((kind, n) -> rows.add(new KindRow(ns, kind, n))));
            rows.sort(Comparator.comparing(KindRow::keyRangers)); // stable: the user's kinds first, in their order
            kinds.setAll(rows);
            summary.set(String.format("%s: %,d entit%s in %d kind%s%s. Read only; an export has no index, so every "
                    + "query reads the kind's entities in it.", Path.of(export.metadata()).getParent().getFileName(),
                    contents.total(), contents.total() == 1 ? "y" : "ies", kinds.size(), kinds.size() == 1 ? "" : "s",
                    keyRangers(rows)));
            diff.exportProperty().set(export);
            if (!kinds.isEmpty()) {
                selectedKind.set(kinds.get(0));
            }
        }).onError(e -> {
            summary.set(stillShown("Could not open " + text, before));
            failed(e);
        }).onCancelled(() -> {
            opening.set(false);
            summary.set(stillShown("Opening " + text + " was cancelled", before));
        }).run(tasks);
    }

    /**
     * Opens the database as of the time box's moment (RFC 3339 or {@code -15m}) as an export opens: checked through
     * {@code ReadWindow.open} (refused on a server that keeps no past and outside what it keeps, rounded to a whole
     * minute and said so when older than an hour), its kinds listed and counted there. It can then be compared with
     * live data and restored from, as an export can.
     */
    public void openPast() {
        Session live = session.get();
        String text = stripped(shown.asOfProperty().get());
        if (live == null) {
            errors.accept("Connect to a database first: its past is read through the open connection.");
            return;
        }
        if (!pastOff.get().isEmpty()) {
            errors.accept(pastOff.get()); // the button is off: said, and what is shown stays
            return;
        }
        if (text.isEmpty()) {
            errors.accept("Give a time: an RFC 3339 time such as 2026-11-27T10:15:00Z, or a time back from now such as"
                    + " -15m.");
            return;
        }
        openDatabase(live, "the database as of " + text, "Reading the past",
                ctx -> DatabaseOpening.past(live, text, n -> ctx.progress(n, -1, String.format(
                        "Counting the database as of %s: %,d entities", text, n)), Cancellation.of(ctx::isCancelled)),
                result -> {
                    shown.showPast(result.session(), pastLabel(text));
                    diff.pastProperty().set(result.session().asOf());
                    long total = result.total();
                    return String.format("The database as of %s: %,d entit%s in %d kind%s. Read only; its entities "
                            + "page on the Entities tab (As of).%s", result.session().asOf().time(), total,
                            total == 1 ? "y" : "ies", result.kinds().size(), result.kinds().size() == 1 ? "" : "s",
                            result.note().isEmpty() ? "" : " " + result.note());
                });
    }

    /**
     * Opens the saved connection chosen ({@link #profileProperty()}) as another database, as an export opens: read
     * only, at the moment it opens where its server keeps versions (else live, and said so), its kinds listed and
     * counted there; refused when it is the connected database itself. It can then be compared with the connected
     * database and restored (copied) from, with a sample and a transform.
     */
    public void openOther() {
        Session live = session.get();
        ConnectionProfile chosen = shown.profileProperty().get();
        if (live == null) {
            errors.accept("Connect to a database first: another database is compared with, and copied into, the "
                    + "open connection.");
            return;
        }
        if (chosen == null) {
            errors.accept("Choose a saved connection to open as another database.");
            return;
        }
        String label = DatabaseOpening.label(chosen);
        openDatabase(live, label, "Reading another database", ctx -> DatabaseOpening.other(live, chosen,
                n -> ctx.progress(n, -1, String.format("Counting %s: %,d entities", label, n)),
                Cancellation.of(ctx::isCancelled)), result -> {
                    shown.showDatabase(result.session(), label);
                    diff.databaseProperty().set(result.session());
                    return DatabaseOpening.summary(chosen, result);
                });
    }

    /**
     * Opens a database ({@code what}) as an export opens: read off the FX thread by {@code work}; once read, it takes
     * the place of what was shown, {@code show} showing it and giving the summary. If it cannot be opened, or another connection opened meanwhile, what was shown stays.
     */
    private void openDatabase(Session live, String what, String title,
                              Tasks.Work<DatabaseOpening.Opened> work,
                              Function<DatabaseOpening.Opened, String> show) {
        String before = summary.get();
        summary.set("Reading " + what + "…");
        opening.set(true);
        Tasks.create(title, work).onSuccess(result -> {
            opening.set(false);
            if (live != session.get()) { // another connection opened meanwhile
                summary.set(stillShown(Character.toUpperCase(what.charAt(0)) + what.substring(1) + " was read "
                        + "through another connection", before));
                return;
            }
            closeShown();
            kinds.setAll(result.kinds());
            summary.set(show.apply(result));
            if (!kinds.isEmpty()) {
                selectedKind.set(kinds.get(0));
            }
        }).onError(e -> {
            summary.set(stillShown("Could not open " + what, before));
            failed(e);
        }).onCancelled(() -> {
            opening.set(false);
            summary.set(stillShown("Opening " + what + " was cancelled", before));
        }).run(tasks);
    }

    /**
     * What the summary says after {@code what} failed: what is still shown (its summary {@code before}), or that
     * nothing is open.
     */
    private String stillShown(String what, String before) {
        return !shown.any() ? what + ": nothing is open. " + NOTHING_OPEN
                : what + "; still shown: " + before;
    }

    /** What the tab says under its summary: why Compare, Restore and queries are off, or "". */
    public StringExpression locationNotice() {
        return shown.notice();
    }

    /** Forgets the export on screen and everything read from it. */
    private void closeShown() {
        shown.clear();
        diff.pastProperty().set(null);
        diff.databaseProperty().set(null);
        selectedKind.set(null); // clears the comparison and the entities
        kinds.clear();
        diff.exportProperty().set(null);
        diff.clear();
        pages.clear();
    }

    private void failed(Throwable e) {
        opening.set(false);
        errors.accept(ErrorMessages.of(e));
    }

    /** What of {@code rows} is KeyRanger's own, said apart ("" when none is). */
    private static String keyRangers(List<KindRow> rows) {
        List<KindRow> own = rows.stream().filter(KindRow::keyRangers).toList();
        return own.isEmpty() ? "" : String.format("; %,d of them in %d kind%s of KeyRanger's own bookkeeping and "
                + "undo records, listed after yours", own.stream().mapToLong(KindRow::count).sum(), own.size(),
                own.size() == 1 ? "" : "s");
    }

    /** Compares the selected kind of the export with the live database of the open connection. */
    public void compare() {
        if (refusesOtherExport()) {
            return;
        }
        diff.compare(session.get(), selectedKind.get());
    }

    /** Says so, and true, while the path or time box names another export or moment than the one shown. */
    private boolean refusesOtherExport() {
        if (shown.stillNamed()) {
            return false;
        }
        errors.accept(shown.otherThanShown());
        return true;
    }

    /**
     * Restores the selected kind from the export or the moment on show as {@link #restoring()} is set (a job the Run
     * tab follows), once {@code confirm} agrees to what it writes and where (on an emulator it always does: {@code
     * WriteConfirmation}): exactly the rows selected in the comparison ({@link DiffModel#chosen()}), or, with none
     * selected, the whole kind once {@code whole} agrees to that question.
     */
    public void restore(BiPredicate<ConnectionSpec, String> confirm, Predicate<String> whole) {
        if (refusesOtherExport()) {
            return;
        }
        restoring.restore(session.get(), selectedKind.get(), shown.export(), confirm, whole);
    }

    /** Keys are placed in the connected project, so that they compare with live keys; "export" when none is open. */
    private String project() {
        Session s = session.get();
        return s == null ? "export" : s.spec().projectId();
    }

    private KeyOrder order() {
        Session s = session.get();
        return s == null ? KeyOrder.EMULATOR : s.order();
    }

    /** The saved connections another database can be opened from (the app keeps it as they are saved). */
    public ObservableList<ConnectionProfile> profiles() {
        return shown.profiles();
    }

    /** The saved connection chosen to be opened as another database. */
    public ObjectProperty<ConnectionProfile> profileProperty() {
        return shown.profileProperty();
    }

    /** Another database on show instead of an export or a moment, or null. */
    public ReadOnlyObjectProperty<Session> databaseProperty() {
        return database;
    }

    /** True when "Open" of another database may run: nothing being read, a connection open, one chosen. */
    public BooleanExpression canOpenOther() {
        return canOpenDatabase;
    }

    public StringProperty locationProperty() {
        return shown.locationProperty();
    }

    /** The time box: RFC 3339 or a time back from now such as {@code -15m}. */
    public StringProperty asOfProperty() {
        return shown.asOfProperty();
    }

    /** The session reading the database as of the moment on show instead of an export, or null. */
    public ReadOnlyObjectProperty<Session> pastProperty() {
        return past;
    }

    /** The open connection, which a comparison and a restore use. */
    public ObjectProperty<Session> sessionProperty() {
        return session;
    }

    /**
     * True when a query, a key lookup and paging may run: a kind of the export on screen, nothing being read, and the
     * path box naming that export as it was opened (they act on that export, so they are off while the box names
     * another: edited, or one that could not be opened).
     */
    public BooleanExpression canQuery() {
        return canQuery;
    }

    /** True when Compare may run: as {@link #canQuery()}, with a connection open to compare with. */
    public BooleanExpression canCompare() {
        return canCompare;
    }

    /** True when Restore… may run: exactly when Compare may. */
    public BooleanExpression canRestore() {
        return canCompare;
    }

    /** True when "Open as of" may run: nothing being read, and a server that keeps a past ({@link #pastOff()}). */
    public BooleanExpression canOpenPast() {
        return canOpenPast;
    }

    /** Why "Open as of" is off ({@code ServerType.NO_PAST} on the legacy emulator), or "". */
    public StringExpression pastOff() {
        return pastOff;
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    public ObservableList<KindRow> kinds() {
        return kinds;
    }

    public ObjectProperty<KindRow> selectedKindProperty() {
        return selectedKind;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    public DiffModel diff() {
        return diff;
    }

    /** The restore of the selected kind: its mode, until and remove-added. */
    public RestoreModel restoring() {
        return restoring;
    }

    /** The selected kind of the export, paged through a query. */
    public ExportPages pages() {
        return pages;
    }
}

package io.keyranger.ui.migrations;

import io.keyranger.KeyRangerException;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.Session;
import io.keyranger.launch.JobRequest;
import io.keyranger.launch.Jobs;
import io.keyranger.migrate.Migration;
import io.keyranger.migrate.MigrationFolder;
import io.keyranger.migrate.MigrationLedger;
import io.keyranger.migrate.MigrationStatus;
import io.keyranger.migrate.MigrationStep;
import io.keyranger.migrate.Migrations;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import io.keyranger.ui.run.RunViewModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Migrations tab: a folder of migrations opened against the connected database, each with its state there; the
 * plan (every pending step's dry run and price); Apply (every pending migration, in order) and Roll back (to before a
 * migration), run as {@code migrate up} and {@code down} run them ({@link Migrations}), each step a job followed on the
 * Run tab like any job (its tree, Pause and Cancel: a step cancelled stops the migration, which Apply resumes).
 */
public final class MigrationsViewModel {
    /** A migration as the tab lists it: its number, file, state in words, and its jobs or why it stopped. */
    public record Row(int number, String file, String state, String detail) {
    }

    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final RunViewModel run;
    private final ObjectProperty<Session> session = new SimpleObjectProperty<>();
    private final StringProperty folder = new SimpleStringProperty("");
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Open a folder of migrations "
            + "(NNNN_description.json files) to see their state in the connected database.");
    private final ReadOnlyStringWrapper plan = new ReadOnlyStringWrapper("");
    private PriceTable prices = PriceTable.BUILT_IN;
    /** The folder the rows show, and its files as they were read then: what Apply and Roll back act on. */
    private Path opened;
    private List<Migration> shown = List.of();

    public MigrationsViewModel(TaskRunner tasks, Consumer<String> errors, RunViewModel run) {
        this.tasks = tasks;
        this.errors = errors;
        this.run = run;
        session.addListener((obs, old, now) -> {
            rows.clear();
            plan.set("");
            opened = null;
            shown = List.of();
        });
    }

    /** Reads the folder and the connected database's ledger (off the FX thread), and lists each migration. */
    public void open() {
        Session live = session.get();
        Path dir = folder();
        if (live == null || dir == null) {
            return;
        }
        background("Reading the migrations", () -> {
            List<Migration> files = MigrationFolder.read(dir);
            return new Opened(files, migrations(live).status(files));
        }, read -> {
                    opened = dir;
                    shown = read.files();
                    List<MigrationStatus> all = read.status();
                    show(all);
                    long pending = all.stream().filter(s -> s.entry() == null
                            || s.entry().state() != MigrationLedger.State.APPLIED).count();
                    message.set(all.isEmpty() ? "No migrations in " + dir + "." : String.format("%d migration%s, "
                            + "%d not applied here.", all.size(), all.size() == 1 ? "" : "s", pending));
                });
    }

    /** The dry run of every pending step, and the price of all of them, as {@code migrate plan} prints them. */
    public void plan() {
        Session live = session.get();
        Path dir = opened;
        if (live == null || dir == null) {
            return;
        }
        PriceTable at = prices;
        List<Migration> seen = shown; // the files the rows show
        background("Planning the migrations", () -> {
            StringWriter text = new StringWriter();
            PrintWriter out = new PrintWriter(text);
            migrations(live).plan(seen, null, 20, at,
                    out, w -> out.println("warning: " + w));
            return text.toString();
        }, text -> {
            plan.set(text);
            message.set("Planned: nothing was written.");
        });
    }

    /**
     * Applies every pending migration in order, as {@code migrate up} does, once {@code confirm} agrees (outside an
     * emulator it asks for the project id); each step runs on the Run tab.
     */
    public void apply(BiPredicate<ConnectionSpec, String> confirm) {
        Session live = session.get();
        Path dir = opened;
        List<Migration> seen = shown;
        if (live == null || dir == null || !confirm.test(live.spec(), "Applying the pending migrations")) {
            return;
        }
        background("Applying the migrations", () -> migrations(live)
                .up(asShown(dir, seen), null, steps(live), this::say), code -> ended(code, live, dir, "Applied",
                "Apply"));
    }

    /**
     * The folder's files, refused when they are not those the rows show ({@code seen}): Apply acts on what the tab
     * shows, not on files added or edited since.
     */
    private static List<Migration> asShown(Path dir, List<Migration> seen) {
        List<Migration> now = MigrationFolder.read(dir);
        if (!now.stream().map(m -> m.name() + " " + m.checksum()).toList()
                .equals(seen.stream().map(m -> m.name() + " " + m.checksum()).toList())) {
            throw new KeyRangerException("The migrations in " + dir + " changed since they were opened: open the "
                    + "folder again to see what Apply would do; nothing was written.");
        }
        return now;
    }

    /**
     * Takes back the migrations numbered above {@code to}, newest first, as {@code migrate down --to} does, once
     * {@code confirm} agrees; each revert runs on the Run tab.
     */
    public void rollBack(int to, BiPredicate<ConnectionSpec, String> confirm) {
        Session live = session.get();
        Path dir = opened;
        if (live == null || dir == null || !confirm.test(live.spec(), "Rolling the migrations back")) {
            return;
        }
        background("Rolling the migrations back", () -> migrations(live)
                .down(MigrationFolder.read(dir), to, false, steps(live), this::say), code -> ended(code, live, dir,
                "Rolled back", "Roll back"));
    }

    /** Each step as a job of the Run tab, waited for here (off the FX thread). */
    private Migrations.StepRunner steps(Session live) {
        return (JobRequest request) -> {
            try {
                return Migrations.Outcome.of(run.runStep(live, request, "migration · " + describe(request)).get());
            } catch (ExecutionException e) {
                throw new KeyRangerException(ErrorMessages.of(e.getCause()));
            }
        };
    }

    private static String describe(JobRequest request) {
        if (request instanceof JobRequest.NewJob job) {
            return "job " + job.spec().jobId();
        }
        if (request instanceof JobRequest.Resume resume) {
            return "resume " + resume.jobId();
        }
        return "revert " + ((JobRequest.Revert) request).jobId();
    }

    /** Migrations of {@code live} as the tab runs them: its jobs sized as a job's defaults. */
    private static Migrations migrations(Session live) {
        return new Migrations(Jobs.on(live), MigrationStep.Sizes.DEFAULT);
    }

    /** A folder's files as read, and their states in the database. */
    private record Opened(List<Migration> files, List<MigrationStatus> status) {
    }

    private void ended(int code, Session live, Path dir, String done, String command) {
        String outcome = code == 0 ? done + "." : code == Migrations.Outcome.LEFT_ALONE ? done + ", but entities "
                + "changed later were left alone (the Run tab's report names them)." : command + " stopped: a step "
                + "did not end done (see the Run tab). " + command + " again resumes it.";
        if (session.get() == live && dir.equals(opened)) {
            background("Reading the migrations", () -> migrations(live)
                    .status(shown), all -> {
                        show(all);
                        message.set(outcome);
                    });
        }
        message.set(outcome);
    }

    private void say(String line) {
        Platform.runLater(() -> message.set(line));
    }

    private void show(List<MigrationStatus> all) {
        int highest = MigrationStatus.highestInEffect(all);
        rows.setAll(all.stream().map(s -> {
            MigrationLedger.Entry e = s.entry();
            String detail = e == null || e.state() == MigrationLedger.State.REVERTED ? ""
                    : String.join(", ", e.jobs()) + (e.ended() == null ? "" : " · " + e.ended())
                    + (e.message() == null ? "" : " · " + e.message());
            return new Row(s.number(), s.migration() != null ? s.migration().name() : e.name(),
                    s.word(highest).text(), detail);
        }).toList());
    }

    private <T> void background(String title, Callable<T> work, Consumer<T> done) {
        busy.set(true);
        Tasks.create(title, work).onSuccess(result -> {
            busy.set(false);
            done.accept(result);
        }).onError(e -> {
            busy.set(false);
            message.set(title + " stopped: " + ErrorMessages.of(e));
            errors.accept(ErrorMessages.of(e));
        }).run(tasks);
    }

    private Path folder() {
        String text = folder.get() == null ? "" : folder.get().strip();
        return text.isEmpty() ? null : Path.of(text);
    }

    /** The prices plans are priced at (the settings'). */
    public void setPrices(PriceTable prices) {
        this.prices = prices;
    }

    /** The connected database's live session (bound to the window's). */
    public ObjectProperty<Session> sessionProperty() {
        return session;
    }

    /** The folder of migrations, as typed or chosen. */
    public StringProperty folderProperty() {
        return folder;
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    /** Whether it reads, plans, applies or rolls back now. */
    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }

    /** What it says of the folder, or of what it did last. */
    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    /** The last plan, as text. */
    public ReadOnlyStringProperty planProperty() {
        return plan.getReadOnlyProperty();
    }
}

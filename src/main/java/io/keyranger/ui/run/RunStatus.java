package io.keyranger.ui.run;

import java.util.Map;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the Run tab shows of the job in hand or the one inspected: a summary line, the totals (and their text), the
 * timing, the problems of a finished job, and whether a job runs here and is paused or being cancelled. The Run tab's
 * model sets them on the FX thread; the views bind to them. Until a job or an action has said something, the summary
 * is the hint of what is still to choose ({@link #hintProperty}). Its empty tree says what it shows ({@link #emptyTreeProperty}):
 * no job yet, the job handed over and not started, or a job with no ranges to show; never "No job yet" beside a job.
 */
public final class RunStatus {
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper();
    private final StringProperty said = new SimpleStringProperty();
    private final StringProperty hint = new SimpleStringProperty("");
    private final ReadOnlyObjectWrapper<Map<String, Long>> totals = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyStringWrapper totalsText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper timingText = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper problems = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper paused = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper cancelling = new ReadOnlyBooleanWrapper();
    /** What the empty tree says of the job shown; null while it shows the job handed over ({@link #nextJob}). */
    private final StringProperty treeNote = new SimpleStringProperty(NO_JOB);
    private final StringProperty nextJob = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper emptyTree = new ReadOnlyStringWrapper();
    static final String NO_JOB = "No job yet";

    RunStatus() {
        summary.bind(Bindings.createStringBinding(() -> said.get() != null ? said.get() : hint.get(), said, hint));
        totalsText.bind(Bindings.createStringBinding(() -> totals.get().isEmpty() ? ""
                : ThroughputMeter.describeTotals(totals.get()), totals));
        emptyTree.bind(Bindings.createStringBinding(() -> treeNote.get() != null ? treeNote.get()
                : nextJob.get() + ": not started; Start runs it.", treeNote, nextJob));
    }

    /** What the empty tree says of the job shown ({@link #NO_JOB} while none is), or null for the job handed over. */
    void showTree(String note) {
        treeNote.set(note);
    }

    /** Whether the tab shows no job: none ran, was inspected or handed over. */
    boolean showsNoJob() {
        return NO_JOB.equals(treeNote.get());
    }

    /** The job Start runs, in words ({@link JobWords#next}): what the empty tree names once it is handed over. */
    StringProperty nextJobProperty() {
        return nextJob;
    }

    void say(String text) {
        said.set(text);
    }

    /** What the summary says before anything was said: what is still to choose, or what Start runs. */
    StringProperty hintProperty() {
        return hint;
    }

    void setTotals(Map<String, Long> value) {
        totals.set(value);
    }

    Map<String, Long> totals() {
        return totals.get();
    }

    void setTiming(String text) {
        timingText.set(text);
    }

    void setProblems(String text) {
        problems.set(text);
    }

    void setRunning(boolean value) {
        running.set(value);
    }

    boolean isRunning() {
        return running.get();
    }

    void setPaused(boolean value) {
        paused.set(value);
    }

    boolean isPaused() {
        return paused.get();
    }

    public ReadOnlyStringProperty summaryProperty() {
        return summary.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<Map<String, Long>> totalsProperty() {
        return totals.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty totalsTextProperty() {
        return totalsText.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty timingTextProperty() {
        return timingText.getReadOnlyProperty();
    }

    /** The last job's failed ranges and skipped entities, grouped by reason; empty when there were none. */
    public ReadOnlyStringProperty problemsProperty() {
        return problems.getReadOnlyProperty();
    }

    /** What the range tree says while it has no rows. */
    public ReadOnlyStringProperty emptyTreeProperty() {
        return emptyTree.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty runningProperty() {
        return running.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty pausedProperty() {
        return paused.getReadOnlyProperty();
    }

    void setCancelling(boolean value) {
        cancelling.set(value);
    }

    boolean isCancelling() {
        return cancelling.get();
    }

    /**
     * Whether the job here was cancelled and has not ended yet: nothing new starts, the commits under way end; Pause
     * and Cancel have nothing left to do.
     */
    public ReadOnlyBooleanProperty cancellingProperty() {
        return cancelling.getReadOnlyProperty();
    }
}

package io.keyranger.ui.entities;

import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.edit.ChangedSinceException;
import io.keyranger.edit.EntityEditor;
import io.keyranger.ui.common.ErrorMessages;
import io.keyranger.ui.common.TaskRunner;
import io.keyranger.ui.common.Tasks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The Entities tab's edits and their history: Undo takes back the last edit the user made, Redo makes it again, and
 * a new edit forgets what could be redone. Undo and Redo are edits of their own on the server (each checks, in its
 * transaction, that the entities are still as the edit it takes back left them), but never entries of the history:
 * undoing twice takes back two edits, not the undo.
 */
public final class EntityEdits {
    private final TaskRunner tasks;
    private final Consumer<String> errors;
    private final Runnable reload;
    private final Deque<EntityEditor.Edit> undone = new ArrayDeque<>();
    private final Deque<EntityEditor.Edit> done = new ArrayDeque<>();
    private final ReadOnlyBooleanWrapper canUndo = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper canRedo = new ReadOnlyBooleanWrapper();
    private final ReadOnlyBooleanWrapper readOnly = new ReadOnlyBooleanWrapper();
    private final ReadOnlyStringWrapper readOnlyReason = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper("");
    private EntityEditor editor;
    private ConnectionSpec connection;
    private boolean past;

    EntityEdits(TaskRunner tasks, Consumer<String> errors, Runnable reload) {
        this.tasks = tasks;
        this.errors = errors;
        this.reload = reload;
    }

    /** The editor of the open connection; a new connection forgets the history (it was of another database). */
    void setEditor(EntityEditor value, ConnectionSpec spec) {
        this.editor = value;
        this.connection = spec;
        this.past = false;
        refreshReadOnly();
        done.clear();
        undone.clear();
        refresh();
        status.set("");
    }

    /**
     * Whether the browser shows the database as of a past moment: nothing can be edited then (the past is read-only),
     * and the history waits for the return to live data.
     */
    void setPast(boolean value) {
        past = value;
        refreshReadOnly();
    }

    private void refreshReadOnly() {
        boolean connectionReadOnly = connection != null && connection.readOnly();
        readOnly.set(connectionReadOnly || past);
        readOnlyReason.set(past ? "Reading the past: editing is off." : connectionReadOnly
                ? "Read-only connection: editing is off." : "");
    }

    /** The connection's spec, for the confirmation a production project needs. */
    public ConnectionSpec connection() {
        return connection;
    }

    public void create(Entity entity) {
        run("Creating", () -> editor.create(entity), Step.NEW);
    }

    public void update(Entity original, Entity changed) {
        run("Saving", () -> editor.update(original, changed), Step.NEW);
    }

    public void delete(List<Entity> entities) {
        run("Deleting", () -> editor.delete(entities), Step.NEW);
    }

    /** Takes back the last edit the user made (not an undo). */
    public void undo() {
        EntityEditor.Edit edit = done.peek();
        if (edit != null) {
            run("Undoing " + edit.description(), () -> editor.undo(edit), Step.UNDO);
        }
    }

    /** Makes the last undone edit again. */
    public void redo() {
        EntityEditor.Edit edit = undone.peek();
        if (edit != null) {
            run("Redoing " + edit.description(), () -> editor.redo(edit), Step.REDO);
        }
    }

    private enum Step { NEW, UNDO, REDO }

    private void run(String doing, Callable<EntityEditor.Edit> action, Step step) {
        if (editor == null) {
            errors.accept("Connect first.");
            return;
        }
        if (readOnly.get()) {
            errors.accept(readOnlyReason.get());
            return;
        }
        status.set(doing + "…");
        Tasks.create(doing, action)
                .onSuccess(edit -> {
                    switch (step) {
                        case NEW -> {
                            done.push(edit);
                            undone.clear();
                            status.set("Done: " + edit.description() + ". Undo takes it back.");
                        }
                        case UNDO -> {
                            undone.push(done.pop());
                            status.set("Undone: " + undone.peek().description() + ". Redo makes it again.");
                        }
                        case REDO -> {
                            done.push(undone.pop());
                            status.set("Redone: " + done.peek().description() + ". Undo takes it back.");
                        }
                    }
                    refresh();
                    reload.run();
                })
                .onError(error -> {
                    ChangedSinceException changed = step == Step.NEW ? null : changedSince(error);
                    if (changed != null) {
                        // it can never apply again: the entity is no longer as the edit left it
                        (step == Step.UNDO ? done : undone).pop();
                        refresh();
                        status.set(leftAlone(step == Step.UNDO ? "Undo" : "Redo", changed)
                                + (error == changed ? "" : " " + ErrorMessages.of(error)));
                    } else {
                        status.set("");
                        errors.accept(ErrorMessages.of(error));
                    }
                    reload.run();
                })
                .run(tasks);
    }

    /**
     * After a job ended (or whenever entities may have changed behind the history's back): takes away the Undo and
     * Redo that can no longer apply, because an entity they would write is no longer as they expect, and says why.
     * Reads off the FX thread; the next Undo or Redo checks again in its own transaction.
     */
    public void recheck() {
        EntityEditor.Edit toUndo = done.peek();
        EntityEditor.Edit toRedo = undone.peek();
        if (editor == null || (toUndo == null && toRedo == null)) {
            return;
        }
        EntityEditor checking = editor;
        Tasks.create("Checking Undo", () -> new ChangedSinceException[] {
            toUndo == null ? null : checking.changedSince(toUndo.after()),
            toRedo == null ? null : checking.changedSince(toRedo.before())})
                .onSuccess(found -> {
                    if (checking != editor) {
                        return;
                    }
                    List<String> said = new ArrayList<>();
                    if (found[0] != null && done.peek() == toUndo) {
                        done.pop();
                        said.add(leftAlone("Undo", found[0]));
                    }
                    if (found[1] != null && undone.peek() == toRedo) {
                        undone.pop();
                        said.add(leftAlone("Redo", found[1]));
                    }
                    if (!said.isEmpty()) {
                        refresh();
                        status.set(String.join(" ", said));
                    }
                })
                .onError(error -> { }) // the Undo itself checks again, and says what it meets
                .run(tasks);
    }

    /** What an Undo or Redo that met an entity changed since says: what happened, that nothing was written. */
    private static String leftAlone(String what, ChangedSinceException changed) {
        return what + " is off: " + changed.entity() + " was " + changed.change().word() + " since (by a job or "
                + "someone else) and was left alone. The page was read again: it shows the entity as it is now.";
    }

    private static ChangedSinceException changedSince(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ChangedSinceException changed) {
                return changed;
            }
        }
        return null;
    }

    private void refresh() {
        canUndo.set(!done.isEmpty());
        canRedo.set(!undone.isEmpty());
    }

    public ReadOnlyBooleanProperty canUndoProperty() {
        return canUndo.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty canRedoProperty() {
        return canRedo.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty readOnlyProperty() {
        return readOnly.getReadOnlyProperty();
    }

    /** Why editing is off ("Read-only connection: …", "Reading the past: …"), or "". */
    public ReadOnlyStringProperty readOnlyReasonProperty() {
        return readOnlyReason.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty statusProperty() {
        return status.getReadOnlyProperty();
    }
}

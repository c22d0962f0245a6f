package io.keyranger.ui.common;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.concurrent.Task;
import javafx.concurrent.Worker;

/** What the status bar shows: the connection, and the long background task in progress, which can be cancelled. */
public final class StatusModel {
    private final ReadOnlyStringWrapper connection = new ReadOnlyStringWrapper("Not connected");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("Ready");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyBooleanWrapper busy = new ReadOnlyBooleanWrapper();
    private Task<?> current;

    /** Shows a task's message and progress until it ends. */
    public void track(Task<?> task) {
        current = task;
        busy.set(true);
        message.bind(task.messageProperty());
        progress.bind(task.progressProperty());
        task.stateProperty().addListener((obs, old, state) -> {
            if (task == current && (state == Worker.State.SUCCEEDED || state == Worker.State.FAILED
                    || state == Worker.State.CANCELLED)) {
                message.unbind();
                progress.unbind();
                progress.set(0);
                busy.set(false);
                message.set(state == Worker.State.CANCELLED ? task.getTitle() + ": cancelled"
                        : state == Worker.State.FAILED ? task.getTitle() + ": failed" : "Ready");
                current = null;
            }
        });
    }

    public void cancel() {
        if (current != null) {
            current.cancel();
        }
    }

    public void setConnection(String text) {
        connection.set(text);
    }

    public ReadOnlyStringProperty connectionProperty() {
        return connection.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }

    public ReadOnlyDoubleProperty progressProperty() {
        return progress.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy.getReadOnlyProperty();
    }
}

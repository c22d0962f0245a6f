package io.keyranger.ui.common;

import javafx.concurrent.Task;

/** Runs JavaFX tasks off the FX thread; view models depend on this, never on a thread pool directly. */
@FunctionalInterface
public interface TaskRunner {
    void run(Task<?> task);
}

package io.keyranger.ui.common;

import java.util.concurrent.Callable;
import java.util.function.Consumer;
import javafx.concurrent.Task;

/**
 * Builds JavaFX tasks fluently: {@code Tasks.create("Counting", ctx -> ...).onSuccess(...).onError(...).run(runner)}.
 * Handlers run on the FX thread; the work runs on the runner's thread and can report progress through its context.
 */
public final class Tasks {
    private Tasks() {
    }

    /** The work of a task, with a way to report progress and see cancellation. */
    @FunctionalInterface
    public interface Work<T> {
        T call(Context context) throws Exception;
    }

    /** What work sees of its task. */
    public interface Context {
        void progress(long done, long total, String message);

        boolean isCancelled();
    }

    public static <T> Builder<T> create(String title, Work<T> work) {
        return new Builder<>(title, work);
    }

    public static <T> Builder<T> create(String title, Callable<T> work) {
        return new Builder<>(title, context -> work.call());
    }

    /** Fluent builder of one task. */
    public static final class Builder<T> {
        private final String title;
        private final Work<T> work;
        private Consumer<T> onSuccess = value -> { };
        private Consumer<Throwable> onError = error -> { };
        private Runnable onCancelled = () -> { };

        private Builder(String title, Work<T> work) {
            this.title = title;
            this.work = work;
        }

        public Builder<T> onSuccess(Consumer<T> handler) {
            this.onSuccess = handler;
            return this;
        }

        public Builder<T> onError(Consumer<Throwable> handler) {
            this.onError = handler;
            return this;
        }

        public Builder<T> onCancelled(Runnable handler) {
            this.onCancelled = handler;
            return this;
        }

        public Task<T> build() {
            WorkTask<T> task = new WorkTask<>(title, work);
            task.setOnSucceeded(e -> onSuccess.accept(task.getValue()));
            task.setOnFailed(e -> onError.accept(task.getException()));
            task.setOnCancelled(e -> onCancelled.run());
            return task;
        }

        public Task<T> run(TaskRunner runner) {
            Task<T> task = build();
            runner.run(task);
            return task;
        }
    }

    /** A task whose work sees it as a {@link Context}. */
    private static final class WorkTask<T> extends Task<T> implements Context {
        private final Work<T> work;

        WorkTask(String title, Work<T> work) {
            this.work = work;
            updateTitle(title);
            updateMessage(title + "…");
        }

        @Override
        protected T call() throws Exception {
            return work.call(this);
        }

        @Override
        public void progress(long done, long total, String message) {
            if (total > 0) {
                updateProgress(done, total);
            } else {
                updateProgress(-1, -1);
            }
            updateMessage(message);
        }
    }
}

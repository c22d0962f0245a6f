package io.keyranger.executor.cells;

/**
 * Called inside a job's transactions just before they commit, with what commits ("chunk r0.1", "split r0", "done r3",
 * "failed r2", "plan", "claim", "finish", "import"): a seam for tests that take a job over at exactly that moment.
 * Production runs use {@link #NONE}.
 */
@FunctionalInterface
public interface CommitHook {
    public CommitHook NONE = what -> { };

    public void beforeCommit(String what);
}

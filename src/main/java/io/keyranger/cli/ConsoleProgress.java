package io.keyranger.cli;

import io.keyranger.datastore.ProgressListener;
import java.io.PrintWriter;

/**
 * Prints progress to stderr at most twice a second on a terminal and every ten seconds otherwise, so that long work
 * shows it is alive without flooding logs.
 */
final class ConsoleProgress implements ProgressListener {
    private static final long INTERVAL_NANOS = System.console() != null ? 500_000_000L : 10_000_000_000L;

    private final PrintWriter err;
    private final String label;
    private long lastPrinted = System.nanoTime();

    ConsoleProgress(PrintWriter err, String label) {
        this.err = err;
        this.label = label;
    }

    @Override
    public synchronized void progress(long done, long total) {
        long now = System.nanoTime();
        boolean finished = total >= 0 && done >= total;
        if (!finished && now - lastPrinted < INTERVAL_NANOS) {
            return;
        }
        lastPrinted = now;
        err.println(total >= 0 ? String.format("%s: %,d / %,d", label, done, total) : String.format("%s: %,d", label, done));
        err.flush();
    }
}

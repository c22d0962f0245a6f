package io.keyranger.cli;

import io.keyranger.job.JobListener;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A live progress line on stderr: read, written, ranges, depth and rate; every second on a terminal. */
final class JobProgressPrinter implements JobListener, AutoCloseable {
    private final PrintWriter err;
    private final Map<String, NodeStatus> statuses = new ConcurrentHashMap<>();
    private final Map<String, Integer> depths = new ConcurrentHashMap<>();
    private volatile Map<String, Long> totals = Map.of();
    private final long startNanos = System.nanoTime();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "keyranger-progress");
        thread.setDaemon(true);
        return thread;
    });

    JobProgressPrinter(PrintWriter err) {
        this.err = err;
        long period = System.console() != null ? 1 : 10;
        timer.scheduleAtFixedRate(this::print, period, period, TimeUnit.SECONDS);
    }

    @Override
    public void onNode(NodeSnapshot node) {
        statuses.put(node.id(), node.status());
        depths.put(node.id(), node.depth());
    }

    @Override
    public void onTotals(Map<String, Long> totals) {
        this.totals = totals;
    }

    @Override
    public void onServerStatus(String problem) {
        err.println(problem == null ? "The server is back; continuing." : problem);
        err.flush();
    }

    private void print() {
        long read = totals.getOrDefault("read", 0L);
        double seconds = Math.max(0.001, (System.nanoTime() - startNanos) / 1e9);
        long running = statuses.values().stream().filter(s -> s == NodeStatus.RUNNING).count();
        int depth = depths.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        err.printf("read %,d  written %,d  ranges %d (%d running)  depth %d  %,.0f/s%n", read,
                totals.getOrDefault("written", 0L), statuses.size(), running, depth, read / seconds);
        err.flush();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

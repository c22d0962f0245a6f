package io.keyranger.cli;

import io.keyranger.job.JobListener;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.summary.JobClock;
import io.keyranger.summary.JobProgress;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A live progress line on stderr, every second on a terminal (else every ten): the job's {@link JobProgress} (read,
 * written, ranges, depth and rate), its clock sampled each second.
 */
final class JobProgressPrinter implements JobListener, AutoCloseable {
    private final PrintWriter err;
    private final Map<String, NodeSnapshot> nodes = new ConcurrentHashMap<>();
    private volatile Map<String, Long> totals = Map.of();
    private final JobClock clock = new JobClock();
    private final long every = System.console() != null ? 1 : 10;
    private final AtomicLong seconds = new AtomicLong();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "keyranger-progress");
        thread.setDaemon(true);
        return thread;
    });

    JobProgressPrinter(PrintWriter err) {
        this.err = err;
        timer.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void onNode(NodeSnapshot node) {
        nodes.put(node.id(), node);
    }

    @Override
    public void onTotals(Map<String, Long> totals) {
        if (this.totals.isEmpty()) {
            // the rate's baseline: what the job had read when it first reported (a resumed job's earlier reads are
            // not this run's), so the first line's rate is this run's, not 0
            clock.sample(System.nanoTime(), totals.getOrDefault("read", 0L));
        }
        this.totals = totals;
    }

    @Override
    public void onServerStatus(String problem) {
        err.println(problem == null ? "The server is back; continuing." : problem);
        err.flush();
    }

    private void tick() {
        long now = System.nanoTime();
        Map<String, Long> latest = totals;
        clock.sample(now, latest.getOrDefault("read", 0L));
        if (seconds.incrementAndGet() % every == 0) {
            print(clock.progress(now, latest, JobProgress.Ranges.of(nodes.values()), -1));
        }
    }

    private void print(JobProgress job) {
        err.printf("read %,d  written %,d  ranges %d (%d running)  depth %d  %,.0f/s%n", job.total("read"),
                job.total("written"), job.ranges().count(), job.ranges().running(), job.ranges().depth(),
                Double.isNaN(job.rate()) ? 0 : job.rate());
        err.flush();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}

package io.keyranger.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The heap a timed job uses: a GC and a reading at its start, samples every 100 ms while it runs (the peak), and a GC
 * and a reading at its end (what it kept). With the production model in the same JVM, the model's data is in the
 * start's reading and does not grow during a job (it replaces entities in place), so the figures are the client's.
 */
final class HeapWatch {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final long start;
    private final Thread sampler;
    private volatile long peak;
    private volatile boolean running = true;
    private long end = -1;

    HeapWatch() {
        System.gc();
        start = used();
        peak = start;
        sampler = new Thread(() -> {
            while (running) {
                peak = Math.max(peak, used());
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bench-heap");
        sampler.setDaemon(true);
        sampler.start();
    }

    void stop() {
        running = false;
        sampler.interrupt();
        peak = Math.max(peak, used());
        System.gc();
        end = used();
    }

    long peakKb() {
        return (peak - start) / 1024;
    }

    long retainedKb() {
        return end < 0 ? -1 : (end - start) / 1024;
    }

    private long used() {
        return memory.getHeapMemoryUsage().getUsed();
    }
}

package io.keyranger.summary;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * This JVM's CPU at a moment, and what of it went to the JIT compiler's and the garbage collector's threads: the part
 * of a run's CPU that is the JVM's own work, not the job's. A pipeline's JVM compiles Flink's and Beam's code as well
 * as the job's, so its CPU per entity is only comparable with a local run's once that part is known. The split is read
 * from Linux's {@code /proc/self/task} (the JVM hides its compiler threads from {@code ThreadMXBean}); elsewhere it is
 * unknown and only the total is given.
 *
 * @param totalNanos the process's CPU, all threads
 * @param threads    CPU ticks of each JIT or GC thread alive at that moment, by thread id; empty when unknown
 */
public record ProcessCpu(long totalNanos, Map<String, Ticks> threads) {
    /** Linux's clock ticks a second in {@code /proc} (USER_HZ, 100 on every Linux ABI a JDK runs on). */
    private static final long NANOS_A_TICK = 10_000_000L;
    private static final Path TASKS = Path.of("/proc/self/task");

    /** A thread's user and system CPU in clock ticks, and whether it compiles ({@code jit}) or collects. */
    public record Ticks(boolean jit, long ticks) {
    }

    /**
     * What went where between two moments.
     *
     * @param totalNanos the process's CPU
     * @param jitNanos   the JIT compiler threads' CPU, -1 when unknown
     * @param gcNanos    the garbage collector threads' CPU, -1 when unknown
     */
    public record Spent(long totalNanos, long jitNanos, long gcNanos) {
        /** "JIT compiler 10.4 s, GC 0.8 s", or "" when the split is unknown. */
        public String split() {
            return jitNanos < 0 ? "" : String.format(Locale.ROOT, "JIT compiler %.1f s, GC %.1f s", jitNanos / 1e9,
                    gcNanos / 1e9);
        }
    }

    public ProcessCpu {
        threads = Map.copyOf(threads);
    }

    /** Now. */
    public static ProcessCpu now() {
        return new ProcessCpu(processNanos(), jvmThreads());
    }

    /** The process's CPU so far, all threads, without the split (no thread's {@code /proc} entry is read). */
    public static long processNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /**
     * What this JVM spent from {@code start} to this moment. A JIT or GC thread that ended in between is left out of
     * the split (the JVM ends idle compiler threads): the split is then a little low, never high.
     */
    public Spent since(ProcessCpu start) {
        if (threads.isEmpty() || start.threads.isEmpty()) {
            return new Spent(totalNanos - start.totalNanos, -1, -1);
        }
        long jit = 0;
        long gc = 0;
        for (Map.Entry<String, Ticks> thread : threads.entrySet()) {
            Ticks before = start.threads.get(thread.getKey());
            long ticks = thread.getValue().ticks() - (before == null ? 0 : before.ticks());
            if (thread.getValue().jit()) {
                jit += ticks;
            } else {
                gc += ticks;
            }
        }
        return new Spent(totalNanos - start.totalNanos, jit * NANOS_A_TICK, gc * NANOS_A_TICK);
    }

    private static Map<String, Ticks> jvmThreads() {
        Map<String, Ticks> found = new HashMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : tasks.toList()) {
                read(task).ifPresent(t -> found.put(task.getFileName().toString(), t));
            }
        } catch (IOException | UncheckedIOException | SecurityException e) {
            return Map.of(); // not Linux, or /proc not readable: the split is unknown
        }
        return found;
    }

    /** A JIT or GC thread's ticks from its {@code stat} line: "tid (name) state ... utime stime ...". */
    private static Optional<Ticks> read(Path task) {
        String stat;
        try {
            stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return Optional.empty(); // the thread ended meanwhile
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        String name = stat.substring(open + 1, close);
        boolean jit = name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");
        boolean gc = name.startsWith("GC Thread") || name.startsWith("G1 ");
        if (!jit && !gc) {
            return Optional.empty();
        }
        List<String> fields = List.of(stat.substring(close + 2).split(" "));
        // after the name: state is field 3 of the line, utime 14 and stime 15
        return Optional.of(new Ticks(jit, Long.parseLong(fields.get(11)) + Long.parseLong(fields.get(12))));
    }
}

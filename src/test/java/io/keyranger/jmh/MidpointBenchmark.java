package io.keyranger.jmh;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeySplitter;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long the key midpoint of a range takes (the split point the executor falls back to when no scatter sample lies
 * inside a range), for ranges between sorted keys of each shape. Run with {@code mvn -B -Pjmh -DskipTests test}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MidpointBenchmark {
    @Param({"ids", "ascii-names", "non-ascii-names", "mixed", "ancestors"})
    public String shape;

    private Key[] sorted;
    private int next;

    @Setup
    public void setUp() {
        sorted = BenchKeys.keys(shape, 1024);
        Arrays.sort(sorted, KeyOrder.PRODUCTION);
    }

    /** The midpoint between two keys some way apart in key order. */
    @Benchmark
    public Optional<Key> midpointBetween() {
        int i = next;
        next = (i + 1) & (sorted.length - 1);
        int j = Math.min(sorted.length - 1, i + 64);
        return KeySplitter.midpoint(KeyOrder.PRODUCTION, sorted[i], i == j ? null : sorted[j]);
    }

    /** The midpoint between a key and the end of key space (the last range of a job). */
    @Benchmark
    public Optional<Key> midpointToTheEnd() {
        int i = next;
        next = (i + 1) & (sorted.length - 1);
        return KeySplitter.midpoint(KeyOrder.PRODUCTION, sorted[i], null);
    }
}

package io.keyranger.jmh;

import com.google.cloud.datastore.Key;
import io.keyranger.keys.KeyOrder;
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
 * How long one key comparison takes in each collation, over neighbouring keys of each shape (sorting a sample and
 * every split decision compare keys). Run with {@code mvn -B -Pjmh -DskipTests test}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KeyOrderBenchmark {
    @Param({"PRODUCTION", "EMULATOR"})
    public String order;

    @Param({"ids", "ascii-names", "non-ascii-names", "mixed", "ancestors"})
    public String shape;

    private KeyOrder keyOrder;
    private Key[] keys;
    private int next;

    @Setup
    public void setUp() {
        keyOrder = "PRODUCTION".equals(order) ? KeyOrder.PRODUCTION : KeyOrder.EMULATOR;
        keys = BenchKeys.keys(shape, 1024);
    }

    @Benchmark
    public int compareNeighbours() {
        int i = next;
        next = (i + 1) & (keys.length - 1);
        return keyOrder.compare(keys[i], keys[next]);
    }
}

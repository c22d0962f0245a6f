package io.keyranger.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    @Test
    void theJitsAndTheCollectorsThreadsAreFoundAndTheirCpuIsPartOfTheProcesss() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux only: elsewhere the split is unknown");
        ProcessCpu start = ProcessCpu.now();
        assertThat(start.threads().values()).as("the compiler threads, by their names")
                .anySatisfy(t -> assertThat(t.jit()).isTrue())
                .as("the collector's threads").anySatisfy(t -> assertThat(t.jit()).isFalse());

        ProcessCpu.Spent spent = start.since(start);
        for (int i = 0; i < 50 && spent.gcNanos() == 0; i++) { // collections until the collector's threads show CPU
            List<long[]> garbage = new ArrayList<>();
            for (int j = 0; j < 2_000; j++) {
                garbage.add(new long[1_000]);
            }
            assertThat(garbage).hasSize(2_000);
            System.gc();
            spent = ProcessCpu.now().since(start);
        }
        assertThat(spent.gcNanos()).as("the collections' CPU lands in the GC part").isPositive();
        assertThat(spent.jitNanos()).isNotNegative();
        // per-thread ticks (10 ms) and the process's nanoseconds are read one after the other: a tick of slack
        assertThat(spent.jitNanos() + spent.gcNanos()).isLessThanOrEqualTo(spent.totalNanos() + 20_000_000L);
        assertThat(spent.split()).matches("JIT compiler \\d+\\.\\d s, GC \\d+\\.\\d s");
    }

    @Test
    void aThreadCountsWhatItAddedAThreadStartedSinceCountsWholeAndAThreadEndedSinceIsLeftOut() {
        ProcessCpu start = new ProcessCpu(1_000_000_000L, Map.of("10", new ProcessCpu.Ticks(true, 50),
                "11", new ProcessCpu.Ticks(false, 7), "12", new ProcessCpu.Ticks(true, 400)));
        ProcessCpu end = new ProcessCpu(9_000_000_000L, Map.of("10", new ProcessCpu.Ticks(true, 250),
                "11", new ProcessCpu.Ticks(false, 37), "13", new ProcessCpu.Ticks(true, 100)));
        ProcessCpu.Spent spent = end.since(start);
        assertThat(spent.totalNanos()).isEqualTo(8_000_000_000L);
        assertThat(spent.jitNanos()).isEqualTo(3_000_000_000L); // 200 ticks more on 10, 100 on the new 13
        assertThat(spent.gcNanos()).isEqualTo(300_000_000L);
        assertThat(spent.split()).isEqualTo("JIT compiler 3.0 s, GC 0.3 s");
    }

    @Test
    void withoutThreadsTheSplitIsUnknownAndOnlyTheTotalIsGiven() {
        ProcessCpu.Spent spent = new ProcessCpu(5_000_000_000L, Map.of())
                .since(new ProcessCpu(1_000_000_000L, Map.of()));
        assertThat(spent.totalNanos()).isEqualTo(4_000_000_000L);
        assertThat(spent.jitNanos()).isEqualTo(-1);
        assertThat(spent.split()).isEmpty();
    }
}

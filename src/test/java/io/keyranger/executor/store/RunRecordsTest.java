package io.keyranger.executor.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RunRecord;
import io.keyranger.job.RunThroughput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A run's record as stored: read back as it was written, and within one entity however big the tree. */
class RunRecordsTest {
    private static final Key RECORD = Key.newBuilder("p", RunRecords.KIND, "job").setNamespace("").build();
    private static final Instant END = Instant.parse("2026-12-06T12:00:00Z");

    private static NodeSnapshot range(int i, String parent, int depth, String name) {
        Key start = Key.newBuilder("p", "Account", name + i).setNamespace("ns").build();
        return new NodeSnapshot("job", parent == null ? "r" + i : parent + "." + i, parent, depth, start, i % 2 == 0,
                i % 3 == 0 ? null : Key.newBuilder(start, "Child", 7L + i).build(), start, i % 5 == 0
                ? NodeStatus.SPLIT : NodeStatus.DONE, i, 10L * i, 20L * i, i % 4, i % 7 == 0 ? "boom " + i : null,
                END.minusSeconds(30 + i), i % 6 == 0 ? null : END.minusSeconds(i));
    }

    @Test
    void aRecordReadsBackAsItWasWritten() {
        List<NodeSnapshot> ranges = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ranges.add(range(i, i < 10 ? null : "r" + (i % 10), i < 10 ? 0 : 1, "name \n\t é "));
        }
        List<RunThroughput.Point> points = List.of(new RunThroughput.Point(1, 120.5), new RunThroughput.Point(1.4, 3));
        Entity stored = RunRecords.entity(RECORD, END, new RunRecord(ranges, points));
        assertThat(stored.getBoolean("rangesLeftOut")).isFalse();
        RunRecord back = RunRecords.of("job", stored);
        assertThat(back.ranges()).isEqualTo(ranges);
        assertThat(back.throughput()).isEqualTo(points);
    }

    @Test
    void aTreeTooBigForOneEntityIsLeftOutAndTheChartKept() {
        List<NodeSnapshot> ranges = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) { // long random names: what gzip cannot shrink
            byte[] name = new byte[120];
            random.nextBytes(name);
            ranges.add(range(i, null, 0, HexFormat.of().formatHex(name)));
        }
        List<RunThroughput.Point> points = List.of(new RunThroughput.Point(1, 50));
        Entity stored = RunRecords.entity(RECORD, END, new RunRecord(ranges, points));
        assertThat(stored.getBoolean("rangesLeftOut")).isTrue();
        assertThat(stored.getBlob("run").getLength()).isLessThanOrEqualTo(RunRecords.MAX_BYTES);
        RunRecord back = RunRecords.of("job", stored);
        assertThat(back.ranges()).isEmpty();
        assertThat(back.throughput()).isEqualTo(points);
    }
}

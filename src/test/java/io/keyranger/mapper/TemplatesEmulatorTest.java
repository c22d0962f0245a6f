package io.keyranger.mapper;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.ValueType;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every template on awkward data, checked by an independent read afterwards. */
class TemplatesEmulatorTest {
    private Datastore datastore;
    private AdaptiveSplitExecutor executor;
    private List<Entity> seeded;

    @BeforeEach
    void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("tmpl"));
        executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        seeded = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            Key key = switch (i % 4) {
                case 0 -> datastore.newKeyFactory().setKind("Acct").newKey(i);
                case 1 -> datastore.newKeyFactory().setKind("Acct").newKey("name-" + i);
                case 2 -> datastore.newKeyFactory().setKind("Acct").addAncestor(PathElement.of("Org", "o" + i % 3))
                        .newKey(i);
                default -> datastore.newKeyFactory().setKind("Acct").newKey("ü-😀-" + i);
            };
            Entity.Builder b = Entity.newBuilder(key).set("tier", i % 2 == 0 ? "pro" : "free");
            switch (i % 5) {
                case 0 -> b.set("balance", "n/a"); // wrongly typed
                case 1 -> { } // missing
                case 2 -> b.set("balance", DoubleValue.newBuilder(2.5).setExcludeFromIndexes(true).build());
                default -> b.set("balance", (long) i);
            }
            seeded.add(b.set("note", StringValue.newBuilder("n" + i).setExcludeFromIndexes(true).build()).build());
        }
        datastore.put(seeded.toArray(new Entity[0]));
        Key other = datastore.newKeyFactory().setKind("Other").newKey(1);
        Key otherNs = datastore.newKeyFactory().setNamespace("ns2").setKind("Acct").newKey(1);
        datastore.put(Entity.newBuilder(other).set("balance", 1L).build(), Entity.newBuilder(otherNs).set("balance", 1L)
                .build());
    }

    private JobResult run(String json) throws Exception {
        JobSpec spec = new JobSpec(JobIds.newJobId("Acct"), "", "Acct", MapperSpec.parse(json), 3, 3, 7, 0);
        JobResult result = executor.start(spec, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        return result;
    }

    private Map<Key, Entity> read(String namespace, String kind) {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setNamespace(namespace).setKind(kind).build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    private void othersUntouched() {
        assertThat(read("", "Other").values()).singleElement().satisfies(e -> assertThat(e.getLong("balance")).isEqualTo(1));
        assertThat(read("ns2", "Acct").values()).singleElement()
                .satisfies(e -> assertThat(e.getLong("balance")).isEqualTo(1));
    }

    @Test
    void incrementAddsOnceToNumbersAndSkipsTheRest() throws Exception {
        JobResult result = run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}");
        Map<Key, Entity> after = read("", "Acct");
        long skipped = 0;
        for (Entity before : seeded) {
            Entity now = after.get(before.getKey());
            if (!before.contains("balance") || before.getValue("balance").getType()
                    == ValueType.STRING) {
                skipped++;
                assertThat(now).isEqualTo(before);
            } else if (before.getValue("balance").getType() == ValueType.DOUBLE) {
                assertThat(now.getDouble("balance")).isEqualTo(12.5);
                assertThat(now.getValue("balance").excludeFromIndexes()).as("index setting kept").isTrue();
            } else {
                assertThat(now.getLong("balance")).isEqualTo(before.getLong("balance") + 10);
            }
            assertThat(now.getString("note")).isEqualTo(before.getString("note"));
        }
        assertThat(result.total("skipped")).isEqualTo(skipped);
        assertThat(result.total("written")).isEqualTo(60 - skipped);
        othersUntouched();
    }

    @Test
    void incrementCanCreateMissingProperties() throws Exception {
        run("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":2.5,\"createMissing\":true}");
        Map<Key, Entity> after = read("", "Acct");
        for (Entity before : seeded) {
            Entity now = after.get(before.getKey());
            if (!before.contains("balance")) {
                assertThat(now.getDouble("balance")).isEqualTo(2.5);
            } else if (before.getValue("balance").getType() == ValueType.LONG) {
                assertThat(now.getLong("balance")).as("a fractional amount never turns an integer into a double")
                        .isEqualTo(before.getLong("balance"));
            }
        }
    }

    @Test
    void setRemoveAndRenameKeepTypesAndIndexSettings() throws Exception {
        run("{\"template\":\"set\",\"property\":\"active\",\"type\":\"boolean\",\"value\":false,\"indexed\":false,"
                + "\"where\":[{\"property\":\"tier\",\"value\":\"pro\"}]}");
        run("{\"template\":\"rename-property\",\"from\":\"note\",\"to\":\"memo\"}");
        run("{\"template\":\"remove-property\",\"property\":\"tier\"}");
        run("{\"template\":\"set\",\"property\":\"checkedAt\",\"type\":\"timestamp\",\"value\":\"2026-01-02T03:04:05Z\"}");
        Map<Key, Entity> after = read("", "Acct");
        for (Entity before : seeded) {
            Entity now = after.get(before.getKey());
            boolean pro = before.getString("tier").equals("pro");
            assertThat(now.contains("active")).isEqualTo(pro);
            if (pro) {
                assertThat(now.getBoolean("active")).isFalse();
                assertThat(now.getValue("active").excludeFromIndexes()).isTrue();
            }
            assertThat(now.contains("note")).isFalse();
            assertThat(now.getString("memo")).isEqualTo(before.getString("note"));
            assertThat(now.getValue("memo").excludeFromIndexes()).isTrue();
            assertThat(now.contains("tier")).isFalse();
            assertThat(now.getTimestamp("checkedAt")).isEqualTo(Timestamp.parseTimestamp("2026-01-02T03:04:05Z"));
        }
        othersUntouched();
    }

    @Test
    void copyKeepsIdsNamesAndAncestorsThenDeleteRemovesTheSource() throws Exception {
        run("{\"template\":\"copy\",\"toKind\":\"AcctCopy\",\"toNamespace\":\"backup\"}");
        Map<Key, Entity> copies = read("backup", "AcctCopy");
        assertThat(copies).hasSize(60);
        for (Entity before : seeded) {
            Entity copy = copies.values().stream().filter(c -> c.getKey().getNameOrId()
                    .equals(before.getKey().getNameOrId()) && c.getKey().getAncestors()
                    .equals(before.getKey().getAncestors())).findFirst().orElseThrow();
            assertThat(copy.getProperties()).isEqualTo(before.getProperties());
        }
        JobResult deleted = run("{\"template\":\"delete\",\"where\":[{\"property\":\"tier\",\"value\":\"free\"}]}");
        assertThat(deleted.total("deleted")).isEqualTo(30);
        assertThat(read("", "Acct")).hasSize(30).allSatisfy((k, e) -> assertThat(e.getString("tier")).isEqualTo("pro"));
        othersUntouched();
    }

    @Test
    void countByFillsAHistogramOfShardedCounters() throws Exception {
        JobResult result = run("{\"template\":\"count-by\",\"property\":\"tier\"}");
        assertThat(result.totals()).containsEntry("by:pro", 30L).containsEntry("by:free", 30L);
        assertThat(ShardedCounter.existing(datastore, "job:" + result.jobId()).total("by:pro")).isEqualTo(30);
    }

    @Test
    void aDryRunShowsBeforeAndAfterAndChangesNothing() {
        DryRunner.Result dry = new DryRunner(datastore, KeyOrder.EMULATOR).run("", "Acct",
                MapperSpec.parse("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":10}"), 20);
        assertThat(dry.sampled()).isEqualTo(20);
        assertThat(dry.changes()).isNotEmpty().allMatch(c -> c.property().equals("balance"));
        assertThat(dry.changes()).anyMatch(c -> c.before().equals("2.5") && c.after().equals("12.5"));
        assertThat(dry.skipped()).isPositive();
        assertThat(dry.reads()).isEqualTo(60);
        Map<Key, Entity> after = read("", "Acct");
        seeded.forEach(e -> assertThat(after.get(e.getKey())).isEqualTo(e));
        assertThat(read("", "_KeyRangerJob")).isEmpty();
        DryRunner.Result delete = new DryRunner(datastore, KeyOrder.EMULATOR).run("", "Acct",
                MapperSpec.parse("{\"template\":\"delete\"}"), 5);
        assertThat(delete.deletes()).hasSize(5);
        assertThat(delete.deletions()).isEqualTo(60);
        assertThat(read("", "Acct")).hasSize(60);
    }
}

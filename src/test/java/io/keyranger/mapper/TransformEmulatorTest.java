package io.keyranger.mapper;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.ValueType;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.cel.ExpressionException;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transform template and CEL where expressions, run as jobs and dry runs on the emulator. */
class TransformEmulatorTest {
    private static final String EXAMPLE = "{\"template\": \"transform\", \"set\": {\"balance\": \"balance * 2\", "
            + "\"tier\": \"balance > 1000 ? 'gold' : tier\"}, \"remove\": [\"legacy\"], "
            + "\"where\": \"has(balance) && tier != 'closed'\"}";

    private Datastore datastore;
    private AdaptiveSplitExecutor executor;
    private List<Entity> seeded;
    private Key overflowing;
    private Key textBalance;

    @BeforeEach
    void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("transform"));
        executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        seeded = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            Key key = i % 3 == 0 ? datastore.newKeyFactory().setKind("Acct").newKey("n" + i)
                    : datastore.newKeyFactory().setKind("Acct").newKey(i);
            Entity.Builder b = Entity.newBuilder(key).set("tier", i % 7 == 0 ? "closed" : "free");
            if (i % 10 != 5) { // 5, 15, 25, 35 have no balance
                b.set("balance", i % 4 == 0 ? LongValue.newBuilder(i * 100L).setExcludeFromIndexes(true).build()
                        : LongValue.of(i * 100L));
            }
            if (i % 2 == 0) {
                b.set("legacy", "old" + i);
            }
            seeded.add(b.build());
        }
        overflowing = datastore.newKeyFactory().setKind("Acct").newKey(1000);
        textBalance = datastore.newKeyFactory().setKind("Acct").newKey(1001);
        seeded.add(Entity.newBuilder(overflowing).set("balance", Long.MAX_VALUE).set("tier", "free").build());
        seeded.add(Entity.newBuilder(textBalance).set("balance", "n/a").set("tier", "free").build());
        datastore.put(seeded.toArray(new Entity[0]));
    }

    private JobResult run(String json, int pageSize) throws Exception {
        JobSpec spec = new JobSpec(JobIds.newJobId("Acct"), "", "Acct", MapperSpec.parse(json), 2, 2,
                pageSize, 0);
        JobResult result = executor.start(spec, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.failedRanges()).isZero();
        return result;
    }

    private Map<Key, Entity> read() {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Acct").build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    private static boolean matches(Entity e) {
        return e.contains("balance") && !e.getString("tier").equals("closed");
    }

    @Test
    void transformDoublesBalanceAndSetsTierOnMatchingEntitiesOnly() throws Exception {
        JobResult result = run(EXAMPLE, 7);
        Map<Key, Entity> after = read();
        long changed = 0;
        long filteredOut = 0;
        for (Entity before : seeded) {
            Entity now = after.get(before.getKey());
            boolean problem = before.getKey().equals(overflowing) || before.getKey().equals(textBalance);
            if (!matches(before) || problem) {
                assertThat(now).as("%s untouched", before.getKey()).isEqualTo(before);
                filteredOut += matches(before) ? 0 : 1;
                continue;
            }
            changed++;
            long balance = before.getLong("balance");
            assertThat(now.getLong("balance")).isEqualTo(balance * 2);
            assertThat(now.getString("tier")).as("from the balance before").isEqualTo(balance > 1000 ? "gold" : "free");
            assertThat(now.contains("legacy")).isFalse();
            assertThat(now.getValue("balance").excludeFromIndexes()).as("index setting kept")
                    .isEqualTo(before.getValue("balance").excludeFromIndexes());
        }
        assertThat(changed).as("40 seeded, less 5 closed and 4 without balance (35 is both)").isEqualTo(32);
        assertThat(result.total("written")).isEqualTo(changed);
        assertThat(result.total("read")).isEqualTo(seeded.size());
        assertThat(result.total("skipped")).isEqualTo(2);
        assertThat(result.total("skipped: overflow in set.balance")).isEqualTo(1);
        assertThat(result.total("skipped: wrong type in set.balance")).isEqualTo(1);
        assertThat(result.total("filtered out by where")).isEqualTo(filteredOut);
        assertThat(result.total("matched by where")).isEqualTo(changed + 2);
    }

    @Test
    void anOverflowingEntityIsSkippedWhileTheRestOfItsPageIsDone() throws Exception {
        // one page holds every entity, so the overflow shares its commit with all the others
        JobResult result = run("{\"template\":\"transform\",\"set\":{\"balance\":\"balance + 1\"},"
                + "\"remove\":[\"legacy\"]}", 500);
        Map<Key, Entity> after = read();
        for (Entity before : seeded) {
            Entity now = after.get(before.getKey());
            if (before.contains("balance") && before.getValue("balance").getType() == ValueType.LONG
                    && !before.getKey().equals(overflowing)) {
                assertThat(now.getLong("balance")).isEqualTo(before.getLong("balance") + 1);
            } else {
                assertThat(now).as("%s skipped", before.getKey()).isEqualTo(before);
            }
        }
        assertThat(result.total("skipped: overflow in set.balance")).isEqualTo(1);
        assertThat(result.total("skipped: missing property 'balance' in set.balance")).isEqualTo(4);
        assertThat(result.total("skipped")).isEqualTo(6);
    }

    @Test
    void whereExpressionSelectsWhatCountCountsAndDeleteDeletes() throws Exception {
        long closed = seeded.stream().filter(e -> e.getString("tier").equals("closed")).count();
        assertThat(closed).isPositive();
        JobResult count = run("{\"template\":\"count\",\"where\":\"tier == 'closed'\"}", 6);
        assertThat(count.total("matched by where")).isEqualTo(closed);
        assertThat(count.total("filtered out by where")).isEqualTo(seeded.size() - closed);
        assertThat(count.total("read")).isEqualTo(seeded.size());

        JobResult delete = run("{\"template\":\"delete\",\"where\":\"tier == 'closed' || key.name == 'n3'\"}", 6);
        Map<Key, Entity> after = read();
        assertThat(delete.total("deleted")).isEqualTo(closed + 1);
        for (Entity before : seeded) {
            boolean gone = before.getString("tier").equals("closed") || "n3".equals(before.getKey().getName());
            assertThat(after.containsKey(before.getKey())).as("%s", before.getKey()).isEqualTo(!gone);
        }
    }

    @Test
    void theEquationFormOfWhereStillFiltersOnTheServer() throws Exception {
        JobResult result = run("{\"template\":\"count\",\"where\":[{\"property\":\"tier\",\"value\":\"closed\"}]}", 6);
        assertThat(result.total("read")).isEqualTo(seeded.stream().filter(e -> e.getString("tier").equals("closed"))
                .count());
        assertThat(result.totals()).doesNotContainKey("matched by where");
    }

    @Test
    void dryRunTypeChecksAgainstTheKindBeforeAnythingIsWritten() {
        Entity typed = Entity.newBuilder(datastore.newKeyFactory().setKind("Typed").newKey(1)).set("balance", 10L)
                .set("tier", "free").build();
        datastore.put(typed);
        DryRunner dry = new DryRunner(datastore, KeyOrder.EMULATOR);
        assertThatThrownBy(() -> dry.run("", "Typed", MapperSpec.parse(
                "{\"template\":\"transform\",\"set\":{\"balance\":\"balance * 'x'\"}}"), 10))
                .isInstanceOfSatisfying(ExpressionException.class, e -> {
                    assertThat(e.expression()).isEqualTo("set.balance");
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(9);
                }).hasMessageContaining("no matching overload");
        assertThatThrownBy(() -> dry.run("", "Typed", MapperSpec.parse(
                "{\"template\":\"count\",\"where\":\"nosuchprop + 1 > 0\"}"), 10))
                .hasMessageStartingWith("Expression where (line 1, column 1): undeclared reference to 'nosuchprop'");
        assertThat(datastore.get(typed.getKey())).isEqualTo(typed);
    }

    @Test
    void dryRunListsSkippedEntitiesWithTheirReasons() {
        DryRunner.Result result = new DryRunner(datastore, KeyOrder.EMULATOR).run("", "Acct", MapperSpec.parse(EXAMPLE),
                100);
        assertThat(result.skipped()).isEqualTo(2);
        assertThat(result.problems()).extracting(DryRunner.Problem::key)
                .containsExactlyInAnyOrder("Acct:1000", "Acct:1001");
        assertThat(result.problems()).anySatisfy(p -> assertThat(p.reason()).startsWith("set.balance: ")
                .contains("overflow"));
        assertThat(result.counters()).containsEntry("skipped: overflow in set.balance", 1L);
        assertThat(result.changes()).anySatisfy(c -> assertThat(c.property()).isEqualTo("legacy"));
        assertThat(read().values()).containsExactlyInAnyOrderElementsOf(seeded);
    }
}

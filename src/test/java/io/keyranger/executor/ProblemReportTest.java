package io.keyranger.executor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobReport;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.PageMapper;
import io.keyranger.support.RefusingMapper;
import io.keyranger.support.SharedEmulator;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A problem of one entity stays that entity's; a range's failure says why, grouped, where the user looks. */
class ProblemReportTest {
    private Datastore datastore;
    private AdaptiveSplitExecutor executor;

    @BeforeEach
    void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("problems"));
        executor = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR);
        for (int i = 1; i <= 15; i++) {
            Entity.Builder b = Entity.newBuilder(key(i));
            switch (i) {
                case 4 -> b.set("balance", Long.MAX_VALUE);
                case 9 -> b.set("balance", "n/a");
                case 12 -> b.set("balance", Double.MAX_VALUE);
                default -> b.set("balance", (long) i);
            }
            datastore.put(b.build());
        }
    }

    private Key key(int id) {
        return datastore.newKeyFactory().setKind("Acct").newKey(id);
    }

    private Map<Key, Entity> read() {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Acct").build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    @Test
    void anOverflowingEntityIsSkippedWithItsReasonAndTheRestOfItsRangeIsDone() throws Exception {
        Map<Key, Entity> before = read();
        JobSpec spec = new JobSpec("inc-7", "", "Acct", MapperSpec.parse(
                "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":7}"), 1, 1, 100, 0);
        JobResult result = executor.start(spec, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("written")).isEqualTo(13);
        assertThat(result.total("skipped")).isEqualTo(2);
        Map<Key, Entity> after = read();
        for (int i = 1; i <= 15; i++) {
            Entity was = before.get(key(i));
            Entity now = after.get(key(i));
            if (i == 4 || i == 9) {
                assertThat(now).as("entity %d untouched", i).isEqualTo(was);
            } else if (i == 12) {
                assertThat(now.getDouble("balance")).isEqualTo(Double.MAX_VALUE + 7);
            } else {
                assertThat(now.getLong("balance")).as("entity %d", i).isEqualTo(i + 7);
            }
        }
        assertThat(result.report().failures()).isEmpty();
        assertThat(result.report().skips()).extracting(JobReport.ReasonGroup::reason, JobReport.ReasonGroup::count)
                .containsExactlyInAnyOrder(Tuple.tuple("integer overflow", 1L),
                        Tuple.tuple("not a number", 1L));
        JobReport.ReasonGroup overflow = result.report().skips().stream()
                .filter(g -> g.reason().equals("integer overflow")).findFirst().orElseThrow();
        assertThat(overflow.examples()).containsExactly(
                "Acct:4: 'balance' is 9223372036854775807; adding 7 would overflow a 64-bit integer");
        assertThat(executor.report("inc-7")).as("the same from the stored job").isEqualTo(result.report());
    }

    @Test
    void anEntityDatastoreWouldRefuseIsSkippedNotItsRange() throws Exception {
        String big = "x".repeat(2_000);
        JobResult result = executor.start(new JobSpec("big", "", "Acct", MapperSpec.parse(
                "{\"template\":\"set\",\"property\":\"note\",\"value\":\"" + big + "\",\"indexed\":true}"),
                1, 1, 100, 0), JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        assertThat(result.total("skipped")).isEqualTo(15);
        assertThat(result.report().skips()).singleElement().satisfies(g -> {
            assertThat(g.reason()).isEqualTo("indexed value over 1,500 bytes");
            assertThat(g.examples()).hasSize(3).allSatisfy(e -> assertThat(e).contains("'note' is 2000 bytes"));
        });
        assertThat(read().values()).noneMatch(e -> e.contains("note"));
    }

    @Test
    void failedRangesAreGroupedByReasonAndSayWhetherRetryingHelps() throws Exception {
        PageMapper refusing = RefusingMapper.pagesWith(k -> k.getId() != null && k.getId() >= 8);
        JobSpec spec = new JobSpec("refused", "", "Acct", MapperSpec.parse("{\"template\":\"count\"}"), 1, 1, 5, 0);
        JobResult result = executor.start(spec, refusing, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.FAILED);
        assertThat(result.report().failures()).singleElement().satisfies(g -> {
            assertThat(g.reason()).contains("PERMISSION_DENIED: missing datastore.entities.update");
            assertThat(g.permanent()).isTrue();
            assertThat(g.examples()).isNotEmpty();
        });
        assertThat(result.report().lines()).anyMatch(l -> l.contains("retrying will not fix this: grant the account "
                + "the Datastore User role"));
        assertThat(executor.report("refused").failures()).isEqualTo(result.report().failures());
    }
}

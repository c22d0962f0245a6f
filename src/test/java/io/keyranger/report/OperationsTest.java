package io.keyranger.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.ClientMatches;
import io.keyranger.dryrun.DryRunner;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.sharding.TotalEstimate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One count of a job's operations wherever it is shown: the confirmation over a kind's count, the dry run's whole-job
 * estimate and the finished job's counters come to the same operations and price when they agree on the entities.
 */
class OperationsTest {
    private static final PriceTable PRICES = PriceTable.BUILT_IN;

    @Test
    void anIncrementOverTwentyThousandHasOnePriceBeforeAndAfterItRuns() {
        Operations confirmation = Operations.overEvery(20_000, Mappers.template("increment"), true);
        Operations dryRun = Operations.of(dryRun(20_000, 20_200, 0, 200));
        Operations finished = Operations.of(finished(Map.of("read", 20_000L, "written", 20_000L,
                JobResult.UNDO_RECORDS, 200L, JobResult.UNDO_IMAGES, 20_000L)));

        // the undo of an increment is about one record per commit: its before-images of about 100 entities
        assertThat(confirmation).isEqualTo(dryRun).isEqualTo(finished)
                .isEqualTo(new Operations(20_000, 20_200, 0, 200));
        assertThat(confirmation.describe(PRICES)).as("the undo writes are priced too")
                .isEqualTo(finished.describe(PRICES))
                .startsWith("20,000 reads, 20,200 writes, 0 deletes ≈ $0.05 at nam5");
        assertThat(dryRun.price(PRICES)).isEqualTo(finished.price(PRICES));
    }

    @Test
    void aDeleteReadsItsKeysAndKeepsWhatItRemovesInAnUndoRecordPerCommit() {
        Operations confirmation = Operations.overEvery(500, Mappers.template("delete"), true);
        assertThat(confirmation).isEqualTo(new Operations(500, 5, 500, 5))
                .isEqualTo(Operations.of(dryRun(500, 5, 500, 5)))
                .isEqualTo(Operations.of(finished(Map.of("read", 500L, "deleted", 500L,
                        JobResult.UNDO_RECORDS, 5L, JobResult.UNDO_IMAGES, 500L))));
        assertThat(Operations.overEvery(500, Mappers.template("copy"), true))
                .as("a copy may write a key twice: a record per entity").isEqualTo(new Operations(500, 1_000, 0, 500));
        assertThat(Operations.overEvery(500, Mappers.template("delete"), false))
                .as("--no-undo").isEqualTo(new Operations(500, 0, 500, 0));
    }

    @Test
    void aJobThatWritesNothingIsItsReadsAlone() {
        assertThat(Operations.overEvery(80, Mappers.template("count"), true)).isEqualTo(new Operations(80, 0, 0, 0))
                .isEqualTo(Operations.of(finished(Map.of("read", 80L))));
    }

    @Test
    void aRestoreReadsWhatItComparesAndWritesWhatItRestoresWithItsUndo() {
        assertThat(Operations.ofRestore(2_100, 300, true)).isEqualTo(new Operations(2_100, 600, 0, 300));
        assertThat(Operations.ofRestore(2_100, 300, false)).isEqualTo(new Operations(2_100, 300, 0, 0));
    }

    @Test
    void aJobIsEstimatedByItsDryRunElseOverEveryEntityOfItsKindUnlessItsFiltersLetThroughAnUnknownShare() {
        MapperSpec increment = MapperSpec.parse("{\"template\": \"increment\", \"property\": \"balance\", "
                + "\"amount\": 10}");
        assertThat(Operations.estimate(increment, 20_000, null)).isEqualTo(new Operations(20_000, 20_200, 0, 200));
        assertThat(Operations.estimate(increment, -1, null)).isNull();
        assertThat(Operations.estimate(increment.withoutUndo(), 20_000, null))
                .isEqualTo(new Operations(20_000, 20_000, 0, 0));

        MapperSpec overQuery = increment.withGql("SELECT * FROM Account WHERE tier = 'pro'");
        assertThat(Operations.estimate(overQuery, 20_000, null)).as("the kind's count is not the query's size")
                .isNull();
        assertThat(Operations.estimate(overQuery, 20_000, dryRun(45, 6, 0, 3))).as("the dry run's own figures")
                .isEqualTo(new Operations(45, 6, 0, 3));

        DryRunner.Result noneMatched = new DryRunner.Result(20, List.of(), List.of(), List.of(), 0, Map.of(),
                new TotalEstimate(20_000, TotalEstimate.Method.EXACT_SCAN), 4_070, 0, 0, 0, false, List.of(),
                List.of(), new ClientMatches("balance > 1000000", "", 4_070, 0, 20_000, false, 0));
        assertThat(Operations.estimate(overQuery, 20_000, noneMatched))
                .as("how many it writes is unknown, as its dry run says").isNull();
    }

    @Test
    void moreUndoRecordsThanWritesIsRefused() {
        assertThatThrownBy(() -> new Operations(1, 1, 0, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    private static DryRunner.Result dryRun(long reads, long writes, long deletions, long undoRecords) {
        return new DryRunner.Result(20, List.of(), List.of(), List.of(), 0, Map.of(),
                new TotalEstimate(reads, TotalEstimate.Method.EXACT_SCAN), reads, writes, deletions, undoRecords,
                false, List.of(), List.of(), null);
    }

    private static JobResult finished(Map<String, Long> totals) {
        return new JobResult("j", JobStatus.DONE, totals, 4, 1, 1_000, 0);
    }
}

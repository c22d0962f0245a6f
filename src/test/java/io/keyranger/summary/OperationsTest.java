package io.keyranger.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.job.JobInput;
import io.keyranger.cost.PriceTable;
import io.keyranger.datastore.ServerLimits;
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
    private static final MapperSpec INCREMENT = MapperSpec.parse(
            "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 10}");
    private static final MapperSpec DELETE = MapperSpec.parse("{\"template\": \"delete\"}");

    @Test
    void anIncrementOverTwentyThousandHasOnePriceBeforeAndAfterItRuns() {
        Operations confirmation = Operations.overEvery(20_000, INCREMENT, 0, ServerLimits.PRODUCTION);
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
        Operations confirmation = Operations.overEvery(500, DELETE, 0, ServerLimits.PRODUCTION);
        assertThat(confirmation).isEqualTo(new Operations(500, 5, 500, 5))
                .isEqualTo(Operations.of(dryRun(500, 5, 500, 5)))
                .isEqualTo(Operations.of(finished(Map.of("read", 500L, "deleted", 500L,
                        JobResult.UNDO_RECORDS, 5L, JobResult.UNDO_IMAGES, 500L))));
        assertThat(Operations.overEvery(500, MapperSpec.parse(
                "{\"template\": \"copy\", \"toKind\": \"Other\"}"), 0, ServerLimits.PRODUCTION))
                .as("a copy may write a key twice: a record per entity").isEqualTo(new Operations(500, 1_000, 0, 500));
        assertThat(Operations.overEvery(500, DELETE.withoutUndo(), 0, ServerLimits.PRODUCTION))
                .as("--no-undo").isEqualTo(new Operations(500, 0, 500, 0));
    }

    /**
     * Whether undo is one record a commit is its input's to say: an import from a file writes each key once when its
     * check found so (stamped on its job), else it may write a key twice (a record per entity); one from the
     * database's past writes each key once; and a commit holds a page at most.
     */
    @Test
    void anImportFromAFileKeepsARecordPerEntityUnlessItsCheckFoundEachKeyOnce() {
        MapperSpec fromFile = MapperSpec.parse("{\"template\": \"import\", \"file\": \"export.jsonl\"}");
        MapperSpec checked = MapperSpec.parse("{\"template\": \"import\", \"file\": \"export.jsonl\", "
                + "\"input\": {\"entries\": 500, \"eachKeyOnce\": true}}");
        assertThat(JobInput.of(checked).writesEachKeyOnce(checked)).isTrue();
        assertThat(Operations.overEvery(500, checked, 0, ServerLimits.PRODUCTION))
                .isEqualTo(new Operations(500, 505, 0, 5));
        MapperSpec fromPast = MapperSpec.parse("{\"template\": \"import\", \"format\": \"past\", "
                + "\"asOf\": \"2026-11-01T00:00:00Z\"}");
        assertThat(JobInput.of(fromFile).writesEachKeyOnce(fromFile)).isFalse();
        assertThat(Operations.overEvery(500, fromFile, 0, ServerLimits.PRODUCTION)).isEqualTo(new Operations(500, 1_000, 0, 500));
        assertThat(JobInput.of(fromPast).writesEachKeyOnce(fromPast)).isTrue();
        assertThat(Operations.overEvery(500, fromPast, 0, ServerLimits.PRODUCTION)).isEqualTo(new Operations(500, 505, 0, 5));
        assertThat(JobInput.of(DELETE).writesEachKeyOnce(DELETE)).isTrue();

        assertThat(Operations.overEvery(500, DELETE, 20, ServerLimits.PRODUCTION)).as("pages of 20 keys: a record each at least")
                .isEqualTo(new Operations(500, 25, 500, 25));
        assertThat(Operations.overEvery(500, DELETE, 500, ServerLimits.PRODUCTION)).isEqualTo(new Operations(500, 5, 500, 5));
        assertThat(Operations.overEvery(500, DELETE, 500, ServerLimits.EMULATOR))
                .as("the legacy emulator's 25 entity groups: records of at most 19 images")
                .isEqualTo(new Operations(500, 27, 500, 27));
    }

    @Test
    void aJobThatWritesNothingIsItsReadsAlone() {
        assertThat(Operations.overEvery(80, MapperSpec.parse("{\"template\": \"count\"}"), 0, ServerLimits.PRODUCTION)).isEqualTo(new Operations(80, 0, 0, 0))
                .isEqualTo(Operations.of(finished(Map.of("read", 80L))));
    }

    @Test
    void aRestoreReadsWhatItComparesAndWritesWhatItRestoresWithItsUndo() {
        // an export holds each key once: one undo record a commit, about 100 entities on production, 19 on the legacy
        assertThat(Operations.ofRestore(2_100, 300, true, ServerLimits.PRODUCTION))
                .isEqualTo(new Operations(2_100, 303, 0, 3));
        assertThat(Operations.ofRestore(2_100, 300, true, ServerLimits.EMULATOR))
                .isEqualTo(new Operations(2_100, 316, 0, 16));
        assertThat(Operations.ofRestore(2_100, 300, false, ServerLimits.PRODUCTION))
                .isEqualTo(new Operations(2_100, 300, 0, 0));
    }

    @Test
    void aJobIsEstimatedByItsDryRunElseOverEveryEntityOfItsKindUnlessItsFiltersLetThroughAnUnknownShare() {
        MapperSpec increment = MapperSpec.parse("{\"template\": \"increment\", \"property\": \"balance\", "
                + "\"amount\": 10}");
        assertThat(Operations.estimate(increment, 0, 20_000, null, ServerLimits.PRODUCTION)).isEqualTo(new Operations(20_000, 20_200, 0, 200));
        assertThat(Operations.estimate(increment, 0, -1, null, ServerLimits.PRODUCTION)).isNull();
        assertThat(Operations.estimate(increment.withoutUndo(), 0, 20_000, null, ServerLimits.PRODUCTION))
                .isEqualTo(new Operations(20_000, 20_000, 0, 0));

        MapperSpec overQuery = increment.withGql("SELECT * FROM Account WHERE tier = 'pro'");
        assertThat(Operations.estimate(overQuery, 0, 20_000, null, ServerLimits.PRODUCTION)).as("the kind's count is not the query's size")
                .isNull();
        assertThat(Operations.estimate(overQuery, 0, 20_000, dryRun(45, 6, 0, 3), ServerLimits.PRODUCTION)).as("the dry run's own figures")
                .isEqualTo(new Operations(45, 6, 0, 3));

        DryRunner.Result noneMatched = new DryRunner.Result(20, List.of(), List.of(), List.of(), 0, Map.of(),
                new TotalEstimate(20_000, TotalEstimate.Method.EXACT_SCAN), 4_070, 0, 0, 0, false, List.of(),
                List.of(), new ClientMatches("balance > 1000000", "", 4_070, 0, 20_000, false, 0));
        assertThat(Operations.estimate(overQuery, 0, 20_000, noneMatched, ServerLimits.PRODUCTION))
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

package io.keyranger.dryrun;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.cost.PriceTable;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.summary.DryRunSummary;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dry run that reads fewer entities than the server-side part of the selection lets through (a scan limit of 50
 * here, 10,000 in the app): with none of those read matching the conditions applied on the client, it says the count
 * is unknown with its upper bound, never 0 writes; with some matching, it scales them and says it is an estimate.
 */
class DryRunClientMatchesTest {
    private static Datastore datastore;

    /** 400 Ledger entities by id; tier 'pro' but every fourth; balance = 10 × id. */
    @BeforeAll
    static void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("drymatches"));
        List<Entity> entities = new ArrayList<>();
        for (long id = 1; id <= 400; id++) {
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Ledger").newKey(id))
                    .set("tier", id % 4 == 0 ? "free" : "pro").set("balance", id * 10).build());
        }
        SharedEmulator.putAll(datastore, entities);
    }

    private static DryRunner.Result dryRun(String spec) {
        return new DryRunner(datastore, KeyOrder.EMULATOR, 50).run("", "Ledger", MapperSpec.parse(spec), 20);
    }

    private static String said(DryRunner.Result result) {
        return DryRunSummary.sample(result) + "\n" + String.join("\n", DryRunSummary.wholeJob(result,
                PriceTable.BUILT_IN));
    }

    @Test
    void noMatchAmongThoseReadIsAnUnknownCountBoundedByWhatTheServerLetsThrough() {
        DryRunner.Result result = dryRun("{\"template\":\"delete\",\"gql\":\"SELECT * FROM Ledger WHERE tier = 'pro' "
                + "AND balance > 3900\"}");
        assertThat(result.matches().unknown()).isTrue();
        assertThat(result.matches().read()).isEqualTo(50);
        assertThat(result.matches().upTo()).as("the pro entities, counted exactly by keys").isEqualTo(300);
        assertThat(said(result)).as(said(result)).doesNotContain(" 0 writes").doesNotContain(" 0 deletes")
                .contains("300 reads ≈ under $0.01 at nam5 (multi-region, US) prices of 2026-11-23, before any "
                        + "writes and deletes; how many entities it writes or deletes is unknown, at most 300.")
                .contains("balance > 3900 is checked on the client: none of the first 50 read match, so how many of "
                        + "the 300 entities that tier = 'pro' lets through do is unknown: anywhere from none to 300 "
                        + "entities will be written or deleted.");
    }

    @Test
    void aCelWhereWithNoMatchAmongThoseReadIsUnknownToo() {
        DryRunner.Result result = dryRun("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1,"
                + "\"where\":\"balance > 3900\"}");
        assertThat(result.matches().unknown()).isTrue();
        assertThat(said(result)).as(said(result)).doesNotContain(" 0 writes").contains("at most 400.")
                .contains("where balance > 3900 is checked on the client: none of the first 50 read match");
    }

    @Test
    void someMatchesAmongThoseReadAreScaledAndSaidToBeAnEstimate() {
        // the first 50 pro ids are 1..66 without multiples of 4; 12 of them (51..66) have a balance over 500
        DryRunner.Result result = dryRun("{\"template\":\"delete\",\"gql\":\"SELECT * FROM Ledger WHERE tier = 'pro' "
                + "AND balance > 500\"}");
        assertThat(result.matches().estimated()).isTrue();
        assertThat(result.matches().matched()).isEqualTo(12);
        assertThat(result.deletions()).isEqualTo(72); // 12 of 50, scaled to 300
        assertThat(said(result)).as(said(result)).contains("72 deletes").contains("(writes and deletes estimated).")
                .contains("balance > 500 is checked on the client: 12 of the first 50 read match, so about 72 of the 300 entities that tier = 'pro' lets "
                        + "through do; the writes and deletes are an estimate scaled from them.");
    }
}

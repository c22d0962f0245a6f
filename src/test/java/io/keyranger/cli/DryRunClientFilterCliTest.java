package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dry run over a GQL query whose inequality is applied on the client: the server-side part (tier = 'pro') lets
 * 300 entities through, the client-side part (balance > 3900) only the last few, none of them in the sample. The
 * dry run must not predict 0 writes or 0 deletes, and the real run must stay within what it said.
 */
class DryRunClientFilterCliTest {
    private static final String GQL = "SELECT * FROM Ledger WHERE tier = 'pro' AND balance > 3900";
    private static ConnectionSpec project;
    private static Datastore datastore;
    private static final Map<Long, Long> BALANCES = new HashMap<>();
    private static long matching;

    @TempDir
    Path dir;

    @BeforeAll
    static void seed() {
        project = SharedEmulator.freshProject("dryfilter");
        datastore = SharedEmulator.connect(project);
        List<Entity> entities = new ArrayList<>();
        for (long id = 1; id <= 400; id++) {
            String tier = id % 4 == 0 ? "free" : "pro";
            entities.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Ledger").newKey(id))
                    .set("tier", tier).set("balance", id * 10).build());
            BALANCES.put(id, id * 10);
            if (tier.equals("pro") && id * 10 > 3900) {
                matching++;
            }
        }
        SharedEmulator.putAll(datastore, entities);
    }

    private InProcessCli.Result run(String... args) {
        return new InProcessCli(dir, project).run(args);
    }

    @Test
    void aDryRunOverAClientSideConditionCountsTheMatchesAndTheRunStaysWithinIt() throws Exception {
        assertThat(matching).as("few match, all beyond the sample").isEqualTo(7);
        Path credit = new InProcessCli(dir, project).mapper(
                "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}");
        InProcessCli.Result dry = run("run", "--gql", GQL, "--mapper", credit.toString(), "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).as(dry.out()).doesNotContain(" 0 writes")
                .contains("balance > 3900 is checked on the client: 7 of the 300 entities that tier = 'pro' lets "
                        + "through match (every one was read: an exact count)")
                .contains("300 reads, 8 writes, 0 deletes"); // 7 changes and about one undo record

        InProcessCli.Result real = run("run", "--gql", GQL, "--mapper", credit.toString(), "--job-id", "credit");
        assertThat(real.exitCode()).as(real.err()).isZero();
        long changed = 0;
        var all = datastore.run(Query.newEntityQueryBuilder().setKind("Ledger").build());
        while (all.hasNext()) {
            Entity e = all.next();
            if (e.getLong("balance") != BALANCES.get(e.getKey().getId())) {
                changed++;
            }
        }
        assertThat(changed).as("the emulator's count of changed entities is what the dry run said").isEqualTo(7);
    }

    @Test
    void aDeletesDryRunOverAClientSideConditionDoesNotSayNothingWillBeDeleted() throws Exception {
        // 397, 398 and 399 match, credited by the other test or not (395 has 3950 or 3951)
        Path delete = new InProcessCli(dir, project).mapper("{\"template\":\"delete\"}");
        InProcessCli.Result dry = run("run", "--gql", GQL.replace("3900", "3955"), "--mapper", delete.toString(),
                "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).as(dry.out()).doesNotContain(" 0 deletes")
                .contains("3 of the 300 entities that tier = 'pro' lets through match").contains("3 deletes");
    }
}

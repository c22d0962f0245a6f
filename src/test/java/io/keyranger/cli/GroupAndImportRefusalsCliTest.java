package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.executor.store.JobStore;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that once did less than they said and exited 0: a job over several kinds that skipped a kind because another
 * job had its kind's id, and an import that applied half a file with a bad line. Every check reads the emulator.
 */
class GroupAndImportRefusalsCliTest {
    @TempDir
    Path dir;
    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;
    private String increment;

    @BeforeEach
    void seed() throws Exception {
        conn = SharedEmulator.freshProject("refusals");
        datastore = SharedEmulator.connect(conn);
        cli = new InProcessCli(dir, conn);
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallets").newKey(i)).set("balance", 100L)
                    .build());
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Wallet2").newKey("w" + i))
                    .set("balance", 100L).build());
        }
        SharedEmulator.putAll(datastore, all);
        increment = cli.mapper("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":1}").toString();
    }

    private Map<Key, Long> balances(String kind) {
        Map<Key, Long> balances = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build())
                .forEachRemaining(e -> balances.put(e.getKey(), e.getLong("balance")));
        return balances;
    }

    @Test
    void aGroupIdTooLongForItsKindsIsRefusedAndOneThatFitsRunsEveryKind() {
        String id100 = "g".repeat(100);
        InProcessCli.Result refused = cli.run("run", "--kind", "Wallets,Wallet2", "--mapper", increment, "--job-id",
                id100, "--shards", "2");
        assertThat(refused.exitCode()).as(refused.out()).isEqualTo(1);
        assertThat(refused.err()).contains("too long for a job over 2 kinds").contains("at most 96 characters")
                .doesNotContain("Exception");
        assertThat(balances("Wallets").values()).containsOnly(100L);
        assertThat(balances("Wallet2").values()).containsOnly(100L);

        InProcessCli.Result done = cli.run("run", "--kind", "Wallets,Wallet2", "--mapper", increment, "--job-id",
                "g".repeat(96), "--shards", "2");
        assertThat(done.exitCode()).as(done.err()).isZero();
        assertThat(done.out()).contains("read 600, written 600");
        assertThat(balances("Wallets").values()).as("every Wallets entity, once").hasSize(300).containsOnly(101L);
        assertThat(balances("Wallet2").values()).as("every Wallet2 entity, once").hasSize(300).containsOnly(101L);
    }

    @Test
    void aKindsIdTakenByAnotherJobIsRefusedBeforeAnythingRuns() throws Exception {
        InProcessCli.Result other = cli.run("run", "--kind", "Wallet2", "--mapper", cli.mapper(
                "{\"template\":\"count\"}").toString(), "--job-id", "rep.1-Wallets");
        assertThat(other.exitCode()).as(other.err()).isZero();
        InProcessCli.Result group = cli.run("run", "--kind", "Wallets,Wallet2", "--mapper", increment, "--job-id",
                "rep");
        assertThat(group.exitCode()).as(group.out()).isEqualTo(1);
        assertThat(group.err()).contains("Job id 'rep.1-Wallets'").contains("kind Wallets")
                .contains("taken by another job (its own job over Wallet2, count, done)").contains("Nothing was run");
        assertThat(balances("Wallets").values()).containsOnly(100L);
        assertThat(balances("Wallet2").values()).containsOnly(100L);
        assertThat(cli.run("run", "--resume", "rep").exitCode()).as("no group was stored").isNotZero();
    }

    @Test
    void anImportWithABadLineWritesNothingUnlessToldToSkipItAndThenCountsIt() throws Exception {
        Path file = dir.resolve("wallet2.jsonl");
        InProcessCli.Result export = cli.run("run", "--kind", "Wallet2", "--mapper", cli.mapper(
                "{\"template\":\"export\",\"file\":\"" + file.toString().replace("\\", "\\\\") + "\"}").toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        assertThat(cli.run("run", "--kind", "Wallet2", "--mapper", increment).exitCode()).isZero();
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        assertThat(lines).hasSize(300);
        ObjectMapper json = new ObjectMapper();
        Key broken = EntityCodec.decode(json.readTree(lines.get(150)), conn.projectId(), "").getKey();
        lines.set(150, lines.get(150).substring(0, 40)); // line 151, cut short
        Files.write(file, lines);
        Path spec = cli.mapper("{\"template\":\"import\",\"file\":\"" + file.toString().replace("\\", "\\\\") + "\"}");

        InProcessCli.Result refused = cli.run("run", "--kind", "Wallet2", "--mapper", spec.toString(), "--job-id",
                "imp1");
        assertThat(refused.exitCode()).as(refused.out()).isEqualTo(1);
        assertThat(refused.err()).contains("Line 151 of " + file).contains("Nothing was imported")
                .contains("--skip-bad-lines").doesNotContain("Exception");
        assertThat(balances("Wallet2").values()).as("not one entity imported").hasSize(300).containsOnly(101L);
        assertThat(datastore.get(datastore.newKeyFactory().setKind(JobStore.JOB_KIND)
                .newKey("imp1"))).as("not even the import's job").isNull();

        Path report = dir.resolve("report.json");
        InProcessCli.Result skipped = cli.run("run", "--kind", "Wallet2", "--mapper", spec.toString(), "--job-id",
                "imp1", "--skip-bad-lines", "--report", report.toString());
        assertThat(skipped.exitCode()).as(skipped.err()).isZero();
        assertThat(skipped.out()).contains("Job imp1 done: read 300, written 299, deleted 0, skipped 1")
                .contains("not an exported entity").contains("line 151: ");
        Map<Key, Long> after = balances("Wallet2");
        assertThat(after.get(broken)).as("the bad line's entity is left as it was").isEqualTo(101L);
        after.remove(broken);
        assertThat(after.values()).as("every other line imported").hasSize(299).containsOnly(100L);
        JsonNode counters = json.readTree(report.toFile()).path("counters");
        assertThat(counters.path("written").asLong()).isEqualTo(299);
        assertThat(counters.path("skipped: not an exported entity").asLong()).isEqualTo(1);
        assertThat(json.readTree(report.toFile()).path("skippedByReason").get(0).path("count").asLong()).isEqualTo(1);

        InProcessCli.Result notImport = cli.run("run", "--kind", "Wallet2", "--mapper", increment, "--skip-bad-lines");
        assertThat(notImport.exitCode()).isEqualTo(1);
        assertThat(notImport.err()).contains("--skip-bad-lines applies to an import");
    }
}

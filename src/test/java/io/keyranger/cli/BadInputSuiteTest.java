package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
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
 * Bad input as a new user types it, on the real emulator. Every case checks three things: the one-line message that
 * names the value and the rule, the exit code, and that the data is unchanged (entity by entity) except for what the
 * job was meant to do.
 */
class BadInputSuiteTest {
    private ConnectionSpec conn;
    private Datastore datastore;
    private Map<Key, Entity> before;

    @TempDir
    Path dir;

    @BeforeEach
    void seed() {
        conn = SharedEmulator.freshProject("badinput");
        datastore = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Account").newKey(i))
                    .set("balance", i == 17 ? Long.MAX_VALUE : i).set("tier", i % 2 == 0 ? "pro" : "free").build());
        }
        datastore.put(all.toArray(new Entity[0]));
        before = read();
    }

    private Map<Key, Entity> read() {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    private record Result(int exitCode, String out, String err) {
    }

    /** Runs the CLI with the emulator's connection unless the case gives its own. */
    private Result run(boolean connect, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (connect) {
            all.addAll(List.of("--emulator-host", conn.emulatorHost(), "--project", conn.projectId()));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), all.toArray(new String[0]));
        return new Result(code, out.toString(), err.toString());
    }

    private Path spec(String json) throws Exception {
        Path file = Files.createTempFile(dir, "spec", ".json");
        Files.writeString(file, json);
        return file;
    }

    private void refused(Result result, String message) {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(1);
        assertThat(result.err()).contains(message).doesNotContain("unexpected error").doesNotContain("\tat ")
                .doesNotContain("Exception");
        assertThat(read()).as("nothing changed").isEqualTo(before);
    }

    @Test
    void connectionValuesAreCheckedAgainstDatastoresRules() throws Exception {
        String count = spec("{\"template\":\"count\"}").toString();
        refused(run(false, "run", "--kind", "Account", "--mapper", count, "--emulator-host", "127.0.0.1:99999"),
                "Port 99999 of '127.0.0.1:99999' is out of range: a port is 1 to 65535.");
        refused(run(false, "run", "--kind", "Account", "--mapper", count, "--emulator-host", "127.0.0.1"),
                "Emulator host '127.0.0.1' is not HOST:PORT");
        refused(run(false, "run", "--kind", "Account", "--mapper", count, "--emulator-host", "local host:8081"),
                "Host 'local host' of 'local host:8081' is not a host name");
        refused(run(false, "kinds", "--project", "my project"), "Project id 'my project' breaks Google Cloud's rule");
        refused(run(false, "kinds", "--project", "Prod-1"), "Project id 'Prod-1' breaks Google Cloud's rule");
        refused(run(false, "kinds", "--emulator-host", conn.emulatorHost(), "--project", "a/b"),
                "Project id 'a/b' cannot be used");
        refused(run(true, "kinds", "--database", "My_DB"), "Database id 'My_DB' breaks Firestore's rule");
        refused(run(true, "kinds", "--namespace", "a b"), "Namespace 'a b' breaks Datastore's rule");
        refused(run(true, "kinds", "--namespace", "__x__"), "Namespace '__x__' is reserved");
        refused(run(true, "run", "--kind", "__kind__", "--mapper", count), "Kind '__kind__' is reserved");
    }

    @Test
    void anExportThatCannotBeWrittenIsRefusedBeforeAnyRead() throws Exception {
        Path target = Files.createDirectory(dir.resolve("out"));
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"export\",\"file\":\""
                + target + "\"}").toString()), "must be a file, not a directory");
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"export\",\"file\":\""
                + dir.resolve("missing/x.jsonl") + "\"}").toString()), "must be in an existing directory");
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"export\",\"file\":"
                + "\"gs://bucket/x.jsonl\"}").toString()), "on the Beam runner");
        // an input on a cloud store is the Beam runner's to read (its workers reach it); here it is refused up front
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"import\",\"file\":"
                + "\"gs://bucket/x.jsonl\"}").toString()), "gs://bucket/x.jsonl is not on this machine");
        Result remote = run(true, "restore", "--kind", "Account", "--export", "gs://bucket/exports/2026-11-27");
        assertThat(remote.exitCode()).as(remote.err()).isEqualTo(2); // a bad option value, as picocli exits on one
        assertThat(remote.err()).contains("Invalid value for option '--export': gs://bucket/exports/2026-11-27 is "
                + "not on this machine").contains("Copy it here (e.g. with gsutil cp -r), or run the job on the Beam "
                + "runner").doesNotContain("\tat ");
        assertThat(run(true, "jobs").out()).as("no job was created").doesNotContain("Account-");
    }

    @Test
    void anOverflowingEntityIsSkippedNamedAndTheRestIsIncremented() throws Exception {
        Path report = dir.resolve("report.json");
        Result result = run(true, "run", "--kind", "Account", "--mapper", spec(
                "{\"template\":\"increment\",\"property\":\"balance\",\"amount\":7}").toString(), "--shards", "2",
                "--report", report.toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("written 29, deleted 0, skipped 1, failed 0")
                .contains("Skipped entities, by reason:").contains("1 × integer overflow")
                .contains("e.g. Account:17: 'balance' is 9223372036854775807; adding 7 would overflow a 64-bit integer");
        Map<Key, Entity> after = read();
        for (Map.Entry<Key, Entity> e : before.entrySet()) {
            long was = e.getValue().getLong("balance");
            assertThat(after.get(e.getKey()).getLong("balance")).as("%s", e.getKey())
                    .isEqualTo(was == Long.MAX_VALUE ? was : was + 7);
            assertThat(after.get(e.getKey()).getString("tier")).isEqualTo(e.getValue().getString("tier"));
        }
        var json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.path("skippedByReason").get(0).path("reason").asText()).isEqualTo("integer overflow");
        assertThat(json.path("skippedByReason").get(0).path("count").asLong()).isEqualTo(1);
        assertThat(json.path("skippedByReason").get(0).path("examples").get(0).asText()).startsWith("Account:17: ");
    }

    @Test
    void specPropertiesAreCheckedAgainstTheKindBeforeTheFirstRead() throws Exception {
        Result text = run(true, "run", "--kind", "Account", "--mapper", spec(
                "{\"template\":\"increment\",\"property\":\"tier\",\"amount\":1}").toString());
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.err()).contains("keyranger: warning: 'tier' of Account holds string values, not integers or "
                + "doubles");
        assertThat(text.out()).contains("written 0, deleted 0, skipped 30").contains("30 × not a number");
        assertThat(read()).as("nothing changed").isEqualTo(before);
        Result typo = run(true, "run", "--kind", "Account", "--dry-run", "--mapper", spec(
                "{\"template\":\"increment\",\"property\":\"balanse\",\"amount\":1}").toString());
        assertThat(typo.exitCode()).as(typo.err()).isZero();
        assertThat(typo.err()).contains("'balanse' is not among the indexed properties of Account (it may exist "
                + "unindexed). Did you mean 'balance'?");
        assertThat(read()).isEqualTo(before);
    }

    /**
     * Issue 47: a GQL query's property typo is named, with the property it likely meant, before the query runs (as
     * Datastore allows it): run and preview then say they found nothing to do.
     */
    @Test
    void aGqlPropertyTypoIsNamedWithThePropertyItLikelyMeant() throws Exception {
        String gql = "SELECT * FROM Account WHERE tierr = 'pro'";
        String warning = "keyranger: warning: 'tierr' is not among the indexed properties of Account (it may exist "
                + "unindexed). Did you mean 'tier'?";
        Result run = run(true, "run", "--gql", gql, "--mapper", spec("{\"template\":\"count\"}").toString());
        assertThat(run.err()).contains(warning).contains("has no entities matching the filters");
        Result preview = run(true, "preview", "--gql", gql, "--shards", "2");
        assertThat(preview.err()).contains(warning).contains("has no entities matching the filters");
        assertThat(read()).isEqualTo(before);
    }

    @Test
    void specMistakesNameTheFieldAndTheRule() throws Exception {
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"increment\","
                + "\"property\":\"balance\",\"amount\":\"ten\"}").toString()), "amount");
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"increment\","
                + "\"amount\":1}").toString()), "property");
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"increment\","
                + "\"property\":\"x\"}").toString()), "Parameter 'amount' of template 'increment' is required");
        refused(run(true, "run", "--kind", "Account", "--dry-run", "--mapper", spec("{\"template\":\"increment\","
                + "\"property\":\"x\"}").toString()), "Parameter 'amount' of template 'increment' is required");
        refused(run(true, "run", "--kind", "Account", "--mapper", spec("{\"template\":\"set\",\"property\":"
                + "\"tier\",\"value\":\"x\",\"colour\":1}").toString()), "'colour'");
        refused(run(true, "run", "--kind", "Account", "--gql", "SELECT * FROM Account LIMIT 3", "--mapper",
                spec("{\"template\":\"count\"}").toString()), "The query's LIMIT 3 cannot apply");
    }
}

package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.profile.ConnectionProfile;
import io.keyranger.profile.ProfileStore;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command on the Firestore emulator in Datastore mode, found by {@code --emulator-host} alone: it has no
 * {@code __kind__}, {@code __namespace__} or {@code __property__} metadata, no {@code __scatter__} and no Admin
 * export. Each command either works (checked against the emulator's own answers) or says plainly what the server
 * lacks; none prints "unexpected error" or a stack trace.
 */
class FirestoreEmulatorCliTest {
    private static final int ENTITIES = 400;

    @TempDir
    Path dir;

    @Test
    void everyCommandWorksOrSaysWhatTheServerLacks() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "fs-cli");
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= ENTITIES; i++) {
            seed.add(Entity.newBuilder(datastore.newKeyFactory().setKind("W").newKey(i)).set("n", i)
                    .set("tier", i % 2 == 0 ? "even" : "odd").build());
        }
        SharedEmulator.putAll(datastore, seed);
        Map<String, JsonNode> before = RawEntities.of(conn, "", "W");
        assertThat(before).hasSize(ENTITIES);
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result unknown = ok(cli.run("kinds"));
        assertThat(unknown.out()).as("nothing named yet: it says why it lists nothing")
                .contains("cannot list kinds").contains("--kind");
        // a read-only connection writes nothing, not even the record that a named kind was found
        new ProfileStore(dir).save(new ConnectionProfile("ro",
                conn.emulatorHost(), conn.projectId(), "", null, "", true));
        ok(cli.run("kinds", "--profile", "ro", "--kind", "W"));
        ok(cli.run("preview", "--profile", "ro", "--kind", "W", "--shards", "2"));
        assertThat(ok(cli.run("kinds")).out()).as("nothing recorded through the read-only connection")
                .doesNotContainPattern("\\(default\\)\\s+W");
        InProcessCli.Result named = ok(cli.run("kinds", "--kind", "W", "--properties"));
        assertThat(named.out()).containsPattern("\\(default\\)\\s+W").contains(".n: integer")
                .contains(".tier: string").contains("from a sample");
        InProcessCli.Result known = ok(cli.run("kinds"));
        assertThat(known.out()).as("a kind confirmed once is listed from then on, and the listing says why")
                .containsPattern("\\(default\\)\\s+W").contains("cannot list kinds");

        String w1 = ok(cli.run("entity", "get", "KEY(W, 1)")).out();
        String p1 = w1.replaceFirst("\"kind\" : \"W\"", "\"kind\" : \"P\"");
        assertThat(p1).as(w1).isNotEqualTo(w1);
        Files.writeString(dir.resolve("p.json"), p1);
        ok(cli.run("entity", "put", dir.resolve("p.json").toString()));
        assertThat(ok(cli.run("kinds")).out()).as("a kind KeyRanger wrote is known")
                .containsPattern("\\(default\\)\\s+P\\n");

        InProcessCli.Result preview = ok(cli.run("preview", "--kind", "W", "--shards", "4"));
        assertThat(preview.out()).contains("__scatter__").doesNotContain("oversample");

        InProcessCli.Result allKinds = cli.run("run", "--all-kinds", "--mapper",
                cli.mapper("{\"template\":\"count\"}").toString());
        refused(allKinds, "cannot list kinds");
        assertThat(allKinds.err()).contains("W");
        InProcessCli.Result backup = cli.run("run", "--kind", "W", "--mapper",
                cli.mapper("{\"template\":\"touch\"}").toString(), "--backup-to", dir.resolve("bk").toString());
        refused(backup, "managed export");
        assertThat(backup.err()).doesNotContain("bucket");
        assertThat(RawEntities.of(conn, "", "W")).as("nothing written by a refused job").isEqualTo(before);

        ok(cli.run("run", "--kind", "W", "--job-id", "inc", "--workers", "4", "--mapper",
                cli.mapper("{\"template\":\"increment\",\"property\":\"n\",\"amount\":1}").toString()));
        Map<String, JsonNode> incremented = RawEntities.of(conn, "", "W");
        assertThat(incremented).hasSize(ENTITIES);
        incremented.values().forEach(e -> assertThat(e.path("properties").path("n").path("integerValue").asLong())
                .as(e.toString()).isEqualTo(e.path("key").path("path").get(0).path("id").asLong() + 1));
        ok(cli.run("revert", "inc"));
        assertThat(RawEntities.of(conn, "", "W")).as("reverted to the values before").isEqualTo(before);

        Path managed = dir.resolve("managed");
        ok(cli.run("run", "--kind", "W", "--job-id", "exp", "--mapper", cli.mapper("{\"template\":\"export\","
                + "\"format\":\"managed\",\"file\":\"" + json(managed) + "\"}").toString()));
        ok(cli.run("run", "--kind", "W", "--job-id", "del", "--mapper",
                cli.mapper("{\"template\":\"delete\",\"where\":\"tier == 'odd'\"}").toString()));
        Map<String, JsonNode> afterDelete = RawEntities.of(conn, "", "W");
        assertThat(afterDelete).hasSize(ENTITIES / 2);
        afterDelete.values().forEach(e -> assertThat(e.path("properties").path("tier").path("stringValue").asText())
                .isEqualTo("even"));

        InProcessCli.Result diff = ok(cli.run("diff", "--export", managed.toString(), "--kind", "W"));
        assertThat(diff.out()).containsPattern("same\\s+" + ENTITIES / 2).containsPattern("removed\\s+" + ENTITIES / 2);
        ok(cli.run("restore", "--export", managed.toString(), "--kind", "W", "--job-id", "rs"));
        assertThat(RawEntities.of(conn, "", "W")).as("restored from KeyRanger's own export").isEqualTo(before);

        Path lines = dir.resolve("w.jsonl");
        ok(cli.run("run", "--kind", "W", "--job-id", "exp-lines", "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + json(lines) + "\"}").toString()));
        ok(cli.run("run", "--kind", "W", "--job-id", "del-all", "--mapper",
                cli.mapper("{\"template\":\"delete\"}").toString()));
        assertThat(RawEntities.of(conn, "", "W")).isEmpty();
        ok(cli.run("run", "--kind", "W", "--job-id", "imp", "--mapper",
                cli.mapper("{\"template\":\"import\",\"file\":\"" + json(lines) + "\"}").toString()));
        assertThat(RawEntities.of(conn, "", "W")).as("imported back exactly").isEqualTo(before);
    }

    private static String json(Path path) {
        return path.toString().replace("\\", "\\\\");
    }

    private static InProcessCli.Result ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        clean(result);
        return result;
    }

    private static void refused(InProcessCli.Result result, String says) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isNotZero();
        assertThat(result.err()).contains(says);
        clean(result);
    }

    private static void clean(InProcessCli.Result result) {
        assertThat(result.out() + result.err()).doesNotContain("unexpected error").doesNotContain("Exception")
                .doesNotContain("\tat ");
    }
}

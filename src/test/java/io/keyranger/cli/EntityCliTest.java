package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code keyranger entity get|put|delete} on the real emulator. */
class EntityCliTest {
    private static ConnectionSpec conn;
    private static Datastore datastore;

    @TempDir
    Path dir;

    @BeforeAll
    static void connect() {
        conn = SharedEmulator.freshProject("entitycli");
        datastore = SharedEmulator.connect(conn);
    }

    private record Result(int exitCode, String out, String err) {
    }

    private Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--emulator-host";
        all[args.length + 1] = conn.emulatorHost();
        all[args.length + 2] = "--project";
        all[args.length + 3] = conn.projectId();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), all);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void getPrintsWhatPutWritesBackAndDeleteRemovesIt() throws Exception {
        Key key = datastore.newKeyFactory().setKind("Acct").newKey("a'1");
        Entity original = Entity.newBuilder(key).set("balance", 5L).set("tier", "pro").build();
        datastore.put(original);
        Result got = run("entity", "get", "KEY(Acct, 'a''1')");
        assertThat(got.exitCode()).as(got.err()).isZero();
        assertThat(got.out()).contains("\"balance\"").contains("\"integer\"");
        Path file = dir.resolve("a1.json");
        Files.writeString(file, got.out().replace("\"value\" : \"5\"", "\"value\" : \"6\""));
        Result put = run("entity", "put", file.toString());
        assertThat(put.exitCode()).as(put.err()).isZero();
        assertThat(put.out()).startsWith("Replaced Acct:");
        assertThat(datastore.get(key)).isEqualTo(Entity.newBuilder(original).set("balance", 6L).build());
        Result delete = run("entity", "delete", "KEY(Acct, 'a''1')");
        assertThat(delete.exitCode()).as(delete.err()).isZero();
        assertThat(datastore.get(key)).isNull();
        Result created = run("entity", "put", file.toString());
        assertThat(created.out()).startsWith("Created Acct:");
        assertThat(datastore.get(key).getLong("balance")).isEqualTo(6);
    }

    @Test
    void badKeysFilesAndMissingEntitiesAreOneLineErrorsAndChangeNothing() throws Exception {
        Key kept = datastore.newKeyFactory().setKind("Acct").newKey(7);
        datastore.put(Entity.newBuilder(kept).set("n", 1L).build());
        Result badKey = run("entity", "get", "KEY(Acct)");
        assertThat(badKey.exitCode()).isEqualTo(1);
        assertThat(badKey.err()).contains("GQL error at column 9").doesNotContain("Exception");
        Result missing = run("entity", "delete", "KEY(Acct, 7)", "KEY(Acct, 8)");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("No entity Acct:8: nothing was deleted.");
        assertThat(datastore.get(kept)).isNotNull();
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"key\": {\"path\": [{\"kind\": \"Acct\", \"id\": \"7\"}]}, \"properties\": "
                + "{\"n\": {\"type\": \"integer\", \"value\": \"x\"}}}");
        Result badValue = run("entity", "put", bad.toString());
        assertThat(badValue.exitCode()).isEqualTo(1);
        assertThat(badValue.err()).contains("is not an entity").doesNotContain("\tat ");
        assertThat(datastore.get(kept).getLong("n")).isEqualTo(1);
        assertThat(run("entity", "put", dir.resolve("none.json").toString()).err()).contains("File not found");
    }
}

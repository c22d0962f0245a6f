package io.keyranger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every KeyRanger path that copies entities (the undo of a delete and of an increment, the JSON lines export and import,
 * copy) keeps what Datastore keeps: meanings 15 and 22, a key value's own project, embedded entities' keys complete or
 * not, index flags at every level, empty arrays. Each is checked raw value by raw value (the emulator's own v1 JSON)
 * against what Google's own managed {@code :export} and {@code :import} make of the same entities, written into the
 * same project one after the other so that no project id needs rewriting.
 */
class LosslessCopiesTest {
    private static final String KIND = "Rich";
    private static final int ENTITIES = 30;
    private static final String FILTER = "{\"kinds\": [\"" + KIND + "\"]}";

    @TempDir
    Path dir;

    private ConnectionSpec conn;
    private Datastore datastore;
    private InProcessCli cli;
    private Map<String, JsonNode> seeded;

    @BeforeEach
    void seed() throws Exception {
        conn = SharedEmulator.freshProject("lossless");
        datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.withAppEngineValues(datastore, KIND, ENTITIES));
        cli = new InProcessCli(dir, conn);
        seeded = RawEntities.of(conn, "", KIND);
        assertThat(seeded).hasSize(ENTITIES);
    }

    @Test
    void aRevertedDeleteBringsBackEveryEntityRawIdentical() throws Exception {
        Path google = EmulatorExports.export(conn, dir, FILTER);
        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"delete\"}").toString(), "--job-id",
                "del", "--page-size", "7"));
        assertThat(RawEntities.of(conn, "", KIND)).isEmpty();

        InProcessCli.Result revert = cli.run("revert", "del");
        ok(revert);
        assertThat(revert.out()).contains("restored: " + ENTITIES);
        Map<String, JsonNode> ours = RawEntities.of(conn, "", KIND);
        assertRawEqual(ours, seeded); // an undo puts back what Datastore had
        assertSameAsGooglesImport(ours, google);
    }

    @Test
    void aRevertedIncrementNobodyChangedSinceRestoresEveryEntityRawIdentical() throws Exception {
        Path google = EmulatorExports.export(conn, dir, FILTER);
        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"increment\",\"property\":"
                + "\"balance\",\"amount\":5}").toString(), "--job-id", "inc", "--page-size", "7"));

        InProcessCli.Result revert = cli.run("revert", "inc");
        ok(revert);
        assertThat(revert.out()).contains("restored: " + ENTITIES).doesNotContain("changed since the job");
        Map<String, JsonNode> ours = RawEntities.of(conn, "", KIND);
        assertRawEqual(ours, seeded);
        assertSameAsGooglesImport(ours, google);
    }

    @Test
    void aJsonLinesExportImportedAfterADeleteIsRawIdentical() throws Exception {
        Path google = EmulatorExports.export(conn, dir, FILTER);
        Path file = dir.resolve("rich.jsonl");
        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"export\",\"file\":\"" + file + "\"}")
                .toString()));
        deleteAll(conn);

        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"import\",\"file\":\"" + file + "\"}")
                .toString()));
        Map<String, JsonNode> ours = RawEntities.of(conn, "", KIND);
        assertRawEqual(ours, seeded);
        assertSameAsGooglesImport(ours, google);
    }

    /**
     * Into another project KeyRanger places keys as Google's {@code :import} does: every key reached through indexed
     * values (a key value, an indexed embedded entity's key, complete or incomplete) goes into the importing project,
     * whichever project it named (the source's or a third one); keys under unindexed values keep the project they
     * named.
     */
    @Test
    void aJsonLinesExportImportedIntoAnotherProjectIsWhatGooglesImportMakesThere() throws Exception {
        Path google = EmulatorExports.export(conn, dir, FILTER);
        Path file = dir.resolve("rich.jsonl");
        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"export\",\"file\":\"" + file + "\"}")
                .toString()));
        ConnectionSpec target = SharedEmulator.freshProject("lossless-target");
        InProcessCli there = new InProcessCli(dir, target);

        ok(there.run("run", "--kind", KIND, "--mapper", there.mapper("{\"template\":\"import\",\"file\":\"" + file
                + "\"}").toString()));
        Map<String, JsonNode> ours = RawEntities.of(target, "", KIND);
        assertThat(ours).hasSize(ENTITIES);
        deleteAll(target);
        EmulatorExports.importInto(target, Path.of(ManagedExport.open(google).metadata()));
        assertRawEqual(ours, RawEntities.of(target, "", KIND));
    }

    @Test
    void aCopyToAnotherKindAndNamespaceKeepsEveryValueRawIdentical() throws Exception {
        ok(cli.run("run", "--kind", KIND, "--mapper", cli.mapper("{\"template\":\"copy\",\"toKind\":\"Copied\","
                + "\"toNamespace\":\"copies\"}").toString(), "--page-size", "7"));
        Map<String, JsonNode> copies = RawEntities.of(conn, "copies", "Copied");
        assertThat(copies).hasSize(ENTITIES);
        Map<String, JsonNode> copied = new TreeMap<>();
        copies.values().forEach(e -> copied.put(sourceKey(e.path("key")), e.path("properties")));
        Map<String, JsonNode> source = new TreeMap<>();
        seeded.forEach((key, e) -> source.put(key, e.path("properties")));
        assertRawEqual(copied, source);
    }

    /**
     * Google's answer for the same project: Rich deleted, then the export taken before the path ran loaded by the
     * emulator's {@code :import}, read raw, compared entity by entity with what KeyRanger's path left. Google's import
     * moves a key value that names a third project into the importing project: that one value is put back as
     * Datastore had it (KeyRanger keeps it within the entity's own project) and must be the only difference.
     */
    private void assertSameAsGooglesImport(Map<String, JsonNode> ours, Path export) throws Exception {
        deleteAll(conn);
        EmulatorExports.importInto(conn, Path.of(ManagedExport.open(export).metadata()));
        Map<String, JsonNode> google = RawEntities.of(conn, "", KIND);
        assertThat(google).hasSize(ENTITIES);
        for (JsonNode entity : google.values()) {
            ObjectNode partition = (ObjectNode) entity.path("properties").path("elsewhere").path("keyValue")
                    .path("partitionId");
            assertThat(partition.path("projectId").asText()).as("Google's import moved it").isEqualTo(conn.projectId());
            partition.put("projectId", "another-project");
        }
        assertRawEqual(ours, google);
    }

    /** Entity by entity, so that a failure shows the one entity that differs. */
    private static void assertRawEqual(Map<String, JsonNode> actual, Map<String, JsonNode> expected) {
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, entity) -> assertThat(actual.get(key)).as(key).isEqualTo(entity));
    }

    /** The source key a copy's raw key stands for: kind Copied in namespace copies back to Rich in the default one. */
    private static String sourceKey(JsonNode copy) {
        ObjectNode key = copy.deepCopy();
        ((ObjectNode) key.path("partitionId")).remove("namespaceId");
        ((ObjectNode) key.path("path").get(key.path("path").size() - 1)).put("kind", KIND);
        return key.toString(); // compact, in field order: as RawEntities writes its keys
    }

    private static void deleteAll(ConnectionSpec in) {
        Datastore ds = SharedEmulator.connect(in);
        List<Key> keys = new ArrayList<>();
        ds.run(Query.newKeyQueryBuilder().setKind(KIND).build()).forEachRemaining(keys::add);
        ds.delete(keys.toArray(new Key[0]));
    }

    private static void ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    }
}

package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KeyRanger's managed-export paths against Google's own, raw value by raw value (the emulator's v1 JSON): entities with
 * the values App Engine apps write (meanings 15 and 22, a key value into another project, embedded entities with
 * incomplete and complete keys, an empty array, unindexed values at every level) beside every ordinary type. A restore
 * from the emulator's export writes what the emulator's {@code :import} of it writes, a diff right after the export
 * finds nothing changed, and KeyRanger's own export loads through {@code :import} as Google's own export does.
 */
class GoogleImportParityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KIND = "Rich";
    private static final int COUNT = 33;
    private static final int LEGACY = 3;

    @TempDir
    Path dir;

    private static Datastore seeded(ConnectionSpec conn) {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>(RichEntities.withAppEngineValues(datastore, KIND, COUNT - LEGACY));
        for (int i = 1; i <= LEGACY; i++) {
            all.add(legacy(datastore.newKeyFactory().setKind(KIND).newKey("legacy-" + i), i));
        }
        SharedEmulator.putAll(datastore, all);
        return datastore;
    }

    /**
     * The rest of what old App Engine apps keep: every string meaning, a rating, a point without its v3 meaning, an
     * unindexed byte string, a user, key values with a database and in another project (indexed and not), embedded
     * entities keyed in another project and database, incomplete under an ancestor, indexed and not.
     */
    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore and by App Engine apps
    private static Entity legacy(Key key, int i) {
        Key away = Key.newBuilder("another-project", "Away", "a" + i, "db2").setNamespace("ns-y").build();
        FullEntity<IncompleteKey> incomplete = FullEntity.newBuilder(IncompleteKey.newBuilder("another-project",
                        "Line").addAncestor(PathElement.of("Order", "o" + i)).setNamespace("ns-y").build())
                .set("sku", "s" + i).set("ref", KeyValue.newBuilder(away).setExcludeFromIndexes(true).build()).build();
        FullEntity<IncompleteKey> user = FullEntity.newBuilder()
                .set("email", StringValue.newBuilder("u" + i + "@example.com").setExcludeFromIndexes(true).build())
                .set("auth_domain", StringValue.newBuilder("gmail.com").setExcludeFromIndexes(true).build())
                .set("user_id", StringValue.newBuilder("10" + i).setExcludeFromIndexes(true).build()).build();
        Entity.Builder b = Entity.newBuilder(key)
                .set("user", EntityValue.newBuilder(user).setMeaning(20).build())
                .set("rating", LongValue.newBuilder(40 + i).setMeaning(13).build())
                .set("spot", LatLngValue.newBuilder(LatLng.of(i, -i)).setMeaning(23).build())
                .set("bytes", BlobValue.newBuilder(Blob.copyFrom(new byte[] {(byte) i, 0, -1})).setMeaning(16)
                        .setExcludeFromIndexes(true).build())
                .set("plainBlob", Blob.copyFrom(new byte[] {(byte) i}))
                .set("sameDb", Key.newBuilder(key.getProjectId(), "Other", i, "otherdb").build())
                .set("awayIndexed", away)
                .set("awayRaw", KeyValue.newBuilder(away).setExcludeFromIndexes(true).build())
                .set("lineIndexed", EntityValue.of(incomplete))
                .set("lineRaw", EntityValue.newBuilder(incomplete).setExcludeFromIndexes(true).build())
                .set("keyedAway", EntityValue.of(FullEntity.newBuilder(away).set("n", (long) i).build()))
                .set("mixed", ListValue.of(StringValue.newBuilder("t" + i).setMeaning(15).setExcludeFromIndexes(true)
                        .build(), StringValue.of("plain"), LongValue.newBuilder(i).setMeaning(13).build()))
                .set("empty", ListValue.newBuilder().build());
        int[] stringMeanings = {1, 2, 3, 4, 5, 6, 8, 10, 11, 12, 17};
        for (int meaning : stringMeanings) {
            b.set("m" + meaning, StringValue.newBuilder("v" + meaning).setMeaning(meaning).build());
        }
        return b.build();
    }

    private static void deleteAll(Datastore datastore) {
        datastore.delete(RichEntities.read(datastore, "", KIND).keySet().toArray(new Key[0]));
        assertThat(RichEntities.read(datastore, "", KIND)).isEmpty();
    }

    /** A kind read raw, with the project it lives in written as TARGET (so two projects' copies compare). */
    private static Map<String, JsonNode> raw(ConnectionSpec conn) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        String quoted = "\"" + conn.projectId() + "\"";
        for (Map.Entry<String, JsonNode> e : RawEntities.of(conn, "", KIND).entrySet()) {
            out.put(e.getKey().replace(quoted, "\"TARGET\""),
                    JSON.readTree(JSON.writeValueAsString(e.getValue()).replace(quoted, "\"TARGET\"")));
        }
        return out;
    }

    private static void assertSameRaw(Map<String, JsonNode> ours, Map<String, JsonNode> google) {
        assertThat(ours.keySet()).isEqualTo(google.keySet());
        for (String key : google.keySet()) {
            assertThat(ours.get(key)).as("%s", key).isEqualTo(google.get(key));
        }
    }

    @Test
    void aRestoreFromTheEmulatorsExportWritesWhatItsImportWritesAndADiffSeesNoChange() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("parity");
        Datastore datastore = seeded(conn);
        Map<String, JsonNode> original = raw(conn);
        Path export = Path.of(ManagedExport.open(EmulatorExports.export(conn, dir, null)).metadata());
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result diff = cli.run("diff", "--export", export.toString(), "--kind", KIND);
        assertThat(diff.exitCode()).as(diff.out() + diff.err()).isZero();
        assertThat(diff.out()).as(diff.out()).containsPattern("same\\s+" + COUNT + "\\b")
                .containsPattern("changed\\s+0\\b");

        deleteAll(datastore);
        EmulatorExports.importInto(conn, export);
        Map<String, JsonNode> google = raw(conn);
        deleteAll(datastore);
        InProcessCli.Result restore = cli.run("restore", "--export", export.toString(), "--kind", KIND);
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertThat(google).hasSize(COUNT).hasSameSizeAs(original);
        assertSameRaw(raw(conn), google);

        InProcessCli.Result after = cli.run("diff", "--export", export.toString(), "--kind", KIND);
        assertThat(after.out()).as("a restored entity is as in the export").containsPattern("same\\s+" + COUNT
                + "\\b").containsPattern("changed\\s+0\\b");
        // its key value into another-project is now the connected project's, as :import placed it
        InProcessCli.Result one = cli.run("diff", "--export", export.toString(), "--kind", KIND, "--key",
                "KEY(" + KIND + ", 'user-000002')");
        assertThat(one.exitCode()).as(one.out() + one.err()).isZero();
        assertThat(one.out()).as(one.out()).contains("the same as in the export");
    }

    @Test
    void aRestoreIntoAnotherProjectWritesWhatTheImportIntoAnotherProjectWrites() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("parity-source");
        seeded(source);
        Path export = Path.of(ManagedExport.open(EmulatorExports.export(source, dir, null)).metadata());
        ConnectionSpec byGoogle = SharedEmulator.freshProject("parity-google");
        EmulatorExports.importInto(byGoogle, export);
        ConnectionSpec ours = SharedEmulator.freshProject("parity-ours");
        InProcessCli.Result restore = new InProcessCli(dir, ours).run("restore", "--export", export.toString(),
                "--kind", KIND);
        assertThat(restore.exitCode()).as(restore.out() + restore.err()).isZero();
        assertSameRaw(raw(ours), raw(byGoogle));
    }

    @Test
    void ourWriterWritesWhatTheImportLoadsAsGooglesOwnExportDoes() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("parity-writer");
        Datastore datastore = seeded(source);
        Path ours;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("ours"))) {
            for (Entity e : RichEntities.read(datastore, "", KIND).values()) {
                writer.write(e);
            }
            writer.finish();
            ours = writer.root();
        }
        loadsAsGooglesOwnExport(source, ours);
    }

    /** The export template (run --mapper, format managed) end to end; its entities pass through EntityCodec. */
    @Test
    void keyRangersManagedExportLoadsThroughTheImportAsGooglesOwnExportDoes() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("parity-export");
        seeded(source);
        Path spec = dir.resolve("backup.json");
        Files.writeString(spec, "{\"template\": \"export\", \"file\": \"" + dir.resolve("ours")
                + "\", \"format\": \"managed\"}");
        InProcessCli.Result run = new InProcessCli(dir, source).run("run", "--kind", KIND, "--mapper",
                spec.toString(), "--page-size", "7");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        loadsAsGooglesOwnExport(source, dir.resolve("ours"));
    }

    /**
     * Our export at {@code ours} and Google's own export of {@code source}, each loaded by the emulator's {@code
     * :import} into a fresh project, read back raw: the same. What Google's import does not move (keys under unindexed
     * values) is the source's, kept by both exports.
     */
    private void loadsAsGooglesOwnExport(ConnectionSpec source, Path ours) throws Exception {
        ConnectionSpec fromOurs = SharedEmulator.freshProject("parity-ours-import");
        EmulatorExports.importInto(fromOurs, Path.of(ManagedExport.open(ours).metadata()));
        ConnectionSpec fromGoogle = SharedEmulator.freshProject("parity-google-import");
        EmulatorExports.importInto(fromGoogle, Path.of(ManagedExport.open(EmulatorExports.export(source, dir,
                null)).metadata()));
        Map<String, JsonNode> google = raw(fromGoogle);
        assertThat(google).hasSize(COUNT);
        assertSameRaw(raw(fromOurs), google);
        assertThat(JSON.writeValueAsString(google)).contains("\"" + source.projectId() + "\"");
    }

    @Test
    void ourReaderReadsGooglesExportAsTheEmulatorServesTheEntities() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("parity-read");
        Datastore datastore = seeded(conn);
        Map<Key, Entity> live = RichEntities.read(datastore, "", KIND);
        Map<Key, Entity> read = new HashMap<>();
        ManagedExport.open(EmulatorExports.export(conn, dir, null)).forEach(conn.projectId(), "",
                e -> read.put(e.getKey(), e));
        assertThat(read.keySet()).isEqualTo(live.keySet());
        for (Key key : live.keySet()) {
            assertThat(read.get(key)).as("%s", key).isEqualTo(live.get(key));
        }
    }
}

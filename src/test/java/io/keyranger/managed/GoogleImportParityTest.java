package io.keyranger.managed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
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
    private static final int COUNT = 30;

    @TempDir
    Path dir;

    private static Datastore seeded(ConnectionSpec conn) {
        Datastore datastore = SharedEmulator.connect(conn);
        SharedEmulator.putAll(datastore, RichEntities.withAppEngineValues(datastore, KIND, COUNT));
        return datastore;
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
        Path export = ManagedExport.open(EmulatorExports.export(conn, dir, null)).metadata();
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
    }

    @Test
    void aRestoreIntoAnotherProjectWritesWhatTheImportIntoAnotherProjectWrites() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("parity-source");
        seeded(source);
        Path export = ManagedExport.open(EmulatorExports.export(source, dir, null)).metadata();
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
            for (com.google.cloud.datastore.Entity e : RichEntities.read(datastore, "", KIND).values()) {
                writer.write(e);
            }
            ours = writer.root();
        }
        ConnectionSpec fromOurs = SharedEmulator.freshProject("parity-writer-ours");
        EmulatorExports.importInto(fromOurs, ManagedExport.open(ours).metadata());
        ConnectionSpec fromGoogle = SharedEmulator.freshProject("parity-writer-google");
        EmulatorExports.importInto(fromGoogle, ManagedExport.open(EmulatorExports.export(source, dir, null))
                .metadata());
        Map<String, JsonNode> google = raw(fromGoogle);
        assertThat(google).hasSize(COUNT);
        assertSameRaw(raw(fromOurs), google);
        assertThat(JSON.writeValueAsString(google)).contains("\"" + source.projectId() + "\"");
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
        ConnectionSpec fromOurs = SharedEmulator.freshProject("parity-ours-import");
        EmulatorExports.importInto(fromOurs, ManagedExport.open(dir.resolve("ours")).metadata());
        ConnectionSpec fromGoogle = SharedEmulator.freshProject("parity-google-import");
        EmulatorExports.importInto(fromGoogle, ManagedExport.open(EmulatorExports.export(source, dir, null))
                .metadata());

        Map<String, JsonNode> google = raw(fromGoogle);
        assertThat(google).hasSize(COUNT);
        assertSameRaw(raw(fromOurs), google);
        // what Google's import does not move (keys under unindexed values) is the source's, kept by both exports
        assertThat(JSON.writeValueAsString(google)).contains("\"" + source.projectId() + "\"");
    }

    @Test
    void ourReaderReadsGooglesExportAsTheEmulatorServesTheEntities() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject("parity-read");
        Datastore datastore = seeded(conn);
        Map<Key, com.google.cloud.datastore.Entity> live = RichEntities.read(datastore, "", KIND);
        Map<Key, com.google.cloud.datastore.Entity> read = new java.util.HashMap<>();
        ManagedExport.open(EmulatorExports.export(conn, dir, null)).forEach(conn.projectId(), "",
                e -> read.put(e.getKey(), e));
        assertThat(read.keySet()).isEqualTo(live.keySet());
        for (Key key : live.keySet()) {
            assertThat(read.get(key)).as("%s", key).isEqualTo(live.get(key));
        }
    }
}

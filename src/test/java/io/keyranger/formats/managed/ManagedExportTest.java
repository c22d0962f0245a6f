package io.keyranger.formats.managed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import io.keyranger.KeyRangerException;
import io.keyranger.cli.KeyRangerCli;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.files.LocalFileStore;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.SharedEmulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader against Google's own writer: the emulator's {@code :export} of every value type and key shape, read back
 * and compared with what the emulator's queries return, entity by entity.
 */
class ManagedExportTest {
    private static ConnectionSpec conn;
    private static Datastore datastore;
    private static Map<Key, Entity> source;

    @TempDir
    Path dir;

    @BeforeAll
    static void seed() {
        conn = SharedEmulator.freshProject("managed");
        datastore = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>();
        var keys = datastore.newKeyFactory().setKind("Every");
        String indexed1500 = "x".repeat(1_500);
        all.add(Entity.newBuilder(keys.newKey("values"))
                .set("long", Long.MAX_VALUE).set("min", Long.MIN_VALUE).set("zero", 0L)
                .set("nan", Double.NaN).set("negZero", -0.0).set("inf", Double.NEGATIVE_INFINITY)
                .set("bool", true).set("null", NullValue.of())
                .set("text", "héllo 𝔘 wörld").set("indexed1500", indexed1500)
                .set("unindexed", StringValue.newBuilder("y".repeat(4_000)).setExcludeFromIndexes(true).build())
                .set("at", Timestamp.ofTimeMicroseconds(1_700_000_000_123_456L))
                .set("blob", Blob.copyFrom(new byte[] {0, 1, 2, (byte) 255}))
                .set("bigBlob", BlobValue.newBuilder(Blob.copyFrom(new byte[3_000])).setExcludeFromIndexes(true).build())
                .set("geo", LatLng.of(-33.86, 151.21))
                .set("ref", Key.newBuilder(conn.projectId(), "Other", "o1").setNamespace("ns")
                        .addAncestor(PathElement.of("Root", 1)).build())
                .set("list", ListValue.of(LongValue.of(1), StringValue.of("two"), DoubleValue.of(3.5)))
                .set("empty", ListValue.of(List.of()))
                .set("unindexedList", ListValue.of(StringValue.newBuilder("a").setExcludeFromIndexes(true).build(),
                        StringValue.newBuilder("b").setExcludeFromIndexes(true).build()))
                .set("embedded", EntityValue.of(FullEntity.newBuilder().set("inner", 5L)
                        .set("deep", EntityValue.of(FullEntity.newBuilder().set("leaf", "z").build())).build()))
                .set("embeddedUnindexed", EntityValue.newBuilder(FullEntity.newBuilder().set("u", "v").build())
                        .setExcludeFromIndexes(true).build())
                .set("stamp", TimestampValue.newBuilder(Timestamp.ofTimeMicroseconds(1)).setExcludeFromIndexes(true)
                        .build())
                .build());
        all.add(Entity.newBuilder(keys.newKey(Long.MAX_VALUE)).set("n", 1L).build());
        all.add(Entity.newBuilder(keys.newKey(1L)).set("n", 2L).build());
        all.add(Entity.newBuilder(keys.newKey("ñ-𝔘-astral-😀")).set("n", 3L).build());
        all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Every").addAncestors(PathElement.of("A", "a"),
                PathElement.of("B", 2L), PathElement.of("C", "ç"), PathElement.of("D", 4L)).newKey("deep")).set("n", 4L)
                .build());
        all.add(Entity.newBuilder(datastore.newKeyFactory().setNamespace("ns").setKind("Every").newKey("other-ns"))
                .set("n", 5L).build());
        all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Second").newKey(7L)).set("n", 6L).build());
        datastore.put(all.toArray(new Entity[0]));
        source = new HashMap<>();
        for (String ns : List.of("", "ns")) {
            for (String kind : List.of("Every", "Second")) {
                datastore.run(Query.newEntityQueryBuilder().setNamespace(ns).setKind(kind).build())
                        .forEachRemaining(e -> source.put(e.getKey(), e));
            }
        }
        assertThat(source).hasSize(all.size());
    }

    /** The emulator's own managed export into a new folder below {@code dir}; returns that folder. */
    private static Path export(Path dir, String filter) throws Exception {
        return export(conn, dir, filter);
    }

    private static Path export(ConnectionSpec conn, Path dir, String filter) throws Exception {
        return EmulatorExports.export(conn, dir, filter);
    }

    private static Map<Key, Entity> read(ManagedExport export) {
        Map<Key, Entity> read = new HashMap<>();
        export.forEach(conn.projectId(), "", e -> read.put(e.getKey(), e));
        return read;
    }

    @Test
    void anUnfilteredExportReadsBackAsTheEmulatorHoldsEveryEntity() throws Exception {
        ManagedExport export = ManagedExport.open(export(dir, null));
        assertThat(export.parts()).singleElement().satisfies(p -> {
            assertThat(p.namespace()).isNull();
            assertThat(p.kind()).isNull();
            assertThat(p.entities()).isEqualTo(source.size());
        });
        Map<Key, Entity> read = read(export);
        assertThat(read.keySet()).isEqualTo(source.keySet());
        for (Key key : source.keySet()) {
            assertThat(read.get(key)).as("%s", key).isEqualTo(source.get(key));
        }
    }

    @Test
    void aFilteredExportHasAPartPerNamespaceAndKind() throws Exception {
        ManagedExport export = ManagedExport.open(export(dir, "{\"kinds\": [\"Every\"], \"namespace_ids\": [\"\", "
                + "\"ns\"]}"));
        assertThat(export.parts()).extracting(ManagedExport.Part::namespace, ManagedExport.Part::kind)
                .containsExactlyInAnyOrder(Tuple.tuple("", "Every"),
                        Tuple.tuple("ns", "Every"));
        Map<Key, Entity> read = read(export);
        Map<Key, Entity> every = new HashMap<>(source);
        every.keySet().removeIf(k -> !k.getKind().equals("Every"));
        assertThat(read).isEqualTo(every);
    }

    @Test
    void aCorruptOrTruncatedFileIsANamedErrorNeverAWrongEntity() throws Exception {
        ManagedExport export = ManagedExport.open(export(dir, null));
        Path output = Path.of(export.parts().get(0).files().get(0));
        byte[] bytes = Files.readAllBytes(output);

        Files.write(output, Arrays.copyOf(bytes, bytes.length - 10));
        assertThatThrownBy(() -> read(export)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining(output.toString()).hasMessageContaining("offset").hasMessageContaining("truncated");

        byte[] corrupt = bytes.clone();
        corrupt[40] ^= 0x20;
        Files.write(output, corrupt, StandardOpenOption.TRUNCATE_EXISTING);
        List<Entity> seen = new ArrayList<>();
        assertThatThrownBy(() -> export.forEach(conn.projectId(), "", seen::add)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining(output.toString()).hasMessageContaining("offset 0")
                .hasMessageContaining("checksum");
        assertThat(seen).isEmpty();
    }

    @Test
    void anOutputFileCutAtBlockBoundariesYieldsEachRecordOnceWhateverTheCuts() throws Exception {
        ConnectionSpec own = SharedEmulator.freshProject("managed-big"); // the other tests' project stays as seeded
        Datastore bigStore = SharedEmulator.connect(own);
        List<Entity> big = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            big.add(Entity.newBuilder(bigStore.newKeyFactory().setKind("Big").newKey(i + 1L))
                    .set("pad", StringValue.newBuilder("p".repeat(700 + i * 13 % 900)).setExcludeFromIndexes(true)
                            .build()).build());
        }
        bigStore.put(big.toArray(new Entity[0]));
        ManagedExport export = ManagedExport.open(export(own, dir, "{\"kinds\": [\"Big\"]}"));
        Path output = Path.of(export.parts().get(0).files().get(0));
        long blocks = (Files.size(output) + LogRecords.BLOCK - 1) / LogRecords.BLOCK;
        assertThat(blocks).as("records span blocks").isGreaterThan(5);
        List<byte[]> whole = records(output, 0, -1);
        assertThat(whole).hasSize(400);
        for (long cut : new long[] {1, 2, 3, blocks / 2, blocks - 1}) {
            List<byte[]> pieces = new ArrayList<>(records(output, 0, cut));
            pieces.addAll(records(output, cut, -1));
            assertThat(pieces).as("cut at block %d", cut).hasSize(400);
            for (int i = 0; i < 400; i++) {
                assertThat(pieces.get(i)).isEqualTo(whole.get(i));
            }
        }
    }

    private static List<byte[]> records(Path file, long from, long to) throws Exception {
        List<byte[]> out = new ArrayList<>();
        try (LogRecords records = new LogRecords(LocalFileStore.INSTANCE, file.toString(), from, to)) {
            for (byte[] r = records.next(); r != null; r = records.next()) {
                out.add(r);
            }
        }
        return out;
    }

    private static String[] cli(Path config, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(config, Map.of(),
                r -> { }), new PrintWriter(out), new PrintWriter(err), args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void theCommandLineShowsAnExportsKindsAndCountsAndLooksUpAKey() throws Exception {
        Path location = export(dir, null);
        String[] info = cli(dir, "export-info", location.toString());
        assertThat(info[0]).as(info[2]).isEqualTo("0");
        assertThat(info[1]).contains("all namespaces / all kinds: 7 entities")
                .containsPattern("\\(default\\)\\s+Every\\s+5").containsPattern("ns\\s+Every\\s+1")
                .containsPattern("\\(default\\)\\s+Second\\s+1")
                .contains("7 entities in 2 namespaces and 3 kinds");
        String[] kinds = cli(dir, "kinds", "--export", location.toString());
        assertThat(kinds[0]).as(kinds[2]).isEqualTo("0");
        assertThat(kinds[1]).containsPattern("ns\\s+Every\\s+1");

        String[] got = cli(dir, "entity", "get", "KEY(Every, 'values')", "--export", location.toString());
        assertThat(got[0]).as(got[2]).isEqualTo("0");
        assertThat(got[1]).contains("\"indexed1500\"").contains("héllo 𝔘 wörld");
        String[] missing = cli(dir, "entity", "get", "KEY(Every, 'nope')", "--export", location.toString());
        assertThat(missing[0]).isEqualTo("1");
        assertThat(missing[2]).contains("No entity").contains("in the export").doesNotContain("\tat ");
        String[] none = cli(dir, "export-info", dir.resolve("absent").toString());
        assertThat(none[0]).isEqualTo("1");
        assertThat(none[2]).contains("No export at").doesNotContain("\tat ");
    }

    /**
     * An export is written aside and moved into place whole: one closed unfinished (an exception on the way) leaves
     * nothing, and of two writers of the same export (two joins of one group at once) the first to finish wins, the
     * other's finish fails and leaves nothing of its own. Before, closing wrote the metadata whatever happened, in
     * place: a writer cut short left an export that looked whole.
     */
    @Test
    void anExportIsMovedIntoPlaceWholeOrLeavesNothing() throws Exception {
        Path prefix = dir.resolve("joined");
        Instant time = Instant.parse("2026-11-27T10:00:00.123Z");
        List<Entity> second = source.values().stream().filter(e -> e.getKey().getKind().equals("Second")
                && e.getKey().getNamespace().isEmpty()).toList();
        assertThat(second).isNotEmpty();
        try (ManagedExportWriter cut = ManagedExportWriter.byKind(LocalFileStore.INSTANCE, prefix.toString(), time)) {
            cut.kind("", "Second");
            cut.write(second.get(0));
        }
        assertThat(prefix).isEmptyDirectory();

        ManagedExportWriter first = ManagedExportWriter.byKind(LocalFileStore.INSTANCE, prefix.toString(), time);
        ManagedExportWriter other = ManagedExportWriter.byKind(LocalFileStore.INSTANCE, prefix.toString(), time);
        try (first; other) {
            for (ManagedExportWriter writer : List.of(first, other)) {
                writer.kind("", "Second");
                for (Entity e : second) {
                    writer.write(e);
                }
            }
            other.write(second.get(0)); // what the loser wrote differs
            first.finish();
            assertThatThrownBy(other::finish).isInstanceOf(IOException.class);
        }
        try (Stream<Path> left = Files.list(prefix)) {
            assertThat(left.toList()).containsExactly(first.root());
        }
        Map<Key, Entity> read = read(ManagedExport.open(first.root()));
        assertThat(read).hasSize(second.size()).containsValues(second.toArray(new Entity[0]));
        assertThat(ManagedExport.open(first.root()).parts()).singleElement()
                .satisfies(p -> assertThat(p.entities()).isEqualTo(second.size()));
    }

    @Test
    void keyRangersOwnExportIsLoadedByTheEmulatorsImportExactlyAndReadsBackTheSame() throws Exception {
        Path written;
        try (ManagedExportWriter writer = ManagedExportWriter.create(dir.resolve("ours"))) {
            for (Entity e : source.values()) {
                writer.write(e);
            }
            writer.finish();
            written = writer.root();
        }
        assertThat(read(ManagedExport.open(written))).as("our reader on our writer").isEqualTo(source);

        ConnectionSpec target = SharedEmulator.freshProject("managed-import");
        Path metadata = Path.of(ManagedExport.open(written).metadata());
        EmulatorExports.importInto(target, metadata);
        Datastore imported = SharedEmulator.connect(target);
        Map<Key, Entity> loaded = new HashMap<>();
        for (String ns : List.of("", "ns")) {
            for (String kind : List.of("Every", "Second")) {
                imported.run(Query.newEntityQueryBuilder().setNamespace(ns).setKind(kind).build())
                        .forEachRemaining(e -> loaded.put(e.getKey(), e));
            }
        }
        assertThat(loaded).hasSize(source.size());
        for (Entity e : source.values()) {
            Key source = e.getKey();
            Key key = (source.hasId() ? Key.newBuilder(target.projectId(), source.getKind(), source.getId(), "")
                    : Key.newBuilder(target.projectId(), source.getKind(), source.getName(), ""))
                    .setNamespace(source.getNamespace()).addAncestors(source.getAncestors()).build();
            Entity got = loaded.get(key);
            assertThat(got).as("%s", key).isNotNull();
            Entity expected = e;
            if (e.contains("ref")) { // an import places key values in the importing project, as entities' keys
                Key ref = e.getKey("ref");
                expected = Entity.newBuilder(e).set("ref", Key.newBuilder(target.projectId(), ref.getKind(),
                        ref.getName(), "").setNamespace(ref.getNamespace()).addAncestors(ref.getAncestors()).build())
                        .build();
            }
            assertThat(got.getProperties()).as("%s, index flags included", key).isEqualTo(expected.getProperties());
        }
    }

    @Test
    void theExportTemplateWritesAManagedExportThatTheEmulatorImports() throws Exception {
        Path spec = dir.resolve("backup.json");
        Files.writeString(spec, "{\"template\": \"export\", \"file\": \"" + dir.resolve("backup")
                + "\", \"format\": \"managed\"}");
        String[] run = cli(dir, "run", "--kind", "Every", "--mapper", spec.toString(), "--page-size", "2",
                "--emulator-host", conn.emulatorHost(), "--project", conn.projectId());
        assertThat(run[0]).as(run[1] + run[2]).isEqualTo("0");
        Map<Key, Entity> every = new HashMap<>(source);
        every.keySet().removeIf(k -> !k.getKind().equals("Every") || !k.getNamespace().isEmpty());
        ManagedExport backup = ManagedExport.open(dir.resolve("backup"));
        assertThat(read(backup)).isEqualTo(every);

        ConnectionSpec target = SharedEmulator.freshProject("managed-restore");
        EmulatorExports.importInto(target, Path.of(backup.metadata()));
        List<Entity> loaded = new ArrayList<>();
        SharedEmulator.connect(target).run(Query.newEntityQueryBuilder().setKind("Every").build())
                .forEachRemaining(loaded::add);
        assertThat(loaded).hasSize(every.size());
    }

    /**
     * A prefix folder holds one export per run. Its newest run is read, whatever characters its path holds; a newest
     * run that did not finish (no overall metadata yet) is refused naming the run before, never read in its place.
     */
    @Test
    void aPrefixFoldersNewestRunIsReadAndAnUnfinishedOneIsRefusedNotReplacedByAnOlder() throws Exception {
        Path prefix = dir.resolve("backups [daily] {v1}");
        Files.createDirectories(prefix);
        Path run = export(prefix, null); // export-<nanos>/<time>/...
        ManagedExport opened = ManagedExport.open(run);
        assertThat(read(opened).keySet()).as("a folder whose name holds [ ] { }").isEqualTo(source.keySet());

        // a later run that did not finish: its output begun, its overall metadata not written
        Path unfinished = run.resolve("9999-12-31T23:59:59_999").resolve("all_namespaces").resolve("all_kinds");
        Files.createDirectories(unfinished);
        Files.write(unfinished.resolve("output-0"), new byte[] {1, 2, 3});
        assertThatThrownBy(() -> ManagedExport.open(run)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("9999-12-31T23:59:59_999, has no *.overall_export_metadata file")
                .hasMessageContaining("give its folder: " + Path.of(opened.metadata()).getParent());
    }

    @Test
    void aMissingExportSaysWhatToGive() {
        assertThatThrownBy(() -> ManagedExport.open(dir.resolve("nothing-here")))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining("give the export's folder");
    }
}

package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.ChildCli;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KeyRanger's own export over several kinds is one export, as {@code gcloud datastore export --kinds A,B} is: one
 * folder, one overall metadata listing every kind (laid out as Google lays out an export of chosen kinds), which the
 * emulator's own {@code :import} loads kind by kind and entity by entity as it loads Google's own export of the same
 * kinds, KeyRanger's reader reads as the source holds them, {@code export-info}
 * lists whole and {@code restore --kind} restores each kind of; killed mid-way and resumed, the same single export.
 * Before, each kind was an export of its own below the folder (the newest one all that the readers opened), and a
 * JSON-lines export of several kinds kept only the last kind. The legacy emulator only: the Firestore one has no
 * {@code :export} or {@code :import}.
 */
class ManyKindsManagedExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static InProcessCli.Result ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        return result;
    }

    /** Seeds {@code counts} entities of each kind in {@code namespace}; the first kind's carry App Engine's values. */
    private static void seed(ConnectionSpec conn, String namespace, Map<String, Integer> counts) {
        Datastore datastore = SharedEmulator.connect(conn);
        List<Entity> all = new ArrayList<>();
        boolean rich = true;
        for (Map.Entry<String, Integer> kind : counts.entrySet()) {
            if (rich && namespace.isEmpty()) {
                all.addAll(RichEntities.withAppEngineValues(datastore, kind.getKey(), kind.getValue()));
            } else {
                for (int i = 1; i <= kind.getValue(); i++) {
                    all.add(Entity.newBuilder(datastore.newKeyFactory().setNamespace(namespace)
                            .setKind(kind.getKey()).newKey("k-" + i)).set("i", i).set("kind", kind.getKey()).build());
                }
            }
            rich = false;
        }
        SharedEmulator.putAll(datastore, all);
    }

    /** A kind read raw, its project written as TARGET (so copies in two projects compare). */
    private static Map<String, JsonNode> raw(ConnectionSpec conn, String namespace, String kind) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        String quoted = "\"" + conn.projectId() + "\"";
        for (Map.Entry<String, JsonNode> e : RawEntities.of(conn, namespace, kind).entrySet()) {
            out.put(e.getKey().replace(quoted, "\"TARGET\""),
                    JSON.readTree(JSON.writeValueAsString(e.getValue()).replace(quoted, "\"TARGET\"")));
        }
        return out;
    }

    /** The one export below {@code prefix}: exactly one folder there, and no parts left beside it. */
    private static Path theOneExport(Path prefix) throws Exception {
        List<Path> folders;
        try (Stream<Path> each = Files.list(prefix)) {
            folders = each.toList();
        }
        assertThat(folders).as("one export in %s", prefix).hasSize(1);
        try (Stream<Path> beside = Files.list(prefix.getParent())) {
            assertThat(beside.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".parts-"));
        }
        return folders.get(0);
    }

    /** The export's parts as namespace/kind with their counts, from its one overall metadata file. */
    private static Map<String, Long> listed(Path export) {
        return ManagedExport.open(export).parts().stream().collect(Collectors.toMap(
                p -> p.namespace() + "/" + p.kind(), ManagedExport.Part::entities, (a, b) -> a + b, TreeMap::new));
    }

    /**
     * The export as the source holds it, kind by kind and entity by entity: read by KeyRanger's reader, the source's
     * entities; loaded by the emulator's own {@code :import} into a fresh project, what the import of Google's own
     * export of the same kinds loads (the import places keys as it does: not each as the source holds it). Returns
     * that import, to compare a restore with.
     */
    private ConnectionSpec readsAsTheSource(ConnectionSpec source, Path export, String namespace,
                                            Map<String, Integer> counts) throws Exception {
        Datastore datastore = SharedEmulator.connect(source);
        Map<Key, Entity> read = new HashMap<>();
        ManagedExport.open(export).forEach(source.projectId(), "", e -> read.put(e.getKey(), e));
        Map<Key, Entity> live = new HashMap<>();
        counts.keySet().forEach(kind -> live.putAll(RichEntities.read(datastore, namespace, kind)));
        assertThat(read).isEqualTo(live);

        ConnectionSpec fromOurs = SharedEmulator.freshProject("kinds-import-ours");
        EmulatorExports.importInto(fromOurs, Path.of(ManagedExport.open(export).metadata()));
        ConnectionSpec fromGoogle = SharedEmulator.freshProject("kinds-import-google");
        String kinds = counts.keySet().stream().map(k -> "\"" + k + "\"").collect(Collectors.joining(","));
        Path google = EmulatorExports.export(source, dir,
                "{\"kinds\": [" + kinds + "], \"namespace_ids\": [\"" + namespace + "\"]}");
        Path googles = Path.of(ManagedExport.open(google).metadata());
        assertThat(layout(export)).as("laid out as the emulator lays out its export of the same kinds")
                .isEqualTo(layout(googles.getParent()));
        EmulatorExports.importInto(fromGoogle, googles);
        for (Map.Entry<String, Integer> kind : counts.entrySet()) {
            Map<String, JsonNode> loaded = raw(fromOurs, namespace, kind.getKey());
            assertThat(loaded).as(kind.getKey()).hasSize(kind.getValue());
            assertThat(loaded).as(kind.getKey()).isEqualTo(raw(fromGoogle, namespace, kind.getKey()));
        }
        return fromGoogle;
    }

    /**
     * An export's files, relative to its folder, the folder's own name (which names its overall metadata) written as
     * EXPORT; KeyRanger's record of the export ({@link ExportSnapshot#MANAGED_FILE}) left out.
     */
    private static List<String> layout(Path export) throws Exception {
        String name = export.getFileName().toString();
        try (Stream<Path> files = Files.walk(export)) {
            return files.filter(Files::isRegularFile).map(p -> export.relativize(p).toString().replace(name, "EXPORT"))
                    .filter(f -> !f.equals(ExportSnapshot.MANAGED_FILE)).sorted().toList();
        }
    }

    @Test
    void anExportOfSeveralKindsIsOneExportThatImportExportInfoAndRestoreReadWhole() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("kinds-export");
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("Acct", 30);
        counts.put("Org", 5);
        counts.put("Line Item", 7); // a name Google's folder names cannot hold as it is
        seed(source, "", counts);
        InProcessCli cli = new InProcessCli(dir, source);
        Path prefix = dir.resolve("backups");
        ok(cli.run("run", "--kind", "Acct,Org,Line Item", "--job-id", "three", "--page-size", "4", "--mapper",
                cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + prefix + "\"}")
                        .toString()));

        Path export = theOneExport(prefix);
        assertThat(listed(export)).isEqualTo(Map.of("/Acct", 30L, "/Line Item", 7L, "/Org", 5L));
        ConnectionSpec imported = readsAsTheSource(source, export, "", counts);

        String info = ok(cli.offline("export-info", prefix.toString())).out();
        assertThat(info).containsPattern("\\(default\\)\\s+Acct\\s+30\\n").containsPattern(
                "\\(default\\)\\s+Line Item\\s+7\\n").containsPattern("\\(default\\)\\s+Org\\s+5\\n");

        ConnectionSpec restored = SharedEmulator.freshProject("kinds-restore");
        InProcessCli into = new InProcessCli(dir, restored);
        for (String kind : counts.keySet()) {
            ok(into.run("restore", "--export", prefix.toString(), "--kind", kind));
            assertThat(raw(restored, "", kind)).as(kind).hasSize(counts.get(kind)).isEqualTo(raw(imported, "", kind));
        }
    }

    @Test
    void aKilledExportOfSeveralKindsResumesIntoTheSameSingleExport() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("kinds-killed");
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("Small", 3);
        counts.put("Big", 300);
        counts.put("Last", 4);
        seed(source, "sales", counts);
        InProcessCli cli = new InProcessCli(dir, source);
        Path prefix = dir.resolve("sales-backups");
        Path mapper = cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + prefix + "\"}");
        try (ChildCli child = ChildCli.start(dir, source, List.of("run", "--namespace", "sales", "--kind",
                "Small,Big,Last", "--job-id", "grp", "--page-size", "10", "--workers", "2", "--mapper",
                mapper.toString(), "--hold-after-chunks", "5"))) {
            child.awaitHeld(); // Small is done, Big is half way, Last has not started
            child.kill();
        }
        assertThat(Files.exists(prefix) ? listedAnywhere(prefix) : List.of()).as("nothing whole yet").isEmpty();

        // one kind resumed on its own would end without the group's one export: refused, the group named
        InProcessCli.Result kind = cli.run("run", "--resume", "grp.2-Big");
        assertThat(kind.exitCode()).as(kind.out() + kind.err()).isNotZero();
        assertThat(kind.err()).contains("grp.2-Big is one kind of the group grp: resume grp (run --resume grp)")
                .doesNotContain("\tat ");
        assertThat(Files.exists(prefix) ? listedAnywhere(prefix) : List.of()).isEmpty();

        ok(cli.run("run", "--resume", "grp"));
        Path export = theOneExport(prefix);
        assertThat(listed(export)).isEqualTo(Map.of("sales/Big", 300L, "sales/Last", 4L, "sales/Small", 3L));
        readsAsTheSource(source, export, "sales", counts);
        byte[] first = Files.readAllBytes(Path.of(ManagedExport.open(export).metadata()));

        ok(cli.run("run", "--resume", "grp")); // done: joins nothing again
        assertThat(theOneExport(prefix)).isEqualTo(export);
        assertThat(Files.readAllBytes(Path.of(ManagedExport.open(export).metadata()))).isEqualTo(first);
    }

    /** A group of three kinds in namespace sales, killed with Small done, Big half way and Last not started. */
    private Path killedGroup(ConnectionSpec source, InProcessCli cli, String name) throws Exception {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("Small", 3);
        counts.put("Big", 300);
        counts.put("Last", 4);
        seed(source, "sales", counts);
        Path prefix = dir.resolve(name);
        Path mapper = cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + prefix + "\"}");
        try (ChildCli child = ChildCli.start(dir, source, List.of("run", "--namespace", "sales", "--kind",
                "Small,Big,Last", "--job-id", "grp", "--page-size", "10", "--workers", "2", "--mapper",
                mapper.toString(), "--hold-after-chunks", "5"))) {
            child.awaitHeld();
            child.kill();
        }
        return prefix;
    }

    @Test
    void aJoinThatFailsPartWayLeavesNoExportThatLooksWhole() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("kinds-join-fails");
        InProcessCli cli = new InProcessCli(dir, source);
        Path prefix = killedGroup(source, cli, "broken-backups");
        Path bigParts;
        try (Stream<Path> beside = Files.list(dir)) {
            bigParts = beside.filter(p -> p.getFileName().toString().startsWith("broken-backups.parts-grp.2-"))
                    .findFirst().orElseThrow();
        }
        try (Stream<Path> parts = Files.list(bigParts)) {
            for (Path part : parts.toList()) {
                Files.delete(part); // the join reads Small's parts, then fails on Big's, part-way
            }
        }

        InProcessCli.Result failed = cli.run("run", "--resume", "grp");
        assertThat(failed.exitCode()).as(failed.out() + failed.err()).isNotZero();
        assertThat(failed.out() + failed.err()).contains("is missing");
        assertThat(listedAnywhere(prefix)).as("no export that looks whole").isEmpty();
        try (Stream<Path> left = Files.list(prefix)) {
            assertThat(left.toList()).as("nothing half-written left in " + prefix).isEmpty();
        }
        InProcessCli.Result again = cli.run("run", "--resume", "grp");
        assertThat(again.exitCode()).as("resumed again: " + again.out() + again.err()).isNotZero();
        assertThat(listedAnywhere(prefix)).isEmpty();
    }

    @Test
    void aJoinKilledPartWayIsJoinedWholeOnResume() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("kinds-join-killed");
        InProcessCli cli = new InProcessCli(dir, source);
        Path prefix = killedGroup(source, cli, "killed-backups");
        Datastore datastore = SharedEmulator.connect(source);
        Entity group = datastore.get(datastore.newKeyFactory().setNamespace("").setKind("_KeyRangerJobGroup")
                .newKey("grp"));
        String name = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH_mm_ss_SSS").withZone(ZoneOffset.UTC)
                .format(group.getTimestamp("createdAt").toDate().toInstant());
        // what a join killed part-way leaves: a folder written in place (as before), a temporary folder (as now)
        for (Path half : List.of(prefix.resolve(name), prefix.resolve("." + name + ".killed.tmp"))) {
            Files.createDirectories(half.resolve("namespace_sales/kind_Small"));
            Files.writeString(half.resolve("namespace_sales/kind_Small/output-0"), "half");
            Files.writeString(half.resolve("keyranger-export.json"), "{}");
        }

        ok(cli.run("run", "--resume", "grp"));
        Path export = theOneExport(prefix);
        assertThat(export.getFileName().toString()).isEqualTo(name);
        assertThat(listed(export)).isEqualTo(Map.of("sales/Big", 300L, "sales/Last", 4L, "sales/Small", 3L));
    }

    /** The overall metadata files anywhere below {@code prefix}. */
    private static List<Path> listedAnywhere(Path prefix) throws Exception {
        try (Stream<Path> files = Files.walk(prefix)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".overall_export_metadata")).toList();
        }
    }

    @Test
    void aJsonLinesExportOfSeveralKindsHoldsEveryKind() throws Exception {
        ConnectionSpec source = SharedEmulator.freshProject("kinds-lines");
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("First", 6);
        counts.put("Second", 9);
        seed(source, "plain", counts);
        InProcessCli cli = new InProcessCli(dir, source);
        Path file = dir.resolve("both.jsonl");
        ok(cli.run("run", "--namespace", "plain", "--kind", "First,Second", "--job-id", "lines", "--page-size", "4",
                "--mapper", cli.mapper("{\"template\":\"export\",\"file\":\"" + file + "\"}").toString()));
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(15);
        assertThat(lines.stream().filter(l -> l.contains("\"First\"")).count()).isEqualTo(6);
        assertThat(lines.stream().filter(l -> l.contains("\"Second\"")).count()).isEqualTo(9);
    }
}

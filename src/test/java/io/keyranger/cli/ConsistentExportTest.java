package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.formats.managed.ExportSnapshot;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.PastReads;
import io.keyranger.datastore.ServerType;
import io.keyranger.files.LocalFileStore;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.RawEntities;
import io.keyranger.support.SharedEmulator;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that only reads (an export, a count) reads every page at one moment on the Firestore emulator in Datastore
 * mode: its start, or the time {@code --as-of} gives. Each export is checked entity by entity against the emulator's
 * own answers at the moment the export records: a keys-only query and lookups at that read time.
 */
class ConsistentExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void anExportTakenWhileAnotherClientWritesThroughoutIsOneSnapshot() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "snap");
        Datastore datastore = SharedEmulator.connect(conn);
        int seeded = 600;
        seed(datastore, "Acct", seeded);
        InProcessCli cli = new InProcessCli(dir, conn);
        Path file = dir.resolve("snap.jsonl");

        // another client updates, deletes and adds entities of the kind from before the export until after it
        List<Instant> writes = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            Datastore app = SharedEmulator.connect(conn);
            Random random = new Random(46);
            int next = seeded + 1;
            while (!stop.get()) {
                int op = random.nextInt(4);
                Key key = app.newKeyFactory().setKind("Acct").newKey(1 + random.nextInt(next - 1));
                if (op == 0) {
                    app.delete(key);
                } else if (op == 1) {
                    app.put(Entity.newBuilder(app.newKeyFactory().setKind("Acct").newKey(next++)).set("v", -1)
                            .set("tier", "new").build());
                } else {
                    app.put(Entity.newBuilder(key).set("v", writes.size()).set("tier", "changed").build());
                }
                writes.add(Instant.now());
            }
        }, "application-writer");
        writer.start();
        while (writes.size() < 5) {
            Thread.sleep(5);
        }
        InProcessCli.Result export = ok(cli.run("run", "--kind", "Acct", "--job-id", "snap", "--workers", "1",
                "--shards", "1", "--page-size", "10", "--mapper", cli.mapper("{\"template\":\"export\",\"file\":\""
                        + json(file) + "\"}").toString()));
        Instant exported = Instant.now();
        stop.set(true);
        writer.join();

        ExportSnapshot snapshot = ExportSnapshot.read(LocalFileStore.INSTANCE, file + ExportSnapshot.JSON_LINES_SUFFIX);
        assertThat(snapshot).as(export.err()).isNotNull();
        Instant at = snapshot.readTime();
        assertThat(at).as("the export records the moment it read at").isNotNull();
        long during = writes.stream().filter(t -> t.isAfter(at) && t.isBefore(exported)).count();
        assertThat(during).as("the other client wrote throughout the export").isGreaterThan(20);
        Map<Key, String> past = assertIsTheKindAsOf(datastore, "Acct", at, file);
        assertThat(past).as("the snapshot is not the live kind, which changed since").isNotEqualTo(
                linesByKey(datastore, entitiesNow(datastore, "Acct")));

        InProcessCli.Result info = exportInfo(file.toString());
        assertThat(info.out()).contains("Read as of " + at).contains(past.size() + " entities");
    }

    @Test
    void anExportAsOfATimeBeforeDamageExportsTheKindAsItWasThenAndACountByCountsIt() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "Acct", 200);
        Thread.sleep(5);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(5);
        damage(datastore, "Acct");
        InProcessCli cli = new InProcessCli(dir, conn);
        Path managed = dir.resolve("managed");

        Path file = dir.resolve("t0.jsonl");
        ok(cli.run("run", "--kind", "Acct", "--job-id", "t0", "--as-of", t0.toString(), "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + json(file) + "\"}").toString()));
        Map<Key, String> past = assertIsTheKindAsOf(datastore, "Acct", t0, file);
        assertThat(past).hasSize(200);
        assertThat(exportInfo(file.toString()).out()).contains("Read as of " + t0)
                .contains("200 entities");

        ok(cli.run("run", "--kind", "Acct", "--job-id", "t0-managed", "--as-of", t0.toString(), "--mapper",
                cli.mapper("{\"template\":\"export\",\"format\":\"managed\",\"file\":\"" + json(managed) + "\"}")
                        .toString()));
        InProcessCli.Result info = exportInfo(managed.toString());
        assertThat(info.out()).contains("Read as of " + t0).containsPattern("Acct\\s+200\\n");

        InProcessCli.Result counted = ok(cli.run("run", "--kind", "Acct", "--job-id", "by-tier", "--as-of",
                t0.toString(), "--mapper", cli.mapper("{\"template\":\"count-by\",\"property\":\"tier\"}")
                        .toString()));
        assertThat(counted.out() + counted.err()).as("as of t0 every entity was even or odd, 100 each")
                .containsPattern("even\\D+100\\b").containsPattern("odd\\D+100\\b").doesNotContain("changed");
    }

    @Test
    void aKindDeletedSinceIsFoundPlannedAndReadAsOfATimeAloneOrWithOthers() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-gone");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "A", 200);
        seed(datastore, "B", 200);
        Thread.sleep(5);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(5);
        List<Key> all = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("B").build()).forEachRemaining(all::add);
        datastore.delete(all.toArray(new Key[0]));
        InProcessCli cli = new InProcessCli(dir, conn);

        Path file = dir.resolve("b.jsonl");
        ok(cli.run("run", "--kind", "B", "--job-id", "b", "--as-of", t0.toString(), "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + json(file) + "\"}").toString()));
        assertThat(assertIsTheKindAsOf(datastore, "B", t0, file)).as("all of B as at t0, gone live").hasSize(200);

        InProcessCli.Result counted = ok(cli.run("run", "--kind", "A,B", "--job-id", "ab", "--as-of",
                t0.toString(), "--mapper", cli.mapper("{\"template\":\"count-by\",\"property\":\"tier\"}")
                        .toString()));
        assertThat(counted.out() + counted.err()).as("as of t0 A and B held 100 even and 100 odd each")
                .containsPattern("even\\D+200\\b").containsPattern("odd\\D+200\\b");
    }

    @Test
    void aDryRunAsOfATimeShowsWhatTheMapperWouldDoToTheEntitiesAsTheyWereAndWritesNothing() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "dry");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "Acct", 20);
        Thread.sleep(5);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(5);
        List<Entity> changed = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            changed.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Acct").newKey(i)).set("v", 5000 + i)
                    .set("tier", "changed").build());
        }
        SharedEmulator.putAll(datastore, changed);
        Map<String, JsonNode> before = RawEntities.of(conn, "", "Acct");
        InProcessCli cli = new InProcessCli(dir, conn);

        InProcessCli.Result dry = ok(cli.run("run", "--kind", "Acct", "--dry-run", "--as-of", t0.toString(),
                "--mapper", cli.mapper("{\"template\":\"increment\",\"property\":\"v\",\"amount\":1}").toString()));
        assertThat(dry.err()).contains("as of " + t0);
        assertThat(dry.out()).as("the values at t0 (v = i), not the live ones (5000 + i)")
                .containsPattern("Acct:7\\s+v\\s+7\\s+8\\n").doesNotContain("5007");
        assertThat(RawEntities.of(conn, "", "Acct")).as("a dry run writes nothing").isEqualTo(before);
    }

    @Test
    void aJobThatWritesIsRefusedAsOfATimeWithNothingReadOrWritten() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "asof-w");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "Acct", 30);
        Map<String, JsonNode> before = RawEntities.of(conn, "", "Acct");
        InProcessCli cli = new InProcessCli(dir, conn);
        for (String mapper : List.of("{\"template\":\"increment\",\"property\":\"v\",\"amount\":1}",
                "{\"template\":\"delete\"}")) {
            InProcessCli.Result refused = cli.run("run", "--kind", "Acct", "--as-of", "-1m", "--mapper",
                    cli.mapper(mapper).toString());
            assertThat(refused.exitCode()).as(refused.err()).isNotZero();
            assertThat(refused.err()).contains("the past is read-only").contains("restore --as-of")
                    .doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThat(RawEntities.of(conn, "", "Acct")).as("nothing written").isEqualTo(before);
        assertThat(ok(cli.run("jobs")).out()).as("no job stored").doesNotContain("Acct-");
    }

    @Test
    void noSnapshotReadsLiveAndIsRefusedWhereItMeansNothing() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.FIRESTORE_EMULATOR, "no-snapshot");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "Acct", 30);
        InProcessCli cli = new InProcessCli(dir, conn);
        Path file = dir.resolve("live.jsonl");
        ok(cli.run("run", "--kind", "Acct", "--job-id", "live", "--no-snapshot", "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + json(file) + "\"}").toString()));
        assertThat(Files.readAllLines(file)).hasSize(30);
        ExportSnapshot snapshot = ExportSnapshot.read(LocalFileStore.INSTANCE, file + ExportSnapshot.JSON_LINES_SUFFIX);
        assertThat(snapshot.readTime()).as("read live, as asked, on a server that keeps versions").isNull();
        assertThat(exportInfo(file.toString()).out()).contains("Read live");

        for (String[] args : List.of(
                new String[] {"--no-snapshot", "--as-of", "-1m", "--mapper", cli.mapper("{\"template\":\"count\"}")
                        .toString()},
                new String[] {"--no-snapshot", "--mapper", cli.mapper("{\"template\":\"increment\",\"property\":"
                        + "\"v\",\"amount\":1}").toString()})) {
            List<String> all = new ArrayList<>(List.of("run", "--kind", "Acct"));
            all.addAll(List.of(args));
            InProcessCli.Result refused = cli.run(all.toArray(new String[0]));
            assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(KeyRangerCli.EXIT_USER_ERROR);
            assertThat(refused.err()).contains("--no-snapshot goes with a new job that only reads")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void onTheLegacyEmulatorAnExportReadsLiveAsBeforeAndAsOfIsRefused() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(ServerType.EMULATOR, "asof-legacy");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore, "Acct", 40);
        InProcessCli cli = new InProcessCli(dir, conn);
        Path file = dir.resolve("legacy.jsonl");
        ok(cli.run("run", "--kind", "Acct", "--job-id", "legacy", "--mapper",
                cli.mapper("{\"template\":\"export\",\"file\":\"" + json(file) + "\"}").toString()));
        assertThat(Files.readAllLines(file)).hasSize(40);
        ExportSnapshot snapshot = ExportSnapshot.read(LocalFileStore.INSTANCE, file + ExportSnapshot.JSON_LINES_SUFFIX);
        assertThat(snapshot.readTime()).as("no read time: this emulator keeps no past").isNull();
        assertThat(exportInfo(file.toString()).out()).contains("Read live").contains("40 entities");

        InProcessCli.Result refused = cli.run("run", "--kind", "Acct", "--as-of", "-1m", "--mapper",
                cli.mapper("{\"template\":\"count\"}").toString());
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.err()).contains(ServerType.NO_PAST).doesNotContain("\tat ");
    }

    /**
     * Asserts that the export {@code file} holds exactly the entities of {@code kind} as the emulator itself answers at
     * {@code at}: the keys of a keys-only query, each entity as a lookup returns it. Returns them, as lines by key.
     */
    private static Map<Key, String> assertIsTheKindAsOf(Datastore datastore, String kind, Instant at, Path file)
            throws Exception {
        Datastore past = PastReads.at(datastore, Timestamp.ofTimeSecondsAndNanos(at.getEpochSecond(), at.getNano()));
        List<Key> keys = new ArrayList<>();
        past.run(Query.newKeyQueryBuilder().setKind(kind).build()).forEachRemaining(keys::add);
        Map<Key, String> expected = linesByKey(datastore, past.fetch(keys.toArray(new Key[0])));
        Map<Key, String> exported = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            Entity entity = EntityCodec.decode(JSON.readTree(line), datastore.getOptions().getProjectId(), "");
            assertThat(exported.put(entity.getKey(), line)).as("each entity once").isNull();
        }
        assertThat(exported.keySet()).as("the keys of the kind at the recorded time")
                .containsExactlyInAnyOrderElementsOf(keys);
        assertThat(new TreeMap<>(strings(exported))).as("each entity as it was then")
                .isEqualTo(new TreeMap<>(strings(expected)));
        return expected;
    }

    private static Map<String, String> strings(Map<Key, String> byKey) {
        Map<String, String> out = new HashMap<>();
        byKey.forEach((k, v) -> out.put(k.toString(), v));
        return out;
    }

    private static Map<Key, String> linesByKey(Datastore datastore, List<Entity> entities) {
        Map<Key, String> out = new HashMap<>();
        entities.forEach(e -> out.put(e.getKey(), EntityCodec.encode(e).toString()));
        return out;
    }

    private static List<Entity> entitiesNow(Datastore datastore, String kind) {
        List<Entity> out = new ArrayList<>();
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(out::add);
        return out;
    }

    private static void seed(Datastore datastore, String kind, int count) {
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            seed.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey(i)).set("v", i)
                    .set("tier", i % 2 == 0 ? "even" : "odd").build());
        }
        SharedEmulator.putAll(datastore, seed);
    }

    /** Deletes 50, changes 50 and adds 20 entities of a kind seeded with 200. */
    private static void damage(Datastore datastore, String kind) {
        List<Key> deleted = new ArrayList<>();
        List<Entity> written = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            deleted.add(datastore.newKeyFactory().setKind(kind).newKey(i));
            written.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey(100 + i)).set("v", -i)
                    .set("tier", "changed").build());
        }
        for (int i = 1; i <= 20; i++) {
            written.add(Entity.newBuilder(datastore.newKeyFactory().setKind(kind).newKey(1000 + i)).set("v", 0)
                    .set("tier", "changed").build());
        }
        datastore.delete(deleted.toArray(new Key[0]));
        SharedEmulator.putAll(datastore, written);
    }

    private static String json(Path path) {
        return path.toString().replace("\\", "\\\\");
    }

    /** {@code export-info}, which connects to nothing. */
    private InProcessCli.Result exportInfo(String location) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = KeyRangerCli.execute(new KeyRangerCli.Context(dir, Map.of(), request -> { }), new PrintWriter(out),
                new PrintWriter(err), new String[] {"export-info", location});
        return ok(new InProcessCli.Result(code, out.toString(), err.toString()));
    }

    private static InProcessCli.Result ok(InProcessCli.Result result) {
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        return result;
    }
}

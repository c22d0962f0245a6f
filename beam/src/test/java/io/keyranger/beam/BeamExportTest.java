package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.support.EmulatorExports;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import io.keyranger.support.InProcessCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The export template as a Beam pipeline against the real emulator: its parts and its file go through Beam's
 * FileSystems, exactly once through the cells' ledgers, and the file is the one a local run writes. A managed export
 * written on Flink's local mini-cluster loads through the emulator's own {@code :import} as Google's own export of
 * the same data does; a JSON-lines export whose workers die and whose commit answers are lost holds every entity once;
 * a pipeline killed with SIGKILL and finished by {@code keyranger run --resume} writes the file a local run writes.
 */
class BeamExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int RICH = 500;
    private static final int MIXED = 2_500;

    @TempDir
    Path dir;

    private Path mapper(String name, String json) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    /** Rich entities (every value type, App Engine's meanings, ancestors) and plain mixed ones, in one kind. */
    private static Datastore seeded(String project) {
        Datastore datastore = BeamEmulator.connect(project);
        List<Entity> rich = RichEntities.withAppEngineValues(datastore, "Item", RICH);
        for (int i = 0; i < rich.size(); i += 100) {
            datastore.put(rich.subList(i, Math.min(rich.size(), i + 100)).toArray(new Entity[0]));
        }
        BeamEmulator.seed(datastore, "Item", MIXED);
        return datastore;
    }

    private static Set<Key> keys(Datastore datastore) {
        Set<Key> keys = new HashSet<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Item").build())
                .forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void aManagedExportWrittenOnFlinkLoadsThroughTheEmulatorsImportAsGooglesOwnExportDoes() throws Exception {
        String project = BeamEmulator.freshProject("flink-export");
        Datastore datastore = seeded(project);
        Path ours = dir.resolve("ours");
        BeamEmulator.Run run = BeamEmulator.run(BeamEmulator.pipelineArgsOn("FlinkRunner", project,
                mapper("managed.json", "{\"template\":\"export\",\"file\":\"" + ours + "\",\"format\":\"managed\"}"),
                "flink-export", "--faults=rate=0.05,lost=0.05,seed=7"));
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("Job flink-export: ").contains(" done in ").contains("on FlinkRunner");
        assertThat(Files.exists(dir.resolve("ours.parts-flink-export"))).as("parts removed once joined").isFalse();

        // each entity once in the export, though lost commit answers left parts that no ledger recorded
        List<Key> exported = new ArrayList<>();
        ManagedExport export = ManagedExport.open(ours);
        export.forEach(project, "", e -> exported.add(e.getKey()));
        assertThat(exported).hasSize(RICH + MIXED).doesNotHaveDuplicates();
        assertThat(new HashSet<>(exported)).isEqualTo(keys(datastore));

        ConnectionSpec source = ConnectionSpec.emulator(BeamEmulator.get().hostPort(), project);
        ConnectionSpec fromOurs = ConnectionSpec.emulator(BeamEmulator.get().hostPort(),
                BeamEmulator.freshProject("from-ours"));
        EmulatorExports.importInto(fromOurs, Path.of(export.metadata()));
        ConnectionSpec fromGoogle = ConnectionSpec.emulator(BeamEmulator.get().hostPort(),
                BeamEmulator.freshProject("from-google"));
        EmulatorExports.importInto(fromGoogle, Path.of(ManagedExport.open(EmulatorExports.export(source, dir,
                null)).metadata()));
        Map<String, JsonNode> google = raw(fromGoogle);
        Map<String, JsonNode> loaded = raw(fromOurs);
        assertThat(google).hasSize(RICH + MIXED);
        assertThat(loaded.keySet()).isEqualTo(google.keySet());
        for (String key : google.keySet()) {
            assertThat(loaded.get(key)).as("%s", key).isEqualTo(google.get(key));
        }
    }

    /** A project's Items as the emulator answers them raw, its own project id written TARGET. */
    private static Map<String, JsonNode> raw(ConnectionSpec conn) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        String quoted = "\"" + conn.projectId() + "\"";
        for (Map.Entry<String, JsonNode> e : RawEntities.of(conn, "", "Item").entrySet()) {
            out.put(e.getKey().replace(quoted, "\"TARGET\""),
                    JSON.readTree(JSON.writeValueAsString(e.getValue()).replace(quoted, "\"TARGET\"")));
        }
        return out;
    }

    @Test
    void aJsonLinesExportWhoseWorkersDieAndWhoseAnswersAreLostHoldsEveryEntityOnceAsALocalRunWritesIt()
            throws Exception {
        String project = BeamEmulator.freshProject("beam-export");
        Datastore datastore = seeded(project);
        Path file = dir.resolve("items.jsonl");
        Path mapper = mapper("export.json", "{\"template\":\"export\",\"file\":\"" + file + "\"}");

        // 40 ms a call and a worker that dies after 20 commits (see BeamPipelineTest): the pipeline fails midway
        RangeRun.THROWN.clear();
        BeamEmulator.Run first = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "jsonl",
                "--faults=rate=0.05,lost=0.05,seed=11,latency=40", "--failAfterCommits=20", "--failures=1",
                "--targetParallelism=3"));
        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(1);
        assertThat(first.err()).contains("the pipeline failed");
        assertThat(file).as("no file until every cell is done").doesNotExist();
        try (var parts = Files.list(dir.resolve("items.jsonl.parts-jsonl"))) {
            assertThat(parts.count()).as("parts of the commits made").isPositive();
        }

        BeamEmulator.Run rerun = BeamEmulator.run(BeamEmulator.pipelineArgs(project, mapper, "jsonl",
                "--faults=rate=0.05,lost=0.05,seed=12"));
        assertThat(rerun.exit()).as(rerun.out() + rerun.err()).isZero();
        assertThat(dir.resolve("items.jsonl.parts-jsonl")).as("parts removed once joined").doesNotExist();
        List<Key> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            lines.add(EntityCodec.decode(JSON.readTree(line), project, "").getKey());
        }
        assertThat(lines).hasSize(RICH + MIXED).doesNotHaveDuplicates();
        assertThat(new HashSet<>(lines)).isEqualTo(keys(datastore));

        // a local run of the same export writes the same bytes
        Path local = dir.resolve("local.jsonl");
        String[] exported = cli(project, "run", "--kind", "Item", "--mapper", mapper("local.json",
                "{\"template\":\"export\",\"file\":\"" + local + "\"}").toString(), "--job-id", "local");
        assertThat(exported[0]).as(exported[1] + exported[2]).isEqualTo("0");
        assertThat(Files.readAllBytes(file)).isEqualTo(Files.readAllBytes(local));
    }

    @Test
    void anExportPipelineKilledWithSigkillAndFinishedByRunResumeWritesTheFileALocalRunWrites() throws Exception {
        String project = BeamEmulator.freshProject("export-handed");
        Datastore datastore = BeamEmulator.connect(project);
        BeamEmulator.seed(datastore, "Item", MIXED);
        Path file = dir.resolve("handed.jsonl");
        Path mapper = mapper("handed.json", "{\"template\":\"export\",\"file\":\"" + file + "\"}");
        BeamEmulator.killAfter(datastore, "handed", BeamEmulator.pipelineArgs(project, mapper, "handed"), 300, MIXED,
                dir.resolve("killed.log"));
        assertThat(file).doesNotExist();

        // the parts the pipeline's commits recorded are joined by the local runner with its own
        String[] resumed = cli(project, "run", "--resume", "handed", "--take-over", "--force");
        assertThat(resumed[0]).as(resumed[1] + resumed[2]).isEqualTo("0");
        assertThat(dir.resolve("handed.jsonl.parts-handed")).as("parts removed once joined").doesNotExist();
        Path local = dir.resolve("local.jsonl");
        String[] exported = cli(project, "run", "--kind", "Item", "--mapper", mapper("local.json",
                "{\"template\":\"export\",\"file\":\"" + local + "\"}").toString(), "--job-id", "local");
        assertThat(exported[0]).as(exported[1] + exported[2]).isEqualTo("0");
        assertThat(Files.readAllLines(file)).hasSize(MIXED).doesNotHaveDuplicates();
        assertThat(Files.readAllBytes(file)).isEqualTo(Files.readAllBytes(local));
    }

    /** {@code keyranger ARGS} in this JVM against the emulator's {@code project}: exit code, output, errors. */
    private String[] cli(String project, String... args) {
        InProcessCli.Result r = new InProcessCli(dir, ConnectionSpec.emulator(
                BeamEmulator.get().hostPort(), project)).run(args);
        return new String[] {Integer.toString(r.exitCode()), r.out(), r.err()};
    }
}

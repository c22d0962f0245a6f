package io.keyranger.beam;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.ServerType;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import io.keyranger.support.SharedEmulator;
import java.beans.Introspector;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.testing.CoderProperties;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Beam runner does with its arguments before any pipeline runs: messages, exit codes, template parameters. */
class BeamInputTest {
    @TempDir
    Path dir;

    private String host() {
        return BeamEmulator.get().hostPort();
    }

    @Test
    void badInputIsRefusedWithTheCliMessagesAndExitCode2() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"template\": \"increment\", \"amount\": \"five\"}");
        Path input = Files.writeString(dir.resolve("in.jsonl"), "");
        Path imports = dir.resolve("import.json");
        Files.writeString(imports, "{\"template\": \"import\", \"file\": \"" + input + "\"}");
        Path count = dir.resolve("count.json");
        Files.writeString(count, "{\"template\": \"count\"}");
        String emulator = "--emulatorHost=" + host();

        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + dir.resolve("none.json"),
                "--jobId=j"}, "Mapper file not found");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + bad, "--jobId=j"},
                "property");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + imports, "--jobId=j",
                "--runner=FlinkRunner", "--flinkMaster=flink.example:8081"}, "FlinkRunner's workers do not share");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + count}, "--jobId=ID");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + count, "--jobId=j",
                "--mapperSpec={\"template\":\"count\"}"}, "not both");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + count, "--jobId=bad id"},
                "A job id is");
        assertRefused(new String[] {"--project=p", emulator, "--mapper=" + count, "--jobId=j"}, "--kind=KIND");
        // the DatastoreIO peer runs increments over equality filters only: its query has no CEL
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--pipeline=datastoreio",
                "--mapper=" + count}, "increment template only");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--pipeline=datastoreio",
                "--mapperSpec={\"template\":\"increment\",\"property\":\"n\",\"amount\":1,\"where\":\"n > 1\"}"},
                "a CEL or GQL where");
        assertRefused(new String[] {"--project=p", emulator, "--kind=Item", "--mapper=" + count, "--jobId=j",
                "--nosuchOption=1"}, "nosuchOption");
        // production: a writing mapper needs the project typed again, checked before anything is read
        Path increment = dir.resolve("increment.json");
        Files.writeString(increment, "{\"template\": \"increment\", \"property\": \"n\", \"amount\": 1}");
        assertRefused(new String[] {"--project=prod-project", "--kind=Item", "--mapper=" + increment, "--jobId=j"},
                "pass --confirmProject=prod-project");
    }

    @Test
    void productionWithoutCredentialsSaysHowToGetThem() {
        Assumptions.assumeTrue(System.getenv("GOOGLE_APPLICATION_CREDENTIALS") == null
                && !Files.exists(Path.of(System.getProperty("user.home"), ".config", "gcloud",
                "application_default_credentials.json")), "this machine has credentials");
        assertRefused(new String[] {"--runner=DirectRunner", "--project=p", "--kind=Item",
            "--mapperSpec={\"template\":\"count\"}", "--jobId=j"}, "GOOGLE_APPLICATION_CREDENTIALS");
    }

    private static void assertRefused(String[] args, String message) {
        BeamEmulator.Run run = BeamEmulator.run(args);
        assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.err()).startsWith("keyranger-beam: ").contains(message).doesNotContain("\tat ");
    }

    @Test
    void theFlexTemplatesParametersAreReadIntoTheJob() {
        String[] args = FlexTemplateMain.launchArgs(new String[] {
            "--mapperSpec={\"template\": \"count-by\", \"property\": \"color\"}",
            "--firestoreReadProjectId=data-project", "--firestoreReadDatabaseId=db2",
            "--firestoreReadNamespace=staging", "--kind=Account", "--jobId=nightly-7", "--dryRun=true",
            "--project=launcher-project"});
        PipelineOptionsFactory.register(KeyRangerOptions.class);
        KeyRangerOptions options = PipelineOptionsFactory.fromArgs(args).as(KeyRangerOptions.class);
        BeamRequest request = BeamRequest.from(options);
        assertThat(options.getWaitUntilFinish()).isFalse();
        assertThat(options.getDryRun()).isTrue();
        assertThat(request.connection().projectId()).isEqualTo("data-project");
        assertThat(request.connection().databaseId()).isEqualTo("db2");
        assertThat(request.connection().namespace()).isEqualTo("staging");
        assertThat(request.connection().isLocal()).isFalse();
        assertThat(request.spec().kind()).isEqualTo("Account");
        assertThat(request.spec().jobId()).isEqualTo("nightly-7");
        assertThat(request.spec().namespace()).isEqualTo("staging");
        assertThat(request.spec().mapper().template()).isEqualTo("count-by");
    }

    @Test
    void anEmulatorHostIsAskedWhichEmulatorItIs() {
        PipelineOptionsFactory.register(KeyRangerOptions.class);
        String firestore = SharedEmulator.get(
                ServerType.FIRESTORE_EMULATOR).hostPort();
        BeamRequest onFirestore = BeamRequest.from(PipelineOptionsFactory.fromArgs("--project=p",
                "--emulatorHost=" + firestore, "--kind=Item", "--mapperSpec={\"template\": \"count\"}",
                "--jobId=j").as(KeyRangerOptions.class));
        assertThat(onFirestore.connection().server()).isEqualTo(ServerType.FIRESTORE_EMULATOR);
        assertThat(onFirestore.connection().emulatorHost()).isEqualTo(firestore);
        BeamRequest onLegacy = BeamRequest.from(PipelineOptionsFactory.fromArgs("--project=p",
                "--emulatorHost=" + host(), "--kind=Item", "--mapperSpec={\"template\": \"count\"}",
                "--jobId=j").as(KeyRangerOptions.class));
        assertThat(onLegacy.connection().server()).isEqualTo(ServerType.EMULATOR);
    }

    @Test
    void everyParameterOfTheTemplatesMetadataIsAnOptionOfThePipeline() throws Exception {
        JsonNode metadata = new ObjectMapper().readTree(Path.of("src/main/flex-template/metadata.json").toFile());
        Set<String> options = new HashSet<>();
        for (Method m : KeyRangerOptions.class.getMethods()) {
            if (m.getName().startsWith("get") && m.getParameterCount() == 0) {
                options.add(Introspector.decapitalize(m.getName().substring(3)));
            } else if (m.getName().startsWith("is") && m.getParameterCount() == 0) {
                options.add(Introspector.decapitalize(m.getName().substring(2)));
            }
        }
        Set<String> params = new HashSet<>();
        metadata.get("parameters").forEach(p -> params.add(p.get("name").asText()));
        assertThat(params).contains("mapperSpec", "firestoreReadProjectId", "firestoreReadDatabaseId",
                "firestoreReadNamespace", "kind", "jobId", "dryRun");
        assertThat(options).containsAll(params);
    }

    @Test
    void keyRangesSurviveTheirCoder() throws Exception {
        Key a = Key.newBuilder("p", "Item", 42L).build();
        Key b = Key.newBuilder("p", "Item", "zz-ünïcode-\uD83D\uDE00").build();
        for (KeyRange range : List.of(KeyRange.all(KeyOrder.EMULATOR), KeyRange.of(KeyOrder.PRODUCTION, a, b),
                KeyRange.of(KeyOrder.EMULATOR, null, a), KeyRange.of(KeyOrder.EMULATOR, null, b).advancePast(a))) {
            CoderProperties.coderDecodeEncodeEqual(KeyRangeCoder.of(), range);
            CoderProperties.coderDeterministic(KeyRangeCoder.of(), range, range);
        }
    }
}

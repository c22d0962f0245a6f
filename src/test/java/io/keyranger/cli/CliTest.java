package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StructuredQuery;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.support.SharedEmulator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives the real command line in-process against the real emulator. */
class CliTest {
    private static ConnectionSpec demo;

    @TempDir
    Path config;

    private final List<GuiStarter.StartupRequest> guiOpened = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>(Map.of("PATH", System.getenv().getOrDefault("PATH", "")));

    @BeforeAll
    static void seedDemo() {
        demo = SharedEmulator.freshProject("cli");
        new DemoSeeder(SharedEmulator.connect(demo)).seed(300, ProgressListener.NONE, Cancellation.NEVER);
    }

    private record Result(int exitCode, String out, String err) {
    }

    private Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        KeyRangerCli.Context context = new KeyRangerCli.Context(config, env, guiOpened::add);
        int code = KeyRangerCli.execute(context, new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    private static void assertOneLineErrorWithoutStackTrace(Result result, String expected) {
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains(expected).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(result.err().strip().lines()).hasSize(1);
    }

    @Test
    void printsItsVersion() {
        Result result = run("--version");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).matches("KeyRanger \\S+\\s*");
    }

    @Test
    void counterWithoutASubcommandSaysWhichOnesThereAre() {
        Result result = run("counter");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("counter needs a subcommand: 'counter get NAME' or 'counter inc NAME")
                .contains("Usage: keyranger counter").doesNotContain("Exception");
    }

    @Test
    void noCommandOpensTheGui() {
        Result result = run();
        assertThat(result.exitCode()).isZero();
        assertThat(guiOpened).containsExactly(GuiStarter.StartupRequest.none());
    }

    @Test
    void guiCommandPassesItsConnection() {
        run("gui", "--emulator-host", "127.0.0.1:1234", "--project", "p", "--kind", "Account");
        assertThat(guiOpened).hasSize(1);
        assertThat(guiOpened.get(0).kind()).isEqualTo("Account");
        assertThat(guiOpened.get(0).connection()).isEqualTo(ConnectionSpec.emulator("127.0.0.1:1234", "p"));
    }

    @Test
    void kindsCountsGivesExactCountsAndSaysHow() {
        Result result = run("kinds", "--counts", "--emulator-host", demo.emulatorHost(), "--project", demo.projectId());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out().lines().skip(1).map(line -> line.split("\\s{2,}")).map(cols -> String.join("|", cols)))
                .containsExactly(
                        "(default)|Account|300|keys-only scan (server has no COUNT)",
                        "(default)|Event|50|keys-only scan (server has no COUNT)",
                        "(default)|Org|5|keys-only scan (server has no COUNT)",
                        "staging|Account|50|keys-only scan (server has no COUNT)");
    }

    @Test
    void kindsReadsTheEmulatorFromTheEnvironment() {
        env.put("DATASTORE_EMULATOR_HOST", demo.emulatorHost());
        env.put("DATASTORE_PROJECT_ID", demo.projectId());
        Result result = run("kinds", "--namespace", "staging", "--properties");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("staging      Account").contains(".balance: integer")
                .doesNotContain("Event");
    }

    @Test
    void unreachableHostIsOneLineAndNonZero() {
        Result result = run("kinds", "--counts", "--emulator-host", "127.0.0.1:" + closedPort());
        assertOneLineErrorWithoutStackTrace(result, "Cannot reach a Datastore emulator at 127.0.0.1:");
    }

    @Test
    void unknownKindIsReported() {
        Result result = run("kinds", "--kind", "Acount", "--emulator-host", demo.emulatorHost(), "--project",
                demo.projectId());
        assertOneLineErrorWithoutStackTrace(result, "Kind 'Acount' was not found in any namespace");
    }

    @Test
    void corruptProfilesFileIsReportedAndKept() throws Exception {
        Files.writeString(config.resolve("profiles.json"), "not json at all");
        Result result = run("kinds", "--profile", "prod");
        assertOneLineErrorWithoutStackTrace(result, "profiles.json is not valid JSON");
        try (var files = Files.list(config)) {
            assertThat(files.map(p -> p.getFileName().toString())).anyMatch(n -> n.startsWith("profiles.json.corrupt-"));
        }
    }

    @Test
    void missingCredentialsFileIsReported() {
        Result result = run("kinds", "--project", "some-project", "--credentials", config.resolve("nope.json").toString());
        assertOneLineErrorWithoutStackTrace(result, "Credentials file not found:");
    }

    @Test
    void demoWithAMissingSdkSaysHowToInstallIt() {
        Result result = run("demo", "--headless", "--exit", "--cloud-sdk", config.resolve("no-sdk").toString());
        assertOneLineErrorWithoutStackTrace(result, "gcloud components install cloud-datastore-emulator");
    }

    @Test
    void demoOnATakenPortIsReported() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Result result = run("demo", "--headless", "--exit", "--port", String.valueOf(taken.getLocalPort()));
            assertOneLineErrorWithoutStackTrace(result, "is already in use");
        }
    }

    @Test
    void demoHeadlessExitSeedsPrintsAndStops() {
        Result result = run("demo", "--headless", "--exit", "--entities", "120");
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).containsPattern("Datastore emulator: 127\\.0\\.0\\.1:\\d+")
                .contains("Project: demo-project")
                .containsPattern("\\(default\\)/Account\\s+120");
        String hostPort = result.out().lines().filter(l -> l.startsWith("Datastore emulator: ")).findFirst().orElseThrow()
                .substring("Datastore emulator: ".length());
        Result after = run("kinds", "--emulator-host", hostPort);
        assertThat(after.exitCode()).as("the emulator was stopped").isNotZero();
    }

    @Test
    void previewExactWritesBothPlansAndEveryRangeMatchesAnIndependentCount() throws Exception {
        Path json = config.resolve("plan.json");
        Result result = run("preview", "--kind", "Account", "--shards", "4", "--exact", "--json", json.toString(),
                "--emulator-host", demo.emulatorHost(), "--project", demo.projectId());
        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("BALANCE").contains("scatter").contains("lexicographic");
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        for (String plan : List.of("scatter", "lexicographic")) {
            JsonNode ranges = root.path(plan).path("ranges");
            assertThat(root.path(plan).path("maxOverMean").isNumber()).isTrue();
            assertThat(root.path(plan).path("cv").isNumber()).isTrue();
            long sum = 0;
            for (JsonNode range : ranges) {
                long exact = range.path("exact").asLong();
                assertThat(exact).as("%s range %s", plan, range.path("index")).isEqualTo(independentCount(range));
                sum += exact;
            }
            assertThat(sum).as(plan).isEqualTo(300);
        }
        assertThat(root.path("scatter").path("ranges")).hasSize(4);
        JsonNode first = root.path("scatter").path("ranges").get(1).path("startKey");
        assertThat(first.path("partitionId").path("namespaceId").asText()).isEmpty();
        assertThat(first.path("path").get(0).path("kind").asText()).isEqualTo("Account");
    }

    @Test
    void previewRejectsBadInputWithAClearMessage() {
        assertOneLineErrorWithoutStackTrace(run("preview", "--kind", "Nope", "--emulator-host", demo.emulatorHost(),
                "--project", demo.projectId()), "Kind 'Nope' was not found");
        assertOneLineErrorWithoutStackTrace(run("preview", "--kind", "Account", "--shards", "0", "--emulator-host",
                demo.emulatorHost(), "--project", demo.projectId()), "shard count must be between 1 and");
        assertOneLineErrorWithoutStackTrace(run("preview", "--kind", "Account", "--where", "tier", "--emulator-host",
                demo.emulatorHost(), "--project", demo.projectId()), "'tier' is not a filter");
    }

    /** Counts a range with a hand-built {@code __key__} query from the JSON's REST-form keys. */
    private static long independentCount(JsonNode range) {
        List<StructuredQuery.Filter> filters = new ArrayList<>();
        if (!range.path("startKey").isNull()) {
            filters.add(StructuredQuery.PropertyFilter.ge("__key__", restKey(range.path("startKey"))));
        }
        if (!range.path("endKey").isNull()) {
            filters.add(StructuredQuery.PropertyFilter.lt("__key__", restKey(range.path("endKey"))));
        }
        KeyQuery.Builder query = Query.newKeyQueryBuilder().setKind("Account");
        if (filters.size() == 1) {
            query.setFilter(filters.get(0));
        } else if (filters.size() == 2) {
            query.setFilter(StructuredQuery.CompositeFilter.and(filters.get(0), filters.get(1)));
        }
        long count = 0;
        var results = SharedEmulator.connect(demo).run(query.build());
        while (results.hasNext()) {
            results.next();
            count++;
        }
        return count;
    }

    private static Key restKey(JsonNode json) {
        JsonNode path = json.path("path");
        JsonNode last = path.get(path.size() - 1);
        Key.Builder builder = last.has("name")
                ? Key.newBuilder(demo.projectId(), last.path("kind").asText(), last.path("name").asText(), "")
                : Key.newBuilder(demo.projectId(), last.path("kind").asText(), Long.parseLong(last.path("id").asText()), "");
        for (int i = 0; i < path.size() - 1; i++) {
            JsonNode e = path.get(i);
            builder.addAncestor(e.has("name") ? PathElement.of(e.path("kind").asText(), e.path("name").asText())
                    : PathElement.of(e.path("kind").asText(), Long.parseLong(e.path("id").asText())));
        }
        return builder.build();
    }

    @Test
    void badUsageExitsNonZeroWithUsage() {
        Result result = run("demo", "--entities", "many");
        assertThat(result.exitCode()).isNotZero();
        assertThat(result.err()).contains("Invalid value for option '--entities'");
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

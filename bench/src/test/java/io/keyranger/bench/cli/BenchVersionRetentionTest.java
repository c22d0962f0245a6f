package io.keyranger.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.bench.ModelProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The bench's {@code --version-retention} reaches the model server it starts in a JVM of its own: that child answers
 * the Admin API's database resource (what KeyRanger reads to know how far back it can read) with that retention, or
 * with the model's own hour when it is not given; a bad one, or one for an emulator, is refused in one line.
 */
class BenchVersionRetentionTest {
    @Test
    void theModelChildKeepsVersionsForWhatTheBenchWasGiven() throws Exception {
        Path java = ModelProcess.javaLauncher().orElseThrow();
        assertThat(retentionAnswered(java, "bench", "--server", "model", "--version-retention", "90m"))
                .contains("\"versionRetentionPeriod\": \"5400s\"");
        assertThat(retentionAnswered(java, "bench", "--server", "model"))
                .contains("\"versionRetentionPeriod\": \"3600s\"");
    }

    @Test
    void aBadRetentionOrOneForAnEmulatorIsRefusedInOneLine() {
        Map<String, String[]> refused = Map.of(
                "--version-retention takes a time from 1s to 7d in s, m, h or d (e.g. 1h, 7d), not '8d'.",
                new String[] {"bench", "--server", "model", "--version-retention", "8d"},
                "--version-retention goes with --server model only",
                new String[] {"bench", "--server", "emulator", "--version-retention", "1h"});
        refused.forEach((said, args) -> {
            StringWriter err = new StringWriter();
            int code = BenchMain.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
            assertThat(code).isNotZero();
            assertThat(err.toString().strip()).contains(said).doesNotContain("\n");
        });
    }

    /** What the model child that the bench with {@code args} starts answers of its database resource. */
    private static String retentionAnswered(Path java, String... args) throws Exception {
        CommandLine cli = new CommandLine(new BenchMain());
        BenchCommand bench = (BenchCommand) cli.parseArgs(args).subcommand().commandSpec().userObject();
        try (ModelProcess model = bench.startModel(java)) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://"
                    + model.hostPort() + "/v1/projects/bench/databases/(default)")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            return answer.body();
        }
    }
}

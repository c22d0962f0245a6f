package io.keyranger.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.bench.BackupsBench;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --server model --scenario backups}, small: every step of two interleaved rounds runs and is checked
 * against the server (a digest of every entity after each export and each copy back, the count after each delete), the
 * live and the snapshot export say how they were read, and the table and its JSON give each issue 65 ratio.
 */
class BackupsScenarioTest {
    private static final List<String> STEPS = List.of(BackupsBench.INCREMENT, BackupsBench.EXPORT_LIVE,
            BackupsBench.EXPORT_SNAPSHOT, BackupsBench.EXPORT_LINES, BackupsBench.RESTORE, BackupsBench.IMPORT,
            BackupsBench.RESTORE_UNTIL, "delete (1)", "delete (2)", "delete (3)");

    @TempDir
    Path dir;

    @Test
    void everyStepOfEveryRoundIsCheckedAndTheRatiosArePairedWithinARound() throws Exception {
        Path json = dir.resolve("backups.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new PrintWriter(out), new PrintWriter(err),
                "bench", "--server", "model", "--scenario", "backups", "--shape", "mixed", "--entities", "1500",
                "--workers", "8", "--latency-ms", "2", "--warmup", "0", "--repeat", "2", "--warmup-rounds", "0",
                "--json", json.toString());
        assertThat(code).as(out + "\n" + err).isZero();
        assertThat(out.toString()).doesNotContain("NOT VERIFIED").contains("2 timed rounds, interleaved");
        for (String step : STEPS) {
            assertThat(out.toString().lines().filter(line -> line.matches(Pattern.quote(step) + " +2 .* 2/2")))
                    .as("%s: two runs, both verified%n%s", step, out).hasSize(1);
        }
        assertThat(out.toString()).contains("export snapshot / export live", "restore / increment",
                "import / increment", "restore --until / increment");
        // the exports' own records: the live one read page by page, the snapshot one as of its start
        assertThat(err.toString()).containsPattern("export live .*read live")
                .containsPattern("export snapshot .*read as of 20")
                .contains("read back 1,500 entities").doesNotContain("verified false");

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.path("scenario").asText()).isEqualTo("backups");
        List<JsonNode> results = StreamSupport.stream(root.path("results").spliterator(), false).toList();
        assertThat(results).hasSize(2 * STEPS.size()).allSatisfy(r -> assertThat(r.path("verified").asBoolean())
                .as(r.toString()).isTrue());
        // interleaved: the second round runs the exports (and the copies back) in another order than the first
        assertThat(order(results, 1)).isNotEqualTo(order(results, 2));

        StringWriter replayed = new StringWriter();
        int again = BenchMain.execute(new PrintWriter(replayed), new PrintWriter(new StringWriter()),
                "bench", "--from-json", json.toString());
        assertThat(again).isZero();
        assertThat(replayed.toString()).contains("backups on the production model", "restore --until / increment")
                .contains(BackupsBench.EXPORT_SNAPSHOT);
    }

    @Test
    void theBackupsScenarioRunsOnTheModelOnly() {
        StringWriter err = new StringWriter();
        int refused = BenchMain.execute(new PrintWriter(new StringWriter()), new PrintWriter(err),
                "bench", "--scenario", "backups", "--entities", "100");
        assertThat(refused).isNotZero();
        assertThat(err.toString()).contains("--scenario backups runs with --server model");
    }

    private static List<String> order(List<JsonNode> results, int round) {
        return results.stream().filter(r -> r.path("round").asInt() == round).map(r -> r.path("strategy").asText())
                .toList();
    }
}

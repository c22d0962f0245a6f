package io.keyranger.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.bench.cli.BenchMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A small {@code bench --server model}, as CI's smoke test of the benchmark path (figures come from real runs). */
class ModelBenchSmokeTest {
    @TempDir
    Path dir;

    @Test
    void aSmallModelBenchRunsEveryStrategyAndVerifiesEveryEntity() throws Exception {
        Path json = dir.resolve("bench.json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new PrintWriter(out), new PrintWriter(err),
                "bench", "--server", "model", "--shape", "mixed", "--entities", "3000",
                "--workers", "8", "--latency-ms", "2", "--warmup", "0", "--repeat", "1", "--warmup-rounds", "0",
                "--linear-cap", "1000",
                "--strategies", "linear,fixed,adaptive,oracle", "--json", json.toString());
        assertThat(code).as(err.toString()).isZero();
        JsonNode root = new ObjectMapper().readTree(json.toFile());
        assertThat(root.path("server").asText()).isEqualTo("model");
        assertThat(root.path("results")).hasSize(4).allSatisfy(r -> assertThat(r.path("verified").asBoolean())
                .as(r.toString()).isTrue());
        JsonNode linear = root.path("results").get(0);
        assertThat(linear.path("extrapolated").asBoolean()).isTrue();
        assertThat(linear.path("entitiesRun").asLong()).isEqualTo(1000);
        assertThat(root.path("results").get(2).path("heapPeakKb").asLong()).isGreaterThanOrEqualTo(0);
        assertThat(err.toString()).contains("model: ").contains("at once");
        assertThat(out.toString()).contains("HEAP MiB");
    }

    @Test
    void theFilteredAndGrowingShapesProcessWhatTheyShouldAndSayWhatBecameOfTheNewcomers() throws Exception {
        JsonNode filtered = bench("filtered", "fixed,adaptive,oracle");
        // a tenth of 3,000 entities match: every strategy processed those and left the others alone (verified)
        assertThat(filtered.path("results")).hasSize(3).allSatisfy(r -> {
            assertThat(r.path("verified").asBoolean()).as(r.toString()).isTrue();
            assertThat(r.path("entitiesRun").asLong()).as(r.toString()).isEqualTo(300);
        });
        JsonNode growing = bench("growing", "fixed,adaptive");
        assertThat(growing.path("results")).hasSize(2).allSatisfy(r -> {
            assertThat(r.path("verified").asBoolean()).as(r.toString()).isTrue();
            long added = r.path("newcomersAdded").asLong();
            assertThat(added).as("newcomers written while the job ran").isPositive().isLessThanOrEqualTo(750);
            assertThat(r.path("newcomersProcessed").asLong()).isBetween(0L, added);
            assertThat(r.path("entitiesRun").asLong()).isEqualTo(3000 + r.path("newcomersProcessed").asLong());
        });
    }

    private JsonNode bench(String shape, String strategies) throws Exception {
        Path json = dir.resolve(shape + ".json");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = BenchMain.execute(new PrintWriter(out), new PrintWriter(err),
                "bench", "--server", "model", "--shape", shape, "--entities", "3000",
                "--workers", "8", "--latency-ms", "2", "--warmup", "0", "--repeat", "1", "--warmup-rounds", "0",
                "--strategies", strategies,
                "--json", json.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains(shape + " shape");
        return new ObjectMapper().readTree(json.toFile());
    }
}

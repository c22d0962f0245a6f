package io.keyranger.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A bench run as JSON ({@code --json}) and back ({@code --from-json}). */
public final class BenchJson {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The field that names a sitting's scenario; absent from a strategies sitting's file. */
    public static final String SCENARIO = "scenario";

    /**
     * A sitting read back.
     *
     * @param server   the server it ran on ("emulator" for runs saved before the model existed)
     * @param settings its settings
     * @param rounds   its rounds (for a file saved before rounds were, as many timed rounds as a strategy has rows)
     * @param runs     every run, warm-up rounds' included, in the order they ran
     * @param scenario the bench's --scenario: "strategies" (also for a file saved before there were others) or
     *                 "backups", whose runs are steps
     * @param p99Ms    the model's p99 latency per call as the sitting set it, NaN when the file does not say
     */
    public record Run(String server, BenchRunner.Settings settings, BenchRounds rounds, List<BenchRun> runs,
                      String scenario, double p99Ms) {
        /** The timed runs' results: what medians and ratios are made of. */
        public List<BenchResult> timed() {
            return BenchSummary.timed(runs);
        }

        /**
         * The same runs with the first {@code warmUp} rounds taken as warm-up rounds (a file saved before they were);
         * refused when that leaves no timed round.
         */
        public Run withWarmUpRounds(int warmUp) {
            if (warmUp >= rounds.total()) {
                throw new KeyRangerException("--warmup-rounds " + warmUp + " leaves no timed round: the file holds "
                        + rounds.total() + " round" + (rounds.total() == 1 ? "" : "s") + ".");
            }
            BenchRounds relabelled = new BenchRounds(warmUp, rounds.total() - warmUp, rounds.freshJvm());
            return new Run(server, settings, relabelled, runs.stream()
                    .map(r -> new BenchRun(r.round(), relabelled.isWarmUp(r.round()), r.result())).toList(), scenario,
                    p99Ms);
        }
    }

    private BenchJson() {
    }

    /**
     * The sitting as JSON: its settings and rounds; every run's figures ({@code results}, warm-up rounds' too, each
     * with its round, and its speed against linear's and the oracle's run of the same round); each strategy's median
     * and min-max over its timed runs ({@code medians}); and issue 48's ratios.
     */
    public static ObjectNode write(String server, BenchRunner.Settings s, BenchRounds rounds, List<BenchRun> runs) {
        ObjectNode root = JSON.createObjectNode().put("server", server);
        root.put("shape", s.shape().id()).put("entities", s.entities())
                .put("workers", s.workers()).put("pageSize", s.pageSize()).put("latencyMs", s.latencyMs());
        root.put("rounds", rounds.timed()).put("warmUpRounds", rounds.warmUp()).put("freshJvm", rounds.freshJvm())
                .put("spread", "min-max");
        ArrayNode array = root.putArray("results");
        for (BenchRun run : runs) {
            BenchResult r = run.result();
            ObjectNode row = array.addObject().put("round", run.round()).put("warmUp", run.warmUp())
                    .put("strategy", r.strategy()).put("wallMillis", r.wallMillis())
                    .put("entitiesPerSecond", r.entitiesPerSecond());
            double linear = rate(runs, run.round(), "linear");
            double oracle = rate(runs, run.round(), "oracle");
            if (!Double.isNaN(linear)) {
                row.put("vsLinear", r.entitiesPerSecond() / linear);
            }
            if (!Double.isNaN(oracle)) {
                row.put("vsOracle", r.entitiesPerSecond() / oracle);
            }
            row.put("reads", r.reads()).put("commits", r.commits()).put("maxDepth", r.maxDepth())
                    .put("tailShare", r.tailShare()).put("verified", r.verified())
                    .put("extrapolated", r.extrapolated()).put("entitiesRun", r.entities())
                    .put("heapPeakKb", r.heapPeakKb()).put("heapRetainedKb", r.heapRetainedKb());
            if (r.newcomersAdded() > 0) {
                row.put("newcomersAdded", r.newcomersAdded()).put("newcomersProcessed", r.newcomersProcessed());
            }
            RunCosts c = r.costs();
            row.put("writesBilled", c.writesBilled()).put("undoRecords", c.undoRecords()).put("calls", c.calls())
                    .put("cpuNanos", c.cpuNanos());
            if (c.revert() != null) {
                row.putObject("revert").put("wallMillis", c.revert().wallMillis())
                        .put("writesBilled", c.revert().writesBilled()).put("calls", c.revert().calls())
                        .put("verified", c.revert().verified());
            }
        }
        List<BenchSummary.Medians> medians = BenchSummary.medians(BenchSummary.timed(runs));
        ArrayNode summary = root.putArray("medians");
        for (BenchSummary.Medians m : medians) {
            ObjectNode row = summary.addObject().put("strategy", m.strategy()).put("runs", m.runs());
            spread(row, "wallMillis", m.wallMillis());
            spread(row, "vsLinear", BenchSummary.paired(runs, m.strategy(), "linear"));
            spread(row, "vsOracle", BenchSummary.paired(runs, m.strategy(), "oracle"));
            spread(row, "entitiesPerSecond", m.entitiesPerSec());
            spread(row, "writesBilled", m.writesBilled());
            spread(row, "undoRecords", m.undoRecords());
            spread(row, "calls", m.calls());
            spread(row, "cpuMillisPerEntity", m.cpuMsPerEntity());
            if (m.reverts() > 0) {
                spread(row, "revertWallMillis", m.revertWall());
                spread(row, "revertWritesBilled", m.revertWrites());
                spread(row, "revertToJob", m.revertToJob());
                row.put("reverts", m.reverts()).put("revertsVerified", m.revertsVerified());
            }
        }
        ArrayNode ratios = root.putArray("ratios");
        for (BenchSummary.Ratio ratio : BenchSummary.ratios(medians)) {
            ratios.addObject().put("what", ratio.what()).put("measured", ratio.measured())
                    .put("target", ratio.target()).put("atMost", ratio.atMost()).put("met", ratio.met());
        }
        return root;
    }

    private static void spread(ObjectNode row, String name, BenchSummary.Spread spread) {
        if (spread.known()) {
            row.putObject(name).put("median", spread.median()).put("min", spread.min()).put("max", spread.max());
        }
    }

    public static Run read(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            String problem = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.toString();
            throw new KeyRangerException("Cannot read " + file + ": " + problem, e);
        }
        if (root == null || !root.path("results").isArray()) {
            throw new KeyRangerException(file + " is not a bench result: it has no \"results\" array.");
        }
        BenchRunner.Settings settings = new BenchRunner.Settings(BenchShape.of(root.path("shape").asText("mixed")),
                root.path("entities").asInt(), root.path("workers").asInt(), root.path("pageSize").asInt(),
                root.path("latencyMs").asInt(), 0, 0, 0);
        List<BenchRun> runs = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (JsonNode r : root.path("results")) {
            // a file saved before rounds were: a strategy's k-th row ran in round k, as --repeat ran them
            int round = r.has("round") ? r.path("round").asInt()
                    : seen.merge(r.path("strategy").asText(), 1, Integer::sum);
            runs.add(new BenchRun(round, r.path("warmUp").asBoolean(), new BenchResult(r.path("strategy").asText(),
                    r.path("entitiesRun").asLong(),
                    r.path("wallMillis").asLong(), r.path("entitiesPerSecond").asDouble(), r.path("reads").asLong(),
                    r.path("commits").asLong(), r.path("maxDepth").asInt(), r.path("tailShare").asDouble(),
                    r.path("verified").asBoolean(), r.path("extrapolated").asBoolean(),
                    r.path("heapPeakKb").asLong(-1), r.path("heapRetainedKb").asLong(-1),
                    r.path("newcomersAdded").asLong(), r.path("newcomersProcessed").asLong(), costs(r))));
        }
        int warmUp = root.path("warmUpRounds").asInt(0);
        int total = runs.stream().mapToInt(BenchRun::round).max().orElse(warmUp + 1);
        BenchRounds rounds = new BenchRounds(warmUp, Math.max(1, total - warmUp), root.path("freshJvm").asBoolean());
        return new Run(root.path("server").asText("emulator"), settings, rounds, runs,
                root.path(SCENARIO).asText("strategies"), root.path("p99Ms").asDouble(Double.NaN));
    }

    /** A saved row's costs ({@link RunCosts#NONE} for runs saved before they were measured). */
    private static RunCosts costs(JsonNode r) {
        JsonNode revert = r.path("revert");
        return new RunCosts(r.path("writesBilled").asLong(-1), r.path("undoRecords").asLong(-1),
                r.path("calls").asLong(-1), r.path("cpuNanos").asLong(-1), revert.isObject()
                ? new RunCosts.Revert(revert.path("wallMillis").asLong(), revert.path("writesBilled").asLong(),
                revert.path("calls").asLong(), revert.path("verified").asBoolean()) : null);
    }

    /** {@code strategy}'s entities per second in {@code round}, NaN when it did not run there. */
    private static double rate(List<BenchRun> runs, int round, String strategy) {
        return runs.stream().filter(r -> r.round() == round && r.strategy().equals(strategy))
                .mapToDouble(r -> r.result().entitiesPerSecond()).findFirst().orElse(Double.NaN);
    }
}

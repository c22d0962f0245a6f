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
import java.util.List;

/** A bench run as JSON ({@code --json}) and back ({@code --from-json}). */
public final class BenchJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A run read back.
     *
     * @param server   the server it ran on ("emulator" for runs saved before the model existed)
     * @param settings its settings
     * @param results  one row a strategy
     */
    public record Run(String server, BenchRunner.Settings settings, List<BenchResult> results) {
    }

    private BenchJson() {
    }

    public static ObjectNode write(String server, BenchRunner.Settings s, List<BenchResult> results) {
        ObjectNode root = JSON.createObjectNode().put("server", server);
        root.put("shape", s.shape().id()).put("entities", s.entities())
                .put("workers", s.workers()).put("pageSize", s.pageSize()).put("latencyMs", s.latencyMs());
        double linear = rate(results, "linear");
        double oracle = rate(results, "oracle");
        ArrayNode array = root.putArray("results");
        for (BenchResult r : results) {
            ObjectNode row = array.addObject().put("strategy", r.strategy()).put("wallMillis", r.wallMillis())
                    .put("entitiesPerSecond", r.entitiesPerSecond());
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
        List<BenchSummary.Medians> medians = BenchSummary.medians(results);
        ArrayNode summary = root.putArray("medians");
        for (BenchSummary.Medians m : medians) {
            ObjectNode row = summary.addObject().put("strategy", m.strategy()).put("runs", m.runs());
            spread(row, "wallMillis", m.wallMillis());
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
        List<BenchResult> results = new ArrayList<>();
        for (JsonNode r : root.path("results")) {
            results.add(new BenchResult(r.path("strategy").asText(), r.path("entitiesRun").asLong(),
                    r.path("wallMillis").asLong(), r.path("entitiesPerSecond").asDouble(), r.path("reads").asLong(),
                    r.path("commits").asLong(), r.path("maxDepth").asInt(), r.path("tailShare").asDouble(),
                    r.path("verified").asBoolean(), r.path("extrapolated").asBoolean(),
                    r.path("heapPeakKb").asLong(-1), r.path("heapRetainedKb").asLong(-1),
                    r.path("newcomersAdded").asLong(), r.path("newcomersProcessed").asLong(), costs(r)));
        }
        return new Run(root.path("server").asText("emulator"), settings, results);
    }

    /** A saved row's costs ({@link RunCosts#NONE} for runs saved before they were measured). */
    private static RunCosts costs(JsonNode r) {
        JsonNode revert = r.path("revert");
        return new RunCosts(r.path("writesBilled").asLong(-1), r.path("undoRecords").asLong(-1),
                r.path("calls").asLong(-1), r.path("cpuNanos").asLong(-1), revert.isObject()
                ? new RunCosts.Revert(revert.path("wallMillis").asLong(), revert.path("writesBilled").asLong(),
                revert.path("calls").asLong(), revert.path("verified").asBoolean()) : null);
    }

    private static double rate(List<BenchResult> results, String strategy) {
        return results.stream().filter(r -> r.strategy().equals(strategy))
                .mapToDouble(BenchResult::entitiesPerSecond).findFirst().orElse(Double.NaN);
    }
}

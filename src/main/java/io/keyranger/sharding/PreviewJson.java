package io.keyranger.sharding;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.AtomicFiles;
import io.keyranger.datastore.KeyJson;
import io.keyranger.keys.KeyFormat;
import java.nio.file.Path;

/** A preview as JSON: both plans with their method, balance and ranges (readable and REST-form keys). */
public final class PreviewJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PreviewJson() {
    }

    public static ObjectNode toJson(ShardPreview preview) {
        ObjectNode root = NODES.objectNode();
        root.put("kind", preview.request().kind());
        root.put("namespace", preview.request().namespace());
        root.put("shards", preview.request().shards());
        root.put("oversample", preview.request().oversample());
        root.put("samples", preview.samples());
        root.set("total", NODES.objectNode().put("value", preview.total().total())
                .put("method", preview.total().method().label()));
        ArrayNode notes = root.putArray("notes");
        preview.notes().forEach(notes::add);
        root.set("scatter", plan(preview.scatter()));
        root.set("lexicographic", plan(preview.lexicographic()));
        return root;
    }

    private static ObjectNode plan(ShardPlan plan) {
        ObjectNode node = NODES.objectNode();
        node.put("method", plan.method().label());
        Balance balance = plan.balance();
        node.put("maxOverMean", round(balance.maxOverMean()));
        node.put("cv", round(balance.cv()));
        node.put("balanceFrom", plan.hasExactCounts() ? "exact" : "estimated");
        ArrayNode ranges = node.putArray("ranges");
        for (PlannedRange range : plan.ranges()) {
            ObjectNode r = ranges.addObject();
            r.put("index", range.index());
            var start = range.range().start();
            var end = range.range().end();
            r.put("start", start == null ? null : KeyFormat.format(start));
            r.put("end", end == null ? null : KeyFormat.format(end));
            r.set("startKey", start == null ? NODES.nullNode() : KeyJson.toRest(start));
            r.set("endKey", end == null ? NODES.nullNode() : KeyJson.toRest(end));
            r.put("samples", range.samples());
            r.put("estimated", range.estimated());
            if (range.exact() != null) {
                r.put("exact", range.exact());
            }
        }
        return node;
    }

    private static double round(double value) {
        return Double.isNaN(value) ? value : Math.round(value * 1000) / 1000.0;
    }

    /** Writes the JSON to a temporary file beside {@code target}, then moves it into place. */
    public static void write(ShardPreview preview, Path target) {
        AtomicFiles.writeJson(target, toJson(preview));
    }
}

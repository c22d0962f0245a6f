package io.keyranger.executor.cells;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.executor.range.Checkpoint;
import io.keyranger.executor.range.RangeNode;
import io.keyranger.job.NodeStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.keys.KeyRange;
import java.time.Instant;
import java.util.List;

/** A cell (or, in jobs stored before cells, a range) as its {@code _KeyRangerRange} entity stores it, and back. */
public final class RangeEntities {
    /** The kind of the cells' ledgers (and of ranges stored before cells). */
    public static final String KIND = BookkeepingKinds.PREFIX + "Range";

    private RangeEntities() {
    }

    /** The key of node {@code nodeId} of job {@code jobId}. */
    public static Key key(Datastore datastore, String jobId, String nodeId) {
        return datastore.newKeyFactory().setNamespace("").setKind(KIND).newKey(jobId + ":" + nodeId);
    }

    public static Key storedLastKey(Entity node) {
        return node.isNull("lastKey") ? null : node.getKey("lastKey");
    }

    public static Entity toEntity(Key key, String jobId, RangeNode node) {
        Entity.Builder b = Entity.newBuilder(key)
                .set("jobId", jobId).set("nodeId", node.id).set("depth", node.depth)
                .set("parentId", node.parentId == null ? NullValue.of() : StringValue.of(node.parentId))
                .set("start", keyOrNull(node.range.start())).set("startInclusive", node.range.startInclusive())
                .set("end", keyOrNull(node.range.end())).set("lastKey", keyOrNull(node.lastKey()))
                .set("status", node.status.name()).set("pages", node.checkpoint.pages())
                .set("entities", node.checkpoint.entities()).set("retries", node.retries)
                .set("lastError", node.lastError == null ? NullValue.of()
                        : StringValue.newBuilder(node.lastError).setExcludeFromIndexes(true).build())
                .set("failurePermanent", node.failurePermanent);
        if (!node.problemExamples.isEmpty()) {
            b.set("problems", ListValue.of(node.problemExamples.stream()
                    .<Value<?>>map(p -> StringValue.newBuilder(p).setExcludeFromIndexes(true).build()).toList()));
        }
        if (node.startedAt != null) {
            b.set("startedAt", timestamp(node.startedAt));
        }
        if (node.finishedAt != null) {
            b.set("finishedAt", timestamp(node.finishedAt));
        }
        return b.build();
    }

    public static RangeNode toNode(Entity e, KeyOrder order) {
        Key start = e.isNull("start") ? null : e.getKey("start");
        Key end = e.isNull("end") ? null : e.getKey("end");
        KeyRange range = KeyRange.of(order, start, end);
        if (start != null && !e.getBoolean("startInclusive")) {
            range = KeyRange.of(order, null, end).advancePast(start);
        }
        RangeNode node = new RangeNode(e.getString("nodeId"), e.isNull("parentId") ? null : e.getString("parentId"),
                (int) e.getLong("depth"), range);
        node.checkpoint = Checkpoint.of(e);
        node.status = NodeStatus.valueOf(e.getString("status"));
        node.retries = (int) e.getLong("retries");
        node.lastError = e.isNull("lastError") ? null : e.getString("lastError");
        node.failurePermanent = e.contains("failurePermanent") && e.getBoolean("failurePermanent");
        node.problemExamples = !e.contains("problems") ? List.of()
                : e.<StringValue>getList("problems").stream().map(StringValue::get).toList();
        node.startedAt = e.contains("startedAt") ? e.getTimestamp("startedAt").toDate().toInstant() : null;
        node.finishedAt = e.contains("finishedAt") ? e.getTimestamp("finishedAt").toDate().toInstant() : null;
        return node;
    }

    private static Value<?> keyOrNull(Key key) {
        return key == null ? NullValue.of() : KeyValue.of(key);
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }
}

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

/** A cell's ledger (or a divided cell's part's) as its {@code _KeyRangerRange} entity stores it, and back. */
public final class RangeEntities {
    /** The kind of the cells' ledgers. */
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
        RangeNode.State state = node.state();
        Entity.Builder b = Entity.newBuilder(key)
                .set("jobId", jobId).set("nodeId", node.id()).set("depth", node.depth())
                .set("parentId", node.parentId() == null ? NullValue.of() : StringValue.of(node.parentId()))
                .set("start", keyOrNull(node.range().start())).set("startInclusive", node.range().startInclusive())
                .set("end", keyOrNull(node.range().end())).set("lastKey", keyOrNull(state.checkpoint().lastKey()))
                .set("status", state.status().name()).set("pages", state.checkpoint().pages())
                .set("entities", state.checkpoint().entities()).set("retries", state.retries())
                .set("lastError", state.lastError() == null ? NullValue.of()
                        : StringValue.newBuilder(state.lastError()).setExcludeFromIndexes(true).build())
                .set("failurePermanent", state.failurePermanent());
        if (!state.problemExamples().isEmpty()) {
            b.set("problems", ListValue.of(state.problemExamples().stream()
                    .<Value<?>>map(p -> StringValue.newBuilder(p).setExcludeFromIndexes(true).build()).toList()));
        }
        if (state.startedAt() != null) {
            b.set("startedAt", timestamp(state.startedAt()));
        }
        if (state.finishedAt() != null) {
            b.set("finishedAt", timestamp(state.finishedAt()));
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
        RangeNode.State state = new RangeNode.State(NodeStatus.valueOf(e.getString("status")), Checkpoint.of(e),
                (int) e.getLong("retries"), e.isNull("lastError") ? null : e.getString("lastError"),
                e.getBoolean("failurePermanent"),
                !e.contains("problems") ? List.of()
                        : e.<StringValue>getList("problems").stream().map(StringValue::get).toList(),
                e.contains("startedAt") ? e.getTimestamp("startedAt").toDate().toInstant() : null,
                e.contains("finishedAt") ? e.getTimestamp("finishedAt").toDate().toInstant() : null);
        return new RangeNode(e.getString("nodeId"), e.isNull("parentId") ? null : e.getString("parentId"),
                (int) e.getLong("depth"), range, state);
    }

    private static Value<?> keyOrNull(Key key) {
        return key == null ? NullValue.of() : KeyValue.of(key);
    }

    private static Timestamp timestamp(Instant instant) {
        return Timestamp.ofTimeSecondsAndNanos(instant.getEpochSecond(), instant.getNano());
    }
}

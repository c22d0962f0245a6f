package io.keyranger.executor.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.BookkeepingKinds;
import io.keyranger.job.NodeSnapshot;
import io.keyranger.job.NodeStatus;
import io.keyranger.job.RunRecord;
import io.keyranger.job.RunThroughput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A job's last local run as it ended ({@link RunRecord}), stored in {@code _KeyRangerRun/ID} beside the job: its tree
 * and chart as gzipped JSON in one unindexed blob, written in the transaction that records the run's end and marked
 * with that end, so that a record left by an earlier run (one a Beam run followed) is never taken for the last one.
 */
final class RunRecords {
    static final String KIND = BookkeepingKinds.PREFIX + "Run";
    /** What one entity holds with room to spare (Datastore's limit is 1 MiB); a bigger tree is left out. */
    static final int MAX_BYTES = 900_000;
    /** A range's last error is kept to this many characters: the report has the whole reasons. */
    private static final int ERROR_CHARS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunRecords() {
    }

    static Key key(Datastore datastore, String jobId) {
        return datastore.newKeyFactory().setNamespace("").setKind(KIND).newKey(jobId);
    }

    /** The record of a run that ended at {@code finished}: its tree left out when it does not fit in one entity. */
    static Entity entity(Key key, Instant finished, RunRecord run) {
        byte[] bytes = gzip(json(run.ranges(), run.throughput()));
        boolean whole = bytes.length <= MAX_BYTES;
        if (!whole) {
            bytes = gzip(json(List.of(), run.throughput()));
        }
        return Entity.newBuilder(key).set("finishedAt", Timestamp.ofTimeSecondsAndNanos(finished.getEpochSecond(),
                        finished.getNano()))
                .set("run", BlobValue.newBuilder(Blob.copyFrom(bytes)).setExcludeFromIndexes(true).build())
                .set("rangesLeftOut", !whole).build();
    }

    /** The record of the run that ended at {@code finished}, or null: none kept, or one of another run. */
    static RunRecord read(Datastore datastore, String jobId, Instant finished) {
        if (finished == null) {
            return null;
        }
        Entity stored = datastore.get(key(datastore, jobId));
        if (stored == null || !stored.getTimestamp("finishedAt").toDate().toInstant().equals(finished)) {
            return null;
        }
        return of(jobId, stored);
    }

    /** The run a record holds. */
    static RunRecord of(String jobId, Entity stored) {
        return parse(jobId, gunzip(stored.getBlob("run").toByteArray()));
    }

    private static byte[] json(List<NodeSnapshot> ranges, List<RunThroughput.Point> throughput) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode nodes = root.putArray("ranges");
        for (NodeSnapshot n : ranges) {
            ObjectNode o = nodes.addObject().put("id", n.id()).put("parent", n.parentId()).put("depth", n.depth())
                    .put("start", url(n.start())).put("startInclusive", n.startInclusive()).put("end", url(n.end()))
                    .put("lastKey", url(n.lastKey())).put("status", n.status().name()).put("pages", n.pages())
                    .put("entities", n.entities()).put("subtree", n.subtreeEntities()).put("retries", n.retries());
            if (n.lastError() != null) {
                o.put("error", n.lastError().length() <= ERROR_CHARS ? n.lastError()
                        : n.lastError().substring(0, ERROR_CHARS) + "…");
            }
            if (n.startedAt() != null) {
                o.put("startedAt", n.startedAt().toEpochMilli());
            }
            if (n.finishedAt() != null) {
                o.put("finishedAt", n.finishedAt().toEpochMilli());
            }
        }
        ArrayNode points = root.putArray("throughput");
        throughput.forEach(p -> points.addArray().add(p.seconds()).add(p.rate()));
        try {
            return JSON.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static RunRecord parse(String jobId, byte[] json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<NodeSnapshot> ranges = new ArrayList<>();
        for (JsonNode o : root.path("ranges")) {
            ranges.add(new NodeSnapshot(jobId, o.path("id").asText(), text(o, "parent"), o.path("depth").asInt(),
                    key(o, "start"), o.path("startInclusive").asBoolean(), key(o, "end"), key(o, "lastKey"),
                    NodeStatus.valueOf(o.path("status").asText()), o.path("pages").asLong(),
                    o.path("entities").asLong(), o.path("subtree").asLong(), o.path("retries").asInt(),
                    text(o, "error"), instant(o, "startedAt"), instant(o, "finishedAt")));
        }
        List<RunThroughput.Point> points = new ArrayList<>();
        for (JsonNode p : root.path("throughput")) {
            points.add(new RunThroughput.Point(p.get(0).asDouble(), p.get(1).asDouble()));
        }
        return new RunRecord(ranges, points);
    }

    private static String url(Key key) {
        return key == null ? null : key.toUrlSafe();
    }

    private static Key key(JsonNode o, String field) {
        String url = text(o, field);
        return url == null ? null : Key.fromUrlSafe(url);
    }

    private static String text(JsonNode o, String field) {
        JsonNode value = o.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Instant instant(JsonNode o, String field) {
        JsonNode value = o.get(field);
        return value == null || value.isNull() ? null : Instant.ofEpochMilli(value.asLong());
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] bytes) {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

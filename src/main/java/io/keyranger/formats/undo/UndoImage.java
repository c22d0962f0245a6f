package io.keyranger.formats.undo;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.Value;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.datastore.JsonWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * What a job did to one entity, as read and written inside the commit that changed it: the entity before (null when it
 * did not exist) and after (null when the job deleted it). Stored as one {@code _KeyRangerUndo.JOB} entity: the target
 * key, and an image that holds the whole before state in KeyRanger's lossless codec (types, index flags, embedded
 * entities) and, of the after state, only what changed (the properties set and those removed), deflated.
 *
 * @param target the entity the job changed
 * @param before its state before the job, or null when the job created it
 * @param after  its state after the job, or null when the job deleted it
 */
public record UndoImage(Key target, Entity before, Entity after) {
    static final ObjectMapper JSON = new ObjectMapper();

    public UndoImage {
        Objects.requireNonNull(target, "target");
    }

    /** The undo record of this image, at {@code recordKey} (its target's in the job, {@link UndoRecords}). */
    public Entity toEntity(Key recordKey) {
        return Entity.newBuilder(recordKey)
                .set("target", KeyValue.newBuilder(target).setExcludeFromIndexes(true).build())
                .set("existed", BooleanValue.newBuilder(before != null).setExcludeFromIndexes(true).build())
                .set("deleted", BooleanValue.newBuilder(after == null).setExcludeFromIndexes(true).build())
                .set("image", BlobValue.newBuilder(Blob.copyFrom(deflate(json(json -> {
                    json.writeStartObject();
                    write(json);
                    json.writeEndObject();
                })))).setExcludeFromIndexes(true).build())
                .build();
    }

    /** The image an undo record holds; a damaged one is a {@link KeyRangerException} that names the record. */
    public static UndoImage of(Entity record) {
        Key target = record.getKey("target");
        try {
            return decode(target, JSON.readTree(inflate(record.getBlob("image").toByteArray())));
        } catch (IOException | RuntimeException e) {
            throw new KeyRangerException("The undo record " + record.getKey().getName() + " of " + target
                    + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The target key an undo record names, without decoding its image. */
    public static Key targetOf(Entity record) {
        return record.getKey("target");
    }

    /** The image of {@code target} that {@link #write} wrote as {@code root}. */
    static UndoImage decode(Key target, JsonNode root) {
        Entity before = root.path("before").isNull() ? null : entity(target, root.path("before"));
        Entity after = root.path("deleted").asBoolean() ? null : applied(target, before, root);
        return new UndoImage(target, before, after);
    }

    /**
     * Writes the image's fields into the JSON object {@code json} is in: the whole before state and, of the after
     * state, what changed ({@code set}, then {@code removed}), in that order, as {@link #decode} reads them.
     */
    void write(JsonGenerator json) throws IOException {
        json.writeFieldName("before");
        if (before == null) {
            json.writeNull();
        } else {
            EntityCodec.writeProperties(json, before);
        }
        json.writeBooleanField("deleted", after == null);
        if (after != null) {
            TreeSet<String> names = new TreeSet<>(after.getNames());
            if (before != null) {
                names.addAll(before.getNames());
            }
            List<String> removed = new ArrayList<>();
            json.writeObjectFieldStart("set");
            for (String name : names) {
                Value<?> now = after.contains(name) ? after.getValue(name) : null;
                Value<?> was = before != null && before.contains(name) ? before.getValue(name) : null;
                if (now == null) {
                    removed.add(name);
                } else if (!now.equals(was)) {
                    json.writeFieldName(name);
                    EntityCodec.writeValue(json, now);
                }
            }
            json.writeEndObject();
            json.writeArrayFieldStart("removed");
            for (String name : removed) {
                json.writeString(name);
            }
            json.writeEndArray();
        }
    }

    private static Entity entity(Key target, JsonNode properties) {
        Entity.Builder b = Entity.newBuilder(target);
        properties.fields().forEachRemaining(f -> b.set(f.getKey(), value(target, f.getValue())));
        return b.build();
    }

    private static Entity applied(Key target, Entity before, JsonNode root) {
        Entity.Builder b = before == null ? Entity.newBuilder(target) : Entity.newBuilder(before);
        root.path("removed").forEach(name -> b.remove(name.asText()));
        root.path("set").fields().forEachRemaining(f -> b.set(f.getKey(), value(target, f.getValue())));
        return b.build();
    }

    private static Value<?> value(Key target, JsonNode node) {
        return EntityCodec.decodeValue(node, target.getProjectId(), target.getDatabaseId());
    }

    /**
     * One deflater a thread, reset for each record: making one costs more than compressing a small record. The fastest
     * level: a record is billed as one write whatever its bytes, and deflating a commit's images is CPU on every commit.
     */
    private static final ThreadLocal<Deflater> DEFLATERS = ThreadLocal.withInitial(
            () -> new Deflater(Deflater.BEST_SPEED, true));
    /** One inflater a thread, likewise, for reading records back (a revert reads every record of a job). */
    private static final ThreadLocal<Inflater> INFLATERS = ThreadLocal.withInitial(() -> new Inflater(true));

    /**
     * One buffer a thread for a record's JSON, reused (a commit's record is tens of KiB and would otherwise be built,
     * copied and dropped on every commit), let go when a record made it larger than most records are.
     */
    private static final ThreadLocal<Json> BUFFERS = ThreadLocal.withInitial(Json::new);
    private static final int KEPT_BUFFER_BYTES = 1 << 20;

    /** A record's JSON, in this thread's buffer: good until this thread writes the next one. */
    static final class Json extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }
    }

    /** What {@code writer} writes, as JSON bytes in this thread's buffer ({@link Json}). */
    static Json json(JsonWriter writer) {
        Json buffer = BUFFERS.get();
        if (buffer.bytes().length > KEPT_BUFFER_BYTES) {
            buffer = new Json();
            BUFFERS.set(buffer);
        }
        buffer.reset();
        try (JsonGenerator json = JSON.getFactory().createGenerator(buffer)) {
            writer.write(json);
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory
        }
        return buffer;
    }

    static byte[] deflate(Json json) {
        return deflate(json.bytes(), json.size());
    }

    /** The first {@code length} bytes of {@code json} deflated, as a record keeps it. */
    static byte[] deflate(byte[] json, int length) {
        Deflater deflater = DEFLATERS.get();
        deflater.reset();
        deflater.setInput(json, 0, length);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 2));
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        return out.toByteArray();
    }

    static byte[] inflate(byte[] data) throws IOException {
        Inflater inflater = INFLATERS.get();
        inflater.reset();
        try {
            inflater.setInput(data);
            ByteArrayOutputStream out = new ByteArrayOutputStream(data.length * 4);
            byte[] buffer = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(buffer);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IOException("the image is cut short");
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new IOException("the image is damaged: " + e.getMessage(), e);
        }
    }
}

package io.keyranger.formats.undo;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntitySize;
import io.keyranger.datastore.KeyJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The before-images of one commit of a job that writes each key once, kept together in one undo record: a JSON array
 * of the images ({@link UndoImage}'s form, each with its target's key), deflated once, in one unindexed blob. Its key
 * ({@link UndoRecords#batchKey}) says how many images it holds. A batch that would be over Datastore's entity limit is
 * cut into several, each whole in itself and named by its own first target; an image too large alone is a batch of
 * one over the limit, which its committer leaves unchanged with a reason. A batch is cut too where reverting it would
 * write more than one commit may hold.
 *
 * @param record the record entity
 * @param images the images it holds, in order
 */
public record UndoBatch(Entity record, List<UndoImage> images) {
    private static final String IMAGES = "images";

    /** Whether the record fits Datastore's entity limit. */
    public boolean fits() {
        return EntitySize.bytes(record) <= EntitySize.MAX_BYTES;
    }

    /**
     * The batches that keep {@code images}, under {@code parent} in job {@code jobId}: at most {@code maxImages} each
     * (the server's entity-group limit: reverting one record must fit one transaction) and at most
     * {@code maxRestoreBytes} of {@link #restoreBytes} each (a record compresses, but its revert writes each entity in
     * full: reverting one record must fit one commit), halved again where one would be over the entity limit. Every
     * image is in exactly one, in order; one image is always a batch, whatever its bytes.
     */
    public static List<UndoBatch> of(Key parent, String jobId, List<UndoImage> images, int maxImages,
                                     long maxRestoreBytes) {
        if (!images.isEmpty() && images.size() <= maxImages) {
            // an image's JSON holds its whole before and what its after changed, each value in a form no smaller than
            // the entity's own: three times the batch's JSON bounds what reverting it writes ({@link #restoreBytes}),
            // so a batch well within the bound is one record, its images' sizes never measured one by one
            UndoImage.Json json = write(images);
            if (3L * json.size() <= maxRestoreBytes) {
                UndoBatch whole = new UndoBatch(record(UndoRecords.batchKey(parent, jobId, images.size(),
                        images.get(0).target()), UndoImage.deflate(json)), List.copyOf(images));
                if (whole.fits()) {
                    return List.of(whole);
                }
            }
        }
        List<UndoBatch> batches = new ArrayList<>();
        int step = Math.max(1, maxImages);
        int from = 0;
        long bytes = 0;
        for (int i = 0; i < images.size(); i++) {
            long restore = restoreBytes(images.get(i));
            if (i > from && (i - from == step || bytes + restore > maxRestoreBytes)) {
                cut(parent, jobId, images.subList(from, i), batches);
                from = i;
                bytes = 0;
            }
            bytes += restore;
        }
        if (from < images.size()) {
            cut(parent, jobId, images.subList(from, images.size()), batches);
        }
        return batches;
    }

    /**
     * The bytes reverting {@code image} writes: its before put in full (or its key deleted, for an entity the job
     * made), and the revert's own undo image of it, which holds both states (it compresses, but need not).
     */
    public static long restoreBytes(UndoImage image) {
        long key = EntitySize.keyBytes(image.target());
        long before = image.before() == null ? 0 : EntitySize.bytes(image.before());
        long after = image.after() == null ? 0 : EntitySize.bytes(image.after());
        return Math.max(key, before) + before + after;
    }

    private static void cut(Key parent, String jobId, List<UndoImage> images, List<UndoBatch> into) {
        UndoBatch batch = new UndoBatch(toEntity(UndoRecords.batchKey(parent, jobId, images.size(),
                images.get(0).target()), images), List.copyOf(images));
        if (batch.fits() || images.size() == 1) {
            into.add(batch);
            return;
        }
        int half = images.size() / 2;
        cut(parent, jobId, images.subList(0, half), into);
        cut(parent, jobId, images.subList(half, images.size()), into);
    }

    private static Entity toEntity(Key key, List<UndoImage> images) {
        return record(key, UndoImage.deflate(write(images)));
    }

    /** The images as one JSON array, each with its target's key, in this thread's buffer ({@link UndoImage#json}). */
    private static UndoImage.Json write(List<UndoImage> images) {
        return UndoImage.json(json -> {
            json.writeStartArray();
            for (UndoImage image : images) {
                json.writeStartObject();
                image.write(json);
                json.writeFieldName("target");
                KeyJson.write(json, image.target());
                json.writeEndObject();
            }
            json.writeEndArray();
        });
    }

    /** The images as the JSON a batch of them holds. */
    static byte[] json(List<UndoImage> images) {
        return write(images).toByteArray();
    }

    private static Entity record(Key key, byte[] deflated) {
        return Entity.newBuilder(key)
                .set(IMAGES, BlobValue.newBuilder(Blob.copyFrom(deflated)).setExcludeFromIndexes(true).build())
                .build();
    }

    /**
     * The first {@code n} images {@code record} holds, as a batch of their own (named for its count, under the record's
     * parent), or the record as it is when it holds no more: what a dry run decides when it looks at exactly {@code n}
     * entities.
     */
    public static UndoBatch firstOf(Entity record, int n) {
        List<UndoImage> images = imagesOf(record);
        if (images.size() <= Math.max(1, n)) {
            return new UndoBatch(record, images);
        }
        List<UndoImage> first = images.subList(0, Math.max(1, n));
        Key key = record.getKey();
        return new UndoBatch(toEntity(UndoRecords.batchKey(key.getParent(), UndoRecords.jobOf(key.getKind()),
                first.size(), first.get(0).target()), first), List.copyOf(first));
    }

    /**
     * The images an undo record holds, in either form: a batch's, or the one of a record per target; a damaged record
     * is a {@link KeyRangerException} that names it.
     */
    public static List<UndoImage> imagesOf(Entity record) {
        if (!UndoRecords.isBatch(record.getKey()) || !record.contains(IMAGES)) {
            return List.of(UndoImage.of(record));
        }
        Key key = record.getKey();
        try {
            JsonNode all = UndoImage.JSON.readTree(UndoImage.inflate(record.getBlob(IMAGES).toByteArray()));
            List<UndoImage> images = new ArrayList<>(all.size());
            for (JsonNode one : all) {
                Key target = (Key) KeyJson.fromRest(one.path("target"), key.getProjectId(), key.getDatabaseId());
                images.add(UndoImage.decode(target, one));
            }
            return images;
        } catch (IOException | RuntimeException e) {
            throw new KeyRangerException("The undo record " + key.getName() + " cannot be read: " + e.getMessage(), e);
        }
    }
}

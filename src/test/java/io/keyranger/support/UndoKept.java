package io.keyranger.support;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.executor.cells.CommitBytes;
import io.keyranger.formats.undo.UndoBatch;
import io.keyranger.formats.undo.UndoImage;
import io.keyranger.formats.undo.UndoRecords;
import java.util.ArrayList;
import java.util.List;

/**
 * What a job's undo kind holds, as the emulator answers: its record entities, and the before-images they keep (one per
 * entity the job changed), decoded whatever the records' form (one per target, or a batch per commit).
 */
public final class UndoKept {
    private UndoKept() {
    }

    /**
     * The record entities of job {@code jobId}'s undo kind, looked up by key in pieces the emulator answers (records of
     * large entities come to more than its 4 MiB an answer).
     */
    public static List<Entity> records(Datastore datastore, String jobId) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setNamespace("").setKind(UndoRecords.kind(jobId)).build())
                .forEachRemaining(keys::add);
        return CommitBytes.lookup(keys, datastore::fetch);
    }

    /** Every before-image job {@code jobId}'s undo records keep, record after record. */
    public static List<UndoImage> images(Datastore datastore, String jobId) {
        List<UndoImage> images = new ArrayList<>();
        records(datastore, jobId).forEach(r -> images.addAll(UndoBatch.imagesOf(r)));
        return images;
    }

    /** The targets of those images, one per image kept (a target kept twice is there twice). */
    public static List<Key> targets(Datastore datastore, String jobId) {
        return images(datastore, jobId).stream().map(UndoImage::target).toList();
    }
}

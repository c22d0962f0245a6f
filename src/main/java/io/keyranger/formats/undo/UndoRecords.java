package io.keyranger.formats.undo;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.common.hash.Hashing;
import io.keyranger.datastore.BookkeepingKinds;
import java.nio.charset.StandardCharsets;

/**
 * Where a job's undo records live: kind {@code _KeyRangerUndo.JOB} in the default namespace, one per target and job,
 * named by its target's key. A target in the job's own key space has its record under the ledger of the cell that
 * holds the target: a ledger the commit writes anyway, so it adds no entity group
 * (the emulator's limit of 25). A target elsewhere (a copy's, a revert's) has a record of its own ({@link #rootKey}).
 * Either way a target's record has one key, whichever commit writes it, so a job that writes a key again finds the
 * record of its first write. Being one kind per job, a revert is an ordinary job over that kind, and removing a job's
 * undo data removes one kind.
 * <p>
 * A job that writes each key once, in the commit that covers it ({@code PageMapper.writesEachKeyOnce}), keeps one
 * record per commit instead (a batch, {@link UndoBatch}): under the ledger of the cell of the commit's first key,
 * named {@code b<images>:<its first target's name>} ({@link #batchKey}), so that the name alone says how many
 * entities it takes back ({@link #imagesIn}) and no two batches of a job share one.
 */
public final class UndoRecords {
    /** The prefix of every job's undo kind. */
    public static final String KIND_PREFIX = BookkeepingKinds.PREFIX + "Undo.";
    /** Names longer than this (a target with a very long key) are a digest of the target's key instead. */
    private static final int MAX_NAME = 1_000;
    /** What a batch's name starts with; a target's own record name never does (it starts with a digit or "sha256:"). */
    private static final String BATCH = "b";

    private UndoRecords() {
    }

    /** The kind that holds job {@code jobId}'s undo records. */
    public static String kind(String jobId) {
        return KIND_PREFIX + jobId;
    }

    /** The job whose undo records a kind holds, or null for any other kind. */
    public static String jobOf(String kind) {
        return kind.startsWith(KIND_PREFIX) ? kind.substring(KIND_PREFIX.length()) : null;
    }

    /**
     * A name that only {@code target} has: each part of the key length-prefixed, so no two keys share one. Not the
     * key's url-safe form (protobuf text, URL-encoded), which took a fifth of a writing job's CPU.
     */
    static String nameOf(Key target) {
        StringBuilder b = new StringBuilder(64);
        part(b, target.getProjectId());
        part(b, target.getDatabaseId());
        part(b, target.getNamespace());
        for (PathElement e : target.getAncestors()) {
            element(b, e.getKind(), e.hasId() ? e.getId() : null, e.getName());
        }
        element(b, target.getKind(), target.hasId() ? target.getId() : null, target.getName());
        return b.toString();
    }

    private static void element(StringBuilder b, String kind, Long id, String name) {
        part(b, kind);
        if (id != null) {
            b.append('#').append(id).append(';');
        } else {
            part(b, name);
        }
    }

    private static void part(StringBuilder b, String s) {
        String v = s == null ? "" : s;
        b.append(v.length()).append(':').append(v);
    }

    /** The key of {@code target}'s undo record in job {@code jobId}, under {@code parent}. */
    public static Key key(Key parent, String jobId, Key target) {
        return under(parent, jobId, recordName(target));
    }

    /** The key of a batch of {@code images} before-images in job {@code jobId}, the first of {@code first}, under {@code parent}. */
    public static Key batchKey(Key parent, String jobId, int images, Key first) {
        return under(parent, jobId, BATCH + images + ":" + recordName(first));
    }

    /**
     * How many entities the record at {@code recordKey} takes back, from its name alone: a batch's count, 1 for a
     * record of one target (whose name starts with a digit, a length, or "sha256:").
     */
    public static int imagesIn(Key recordKey) {
        String name = recordKey.getName();
        if (name == null || !name.startsWith(BATCH)) {
            return 1;
        }
        int colon = name.indexOf(':');
        try {
            return Math.max(1, Integer.parseInt(name.substring(BATCH.length(), colon)));
        } catch (RuntimeException e) {
            return 1; // not a batch's name after all
        }
    }

    /** Whether the record at {@code recordKey} is a batch ({@link UndoBatch}). */
    public static boolean isBatch(Key recordKey) {
        return recordKey.getName() != null && recordKey.getName().startsWith(BATCH);
    }

    private static Key under(Key parent, String jobId, String name) {
        return Key.newBuilder(parent.getProjectId(), kind(jobId), name, parent.getDatabaseId())
                .setNamespace(parent.getNamespace()).addAncestors(parent.getAncestors())
                .addAncestor(parent.hasId() ? PathElement.of(parent.getKind(), parent.getId())
                        : PathElement.of(parent.getKind(), parent.getName()))
                .build();
    }

    /**
     * The key of {@code target}'s undo record in job {@code jobId} as an entity group of its own (in the target's
     * database, default namespace): where a job keeps the record of an entity outside its own key space (a copy's
     * target, a revert's entity), which commits of any cell may write, so that all of them find the one record.
     */
    public static Key rootKey(String jobId, Key target) {
        return Key.newBuilder(target.getProjectId(), kind(jobId), recordName(target), target.getDatabaseId())
                .setNamespace("").build();
    }

    private static String recordName(Key target) {
        String name = nameOf(target);
        return name.length() <= MAX_NAME ? name
                : "sha256:" + Hashing.sha256().hashString(name, StandardCharsets.UTF_8);
    }
}

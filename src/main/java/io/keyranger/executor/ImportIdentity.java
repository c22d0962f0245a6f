package io.keyranger.executor;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.StringValue;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What an import or restore was started on, kept on its checkpoint when the job is created: the checkpoint counts
 * entries of that input, so a run under the same id goes on only over the same input and selection, and any other is
 * refused before it writes anything. A checkpoint from before identities were kept has none, and resumes as it did.
 *
 * @param content   a digest of the input's content (what decides which entry is at which place), compared
 * @param selection what the job takes from it (kind, namespace, query, keys, mode), compared
 * @param described where the input was when the job was started (path, size, time), for messages only
 */
record ImportIdentity(String content, String selection, String described) {
    private static final String CONTENT = "inputContent";
    private static final String SELECTION = "inputSelection";
    private static final String DESCRIBED = "inputDescribed";

    /** The identity kept on {@code checkpoint}, or null when it has none (a checkpoint from an older version). */
    static ImportIdentity of(Entity checkpoint) {
        if (checkpoint == null || !checkpoint.contains(CONTENT) || !checkpoint.contains(SELECTION)) {
            return null;
        }
        return new ImportIdentity(checkpoint.getString(CONTENT), checkpoint.getString(SELECTION),
                checkpoint.contains(DESCRIBED) ? checkpoint.getString(DESCRIBED) : "");
    }

    /** The same identity with {@code more} added to its selection (what the job adds: its kind, its mode). */
    ImportIdentity selecting(String more) {
        return new ImportIdentity(content, selection.isEmpty() ? more : selection + ", " + more, described);
    }

    /** Writes this identity on a checkpoint being created (unindexed: a description may be long). */
    Entity.Builder stamp(Entity.Builder checkpoint) {
        return checkpoint.set(CONTENT, unindexed(content)).set(SELECTION, unindexed(selection))
                .set(DESCRIBED, unindexed(described));
    }

    /**
     * Refuses a run of job {@code jobId} on this input when its checkpoint kept another: nothing is written, and the
     * message says what differs and what to do. A checkpoint without an identity is not checked.
     */
    void requireSameAs(Entity checkpoint, String label) {
        ImportIdentity recorded = of(checkpoint);
        if (recorded == null || equals(recorded.content, recorded.selection)) {
            return;
        }
        StringBuilder differs = new StringBuilder();
        if (!recorded.content.equals(content)) {
            differs.append(" It was started on ").append(recorded.described).append("; this run reads ")
                    .append(described).append(", whose content is not the same.");
        }
        if (!recorded.selection.equals(selection)) {
            differs.append(" It was started with ").append(recorded.selection).append("; this run asks for ")
                    .append(selection).append('.');
        }
        throw new KeyRangerException(label + " was started on other input, and its checkpoint counts the entries of "
                + "that input: going on over this one would skip or repeat entities." + differs + " Nothing was "
                + "written. Run this under a new --job-id, or run it with its original input and selection to "
                + "resume it.");
    }

    private boolean equals(String otherContent, String otherSelection) {
        return content.equals(otherContent) && selection.equals(otherSelection);
    }

    private static StringValue unindexed(String value) {
        return StringValue.newBuilder(value).setExcludeFromIndexes(true).build();
    }

    /** A new SHA-256 digest. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** The hex of a digest. */
    static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Adds a whole file to {@code digest}. */
    static void digestFile(MessageDigest digest, Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** A file's path, size and modification time, as a message names it. */
    static String describe(Path file) {
        try {
            return file.toAbsolutePath() + String.format(" (%,d bytes, modified %s)", Files.size(file),
                    Files.getLastModifiedTime(file).toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        } catch (IOException e) {
            return file.toAbsolutePath().toString();
        }
    }
}

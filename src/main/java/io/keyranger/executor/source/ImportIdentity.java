package io.keyranger.executor.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import io.keyranger.job.JobInput;
import io.keyranger.mapper.MapperSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;

/**
 * What an import or restore was started on, kept in its job's spec when the job is created: its cells' ledgers record
 * positions in that input, so a run under the same id goes on only over the same input and selection, and any other is
 * refused before it writes anything.
 *
 * @param content   a digest of the input's content (what decides which entry is at which place), compared
 * @param selection what the job takes from it (kind, namespace, query, keys, mode), compared
 * @param described where the input was when the job was started (path, size, time), for messages only
 */
public record ImportIdentity(String content, String selection, String described) {
    /** The field of a job's mapper spec that keeps it. */
    static final String FIELD = JobInput.STAMP;
    private static final String CONTENT = "content";
    private static final String SELECTION = "selection";
    private static final String DESCRIBED = "described";

    /** The identity kept in a job's mapper spec, or null when it has none. */
    static ImportIdentity of(JsonNode mapper) {
        JsonNode kept = mapper.path(FIELD);
        if (!kept.hasNonNull(CONTENT) || !kept.hasNonNull(SELECTION)) {
            return null;
        }
        return new ImportIdentity(kept.get(CONTENT).asText(), kept.get(SELECTION).asText(),
                kept.path(DESCRIBED).asText(""));
    }

    /** The same identity with {@code more} added to its selection (what the job adds: its kind, its mode). */
    public ImportIdentity selecting(String more) {
        return new ImportIdentity(content, selection.isEmpty() ? more : selection + ", " + more, described);
    }

    /** Writes this identity into a spec's {@link #FIELD} being created. */
    void stamp(ObjectNode into) {
        into.put(CONTENT, content).put(SELECTION, selection).put(DESCRIBED, described);
    }

    /**
     * Refuses a run of the job whose stored mapper spec is {@code stored} on this input when that spec kept another:
     * nothing is written, and the message says what differs and what to do.
     */
    public void requireSameAs(MapperSpec stored, String label) {
        ImportIdentity recorded = of(stored.json());
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
        throw new KeyRangerException(label + " was started on other input, and its ledgers record places in "
                + "that input: going on over this one would skip or repeat entities." + differs + " Nothing was "
                + "written. Run this under a new --job-id, or run it with its original input and selection to "
                + "resume it.");
    }

    private boolean equals(String otherContent, String otherSelection) {
        return content.equals(otherContent) && selection.equals(otherSelection);
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
    static void digestFile(MessageDigest digest, FileStore store, String file) {
        try (InputStream in = store.open(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** A file's location, size and modification time, as a message names it. */
    static String describe(FileStore store, String file) {
        String where = LocalFileStore.isRemote(file) ? file : Path.of(file).toAbsolutePath().toString();
        try {
            long modified = store.modifiedMillis(file);
            return where + String.format(" (%,d bytes%s)", store.size(file), modified <= 0 ? "" : ", modified "
                    + Instant.ofEpochMilli(modified).truncatedTo(ChronoUnit.SECONDS));
        } catch (IOException e) {
            return where;
        }
    }
}

package io.keyranger.formats.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;

/**
 * What a KeyRanger export records of how it was read, in a small JSON file beside it ({@code export-info} shows it):
 * the moment every page was read at, when the server keeps versions (then the export is one snapshot of the kind,
 * however the application wrote meanwhile, as an export at {@code --snapshot-time} is), or none when the pages were
 * read live, each at its own moment. A managed export keeps it in its folder, where Google's import does not look; a
 * JSON lines export beside its file, named as it is with {@link #JSON_LINES_SUFFIX} added.
 *
 * @param jobId    the export job
 * @param readTime the moment of the snapshot, or null when read live
 */
public record ExportSnapshot(String jobId, Instant readTime) {
    /** The file's name in a managed export's folder (that of its overall metadata file). */
    public static final String MANAGED_FILE = "keyranger_export.json";
    /** What a JSON lines export's file is named with, followed by this. */
    public static final String JSON_LINES_SUFFIX = ".keyranger.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Writes this record to {@code location} in {@code store}, whole or not at all, over the record of an earlier
     * export to the same file (or of a runner that joined the same export before this one).
     */
    public void write(FileStore store, String location) throws IOException {
        ObjectNode node = JSON.createObjectNode().put("jobId", jobId);
        if (readTime == null) {
            node.putNull("readTime");
        } else {
            node.put("readTime", readTime.toString());
        }
        String temp = store.sibling(location, "." + UUID.randomUUID() + ".tmp");
        try (OutputStream out = store.create(temp)) {
            out.write(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node));
        }
        store.moveIntoPlace(temp, location);
    }

    /** The record at {@code location} in {@code store}, or null when there is none (an export not KeyRanger's). */
    public static ExportSnapshot read(FileStore store, String location) {
        try {
            if (!store.exists(location)) {
                return null;
            }
            try (InputStream in = store.open(location)) {
                JsonNode node = JSON.readTree(in);
                JsonNode time = node.path("readTime");
                return new ExportSnapshot(node.path("jobId").asText(null),
                        time.isTextual() ? Instant.parse(time.asText()) : null);
            }
        } catch (IOException | DateTimeParseException e) {
            throw new KeyRangerException("Cannot read the export's record " + location + ": " + e.getMessage(), e);
        }
    }

    /** The record of the managed export whose overall metadata file is {@code metadata}, or null. */
    public static ExportSnapshot ofManaged(FileStore store, String metadata) {
        return read(store, store.resolve(store.parent(metadata), MANAGED_FILE));
    }

    /** What {@code export-info} says of it. */
    public String describe() {
        return readTime == null ? "Read live by job " + jobId + ": each page as it was when read (this server keeps "
                + "no past versions), not one snapshot."
                : "Read as of " + readTime + " by job " + jobId + ": one snapshot, every entity as it was then.";
    }
}

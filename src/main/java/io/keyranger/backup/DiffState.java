package io.keyranger.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.AtomicFiles;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How far a comparison of an export (or of a past moment) with live data got, kept in its key folder
 * ({@code diff-state.json}) after each page, so that a stopped {@code diff} goes on where it stopped: the records
 * compared, the counts so far,
 * and the length of each key list at that point (a list written past it is cut back, so no key is listed twice).
 *
 * @param what         the source (the export and when it was written, or the read time), namespace, kind and
 *                     selection compared ({@link DiffSide#describe}: a resume must compare the same)
 * @param records      the source's records of the selection read so far (the export's, or the past moment's)
 * @param same         equal to live
 * @param changed      changed since the source
 * @param removed      removed since the source
 * @param lookups      lookups made
 * @param compareDone  whether every record was compared (what is left is the pass for added entities)
 * @param changedBytes the length of {@code changed.keys} that these counts cover
 * @param removedBytes the length of {@code removed.keys} that these counts cover
 * @param left         of the changed, those the query matched in the source but not live (they left the selection)
 */
record DiffState(String what, long records, long same, long changed, long removed, long lookups, boolean compareDone,
                 long changedBytes, long removedBytes, long left) {
    static final String FILE = "diff-state.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    static DiffState start(DiffSide source) {
        return new DiffState(source.describe(), 0, 0, 0, 0, 0, false, 0, 0, 0);
    }

    long compared() {
        return same + changed + removed;
    }

    DiffState after(long endRecord, long[] counts, long changedLength, long removedLength) {
        return new DiffState(what, endRecord, same + counts[0], changed + counts[1], removed + counts[2], lookups + 1,
                compareDone, changedLength, removedLength, left + counts[3]);
    }

    DiffState compared(boolean done) {
        return new DiffState(what, records, same, changed, removed, lookups, done, changedBytes, removedBytes, left);
    }

    void write(Path folder) {
        if (folder != null) {
            AtomicFiles.writeString(folder.resolve(FILE), JSON.valueToTree(this).toString());
        }
    }

    /** The state a stopped run left for this comparison; its key lists are cut back to what the state covers. */
    static DiffState read(Path folder, DiffSide source) throws IOException {
        if (folder == null || !Files.isRegularFile(folder.resolve(FILE))) {
            throw new KeyRangerException("Nothing to resume: no " + FILE + " in " + (folder == null
                    ? "the key folder (give --keys-out DIR, as the stopped diff had)" : folder) + ".");
        }
        JsonNode node = JSON.readTree(folder.resolve(FILE).toFile());
        DiffState state = JSON.treeToValue(node, DiffState.class);
        if (!state.what().equals(source.describe())) {
            throw new KeyRangerException("The diff stopped in " + folder + " compared " + state.what()
                    + "; this one compares " + source.describe() + ". Resume with the same options, or use another "
                    + "--keys-out folder.");
        }
        cut(folder.resolve("changed.keys"), state.changedBytes());
        cut(folder.resolve("removed.keys"), state.removedBytes());
        return state;
    }

    private static void cut(Path file, long length) throws IOException {
        if (Files.exists(file)) {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(length);
            }
        }
    }

    /** When the export's metadata file was written: an export written again at the same place is another export. */
    static String written(Path metadata) {
        try {
            return Files.getLastModifiedTime(metadata).toInstant().toString();
        } catch (IOException e) {
            return "unknown";
        }
    }
}

package io.keyranger.executor.source;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntityCodec;
import io.keyranger.files.FileStore;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * An export file as an import reads it: one entity a line, in the codec's JSON. Before an import writes anything the
 * whole file is read once ({@link #check}), so that a bad line is found before the first commit rather than after
 * half the file was applied.
 *
 * @param store    the file system it is read from
 * @param file     the file's location
 * @param project  the project its keys are read into
 * @param database the database its keys are read into
 */
public record ImportFile(FileStore store, String file, String project, String database) implements ImportInput {
    /** The reason a bad line is skipped with, as its counter names it ({@code skipped: REASON}). */
    public static final String BAD_LINE = "not an exported entity";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final int EXAMPLES = 3;

    /**
     * What a check found.
     *
     * @param lines    the lines read
     * @param bad      the lines that are not exported entities
     * @param examples the first few of them, "line N: reason"
     * @param selected the entries the import's selection takes
     * @param warnings what the user should know before it writes (keys asked for that the input lacks)
     * @param digest     the SHA-256 of a file's content as the check read it (hex), or null when not taken
     * @param superseded the byte offsets of the lines whose key a later line names again, in order
     * @param badLines   the line numbers of the first bad lines, by their byte offsets (so a report can name them)
     * @param eachKeyOnce whether no key the job writes is in two of the entries it takes (after the superseded ones)
     */
    public record Check(long lines, long bad, List<String> examples, long selected, List<String> warnings, String digest,
                        List<Long> superseded, Map<Long, Long> badLines, boolean eachKeyOnce) {
        public Check {
            examples = List.copyOf(examples);
            warnings = List.copyOf(warnings);
            superseded = List.copyOf(superseded);
            badLines = Map.copyOf(badLines);
        }
    }

    /** Most bad lines whose numbers a check keeps. */
    static final int NUMBERED_BAD_LINES = 1_000;

    /**
     * Reads every line. With {@code skipBadLines} false, the first bad line is refused by its number, and nothing
     * was written; otherwise the bad lines are counted, with a few examples. A key on more than one line is written
     * as its last line has it, as a file read from top to bottom would leave it: its earlier lines are found here
     * ({@link Check#superseded}), and the job passes over them, whichever worker reaches which line first.
     */
    @Override
    public Check check(boolean skipBadLines, BooleanSupplier cancelled) {
        long line = 0;
        long bad = 0;
        String first = null;
        List<String> examples = new ArrayList<>();
        MessageDigest digest = ImportIdentity.sha256(); // of every byte read: the file's identity
        KeyHashes hashes = new KeyHashes();
        Map<Long, Long> numbered = new HashMap<>();
        try (Lines lines = new Lines(new DigestInputStream(store.open(file), digest), 0)) {
            for (String text = lines.next(); text != null && !cancelled.getAsBoolean(); text = lines.next()) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                try {
                    hashes.add(decode(text).getKey());
                } catch (IOException | RuntimeException e) {
                    bad++;
                    if (numbered.size() < NUMBERED_BAD_LINES) {
                        numbered.put(lines.start(), line);
                    }
                    first = first == null ? "Line " + line + " of " + file + " is not an exported entity: "
                            + firstLine(e) : first;
                    if (examples.size() < EXAMPLES) {
                        examples.add("line " + line + ": " + firstLine(e));
                    }
                }
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the import file " + file + ": " + e.getMessage(), e);
        }
        if (bad > 0 && !skipBadLines) {
            throw new KeyRangerException(first + (bad > 1 ? " (" + bad + " bad lines in all)" : "") + ". Nothing was "
                    + "imported. Fix the file, or import the rest with --skip-bad-lines: each bad line is then "
                    + "skipped and counted.");
        }
        return new Check(line, bad, examples, line - bad, List.of(), ImportIdentity.hex(digest),
                superseded(hashes.repeated()), numbered, true); // a key's earlier lines are passed over
    }

    /** The offsets of the lines whose key a later line has, given the hashes of keys seen more than once. */
    private List<Long> superseded(Set<Long> repeated) {
        if (repeated.isEmpty()) {
            return List.of();
        }
        Map<Key, Long> last = new HashMap<>();
        List<Long> earlier = new ArrayList<>();
        try (Lines lines = new Lines(store.open(file), 0)) {
            for (String text = lines.next(); text != null; text = lines.next()) {
                Key key = keyOrNull(text);
                if (key != null && repeated.contains(KeyHashes.hash(key))) {
                    Long before = last.put(key, lines.start());
                    if (before != null) {
                        earlier.add(before);
                    }
                }
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the import file " + file + ": " + e.getMessage(), e);
        }
        if (earlier.size() > MAX_SUPERSEDED) {
            throw new KeyRangerException(String.format("%,d lines of %s name a key that a later line names again: "
                    + "more than an import keeps track of (%,d). Keep one line per key (the last) and import again. "
                    + "Nothing was imported.", earlier.size(), file, MAX_SUPERSEDED));
        }
        Collections.sort(earlier);
        return earlier;
    }

    /** Most lines whose key a later line names again (their offsets are kept in the job's spec). */
    static final int MAX_SUPERSEDED = 50_000;

    @Override
    public String describe() {
        return "the import file " + file;
    }

    /** The file by the digest of its content, which its check read; the path, size and time only describe it. */
    @Override
    public ImportIdentity identity(Check check) {
        return new ImportIdentity("sha256 " + check.digest(), "", "the file " + ImportIdentity.describe(store, file));
    }

    @Override
    public List<String> files() {
        return List.of(file);
    }

    @Override
    public long size(int index) throws IOException {
        return store.size(file);
    }

    /**
     * The lines that begin at byte {@code from} or after: from a line's start, or from the start of the next line when
     * {@code from} falls inside one.
     */
    @Override
    public Positioned read(int index, long from, boolean skipBadLines) throws IOException {
        long at = Math.max(0, from - 1);
        Lines lines = new Lines(store.open(file, at), at);
        if (from > 0) {
            lines.skipPastNewline(); // the byte before: a line begins at from only after a newline
        }
        return new Positioned() {
            private long offset = -1;

            @Override
            public Entry next() throws IOException {
                for (String text = lines.next(); text != null; text = lines.next()) {
                    if (text.isBlank()) {
                        continue;
                    }
                    offset = lines.start();
                    try {
                        return new Entry(decode(text), false, true);
                    } catch (IOException | RuntimeException e) {
                        if (!skipBadLines) {
                            throw new KeyRangerException("The line at byte " + offset + " of " + file + " is not an "
                                    + "exported entity: " + firstLine(e) + ". It was valid when the import began: was "
                                    + "the file changed meanwhile?");
                        }
                        return Entry.bad(firstLine(e));
                    }
                }
                return null;
            }

            @Override
            public long offset() {
                return offset;
            }

            @Override
            public void close() throws IOException {
                lines.close();
            }
        };
    }

    private Entity decode(String text) throws IOException {
        return EntityCodec.decode(JSON.readTree(text), project, database);
    }

    private Key keyOrNull(String text) {
        try {
            return text.isBlank() ? null : decode(text).getKey();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String firstLine(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
    }

    /**
     * The lines of a file from a byte offset: each cut at '\n' only (a '\r' before it is dropped), read as UTF-8,
     * the check and the workers alike.
     */
    private static final class Lines implements Closeable {
        private final InputStream in;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream(1024);
        private long at;
        private long start = -1;

        Lines(InputStream in, long at) {
            this.in = new BufferedInputStream(in, 1 << 16);
            this.at = at;
        }

        /** The next line, or null at the end of the file. */
        String next() throws IOException {
            line.reset();
            start = at;
            int b;
            boolean any = false;
            while ((b = in.read()) >= 0) {
                any = true;
                at++;
                if (b == '\n') {
                    break;
                }
                line.write(b);
            }
            if (!any) {
                return null;
            }
            String text = line.toString(StandardCharsets.UTF_8);
            return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
        }

        /** Passes over the bytes up to and with the next '\n'. */
        void skipPastNewline() throws IOException {
            int b;
            while ((b = in.read()) >= 0) {
                at++;
                if (b == '\n') {
                    return;
                }
            }
        }

        /** The byte offset the line {@link #next} returned last begins at. */
        long start() {
            return start;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}

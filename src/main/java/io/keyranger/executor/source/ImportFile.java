package io.keyranger.executor.source;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.EntityCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An export file as an import reads it: one entity a line, in the codec's JSON. Before an import writes anything the
 * whole file is read once ({@link #check}), so that a bad line is found before the first commit rather than after
 * half the file was applied.
 *
 * @param file     the file
 * @param project  the project its keys are read into
 * @param database the database its keys are read into
 */
public record ImportFile(Path file, String project, String database) implements ImportInput {
    /** The reason a bad line is skipped with, as its counter names it ({@code skipped: REASON}). */
    public static final String BAD_LINE = "not an exported entity";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EXAMPLES = 3;

    /**
     * What a check found.
     *
     * @param lines    the lines read
     * @param bad      the lines that are not exported entities
     * @param examples the first few of them, "line N: reason"
     * @param selected the entries the import's selection takes
     * @param warnings what the user should know before it writes (keys asked for that the input lacks)
     * @param digest   the SHA-256 of a file's content as the check read it (hex), or null when not taken
     */
    public record Check(long lines, long bad, List<String> examples, long selected, List<String> warnings, String digest) {
        public Check {
            examples = List.copyOf(examples);
            warnings = List.copyOf(warnings);
        }

        Check(long lines, long bad, List<String> examples, String digest) {
            this(lines, bad, examples, lines - bad, List.of(), digest);
        }
    }

    /**
     * Reads every line. With {@code skipBadLines} false, the first bad line is refused by its number, and nothing
     * was written; otherwise the bad lines are counted, with a few examples.
     */
    @Override
    public Check check(boolean skipBadLines, BooleanSupplier cancelled) {
        long line = 0;
        long bad = 0;
        String first = null;
        List<String> examples = new ArrayList<>();
        java.security.MessageDigest digest = ImportIdentity.sha256(); // of every byte read: the file's identity
        try (BufferedReader reader = new BufferedReader(new java.io.InputStreamReader(new java.security
                .DigestInputStream(Files.newInputStream(file), digest), StandardCharsets.UTF_8.newDecoder()))) {
            for (String text = reader.readLine(); text != null && !cancelled.getAsBoolean(); text = reader.readLine()) {
                line++;
                String problem = text.isBlank() ? null : problem(text);
                if (problem != null) {
                    bad++;
                    first = first == null ? "Line " + line + " of " + file + " is not an exported entity: " + problem
                            : first;
                    if (examples.size() < EXAMPLES) {
                        examples.add("line " + line + ": " + problem);
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
        return new Check(line, bad, examples, ImportIdentity.hex(digest));
    }

    @Override
    public String describe() {
        return "the import file " + file;
    }

    /** The file by the digest of its content, which its check read; the path, size and time only describe it. */
    @Override
    public ImportIdentity identity(Check check) {
        return new ImportIdentity("sha256 " + check.digest(), "", "the file " + ImportIdentity.describe(file));
    }

    @Override
    public List<Path> files() {
        return List.of(file);
    }

    /**
     * The lines that begin at byte {@code from} or after: from a line's start, or from the start of the next line when
     * {@code from} falls inside one. A line is cut at '\n' (a '\r' before it is dropped) and read as UTF-8.
     */
    @Override
    public Positioned read(int index, long from, boolean skipBadLines) throws IOException {
        java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file);
        java.io.InputStream in = new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(
                channel.position(Math.max(0, from - 1))), 1 << 16);
        long[] at = {Math.max(0, from - 1)};
        if (from > 0) { // the byte before: a line begins at from only after a newline
            int b;
            while ((b = in.read()) >= 0) {
                at[0]++;
                if (b == '\n') {
                    break;
                }
            }
        }
        return new Positioned() {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream(1024);
            private long offset = -1;

            @Override
            public Entry next() throws IOException {
                while (true) {
                    line.reset();
                    long start = at[0];
                    int b;
                    boolean any = false;
                    while ((b = in.read()) >= 0) {
                        any = true;
                        at[0]++;
                        if (b == '\n') {
                            break;
                        }
                        line.write(b);
                    }
                    if (!any) {
                        return null;
                    }
                    String text = line.toString(StandardCharsets.UTF_8);
                    if (text.endsWith("\r")) {
                        text = text.substring(0, text.length() - 1);
                    }
                    if (text.isBlank()) {
                        continue;
                    }
                    offset = start;
                    try {
                        return new Entry(EntityCodec.decode(JSON.readTree(text), project, database), false, true);
                    } catch (IOException | RuntimeException e) {
                        if (!skipBadLines) {
                            throw new KeyRangerException("The line at byte " + start + " of " + file + " is not an "
                                    + "exported entity: " + firstLine(e) + ". It was valid when the import began: was "
                                    + "the file changed meanwhile?");
                        }
                        return Entry.bad("the line at byte " + start + ": " + firstLine(e));
                    }
                }
            }

            @Override
            public long offset() {
                return offset;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    private String problem(String text) {
        try {
            EntityCodec.decode(JSON.readTree(text), project, database);
            return null;
        } catch (IOException | RuntimeException e) {
            return firstLine(e);
        }
    }

    private static String firstLine(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
    }
}

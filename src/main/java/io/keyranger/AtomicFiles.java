package io.keyranger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Writes files so that a crash never leaves one half-written: a temporary file beside it, then a move. */
public final class AtomicFiles {
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private AtomicFiles() {
    }

    /** Writes {@code value} as indented JSON to {@code target}, atomically where the file system allows. */
    public static void writeJson(Path target, Object value) {
        write(target, temp -> JSON.writeValue(temp.toFile(), value));
    }

    /** Writes {@code text} as UTF-8 to {@code target}, atomically where the file system allows. */
    public static void writeString(Path target, String text) {
        write(target, temp -> Files.writeString(temp, text));
    }

    private interface Writer {
        void write(Path temp) throws IOException;
    }

    private static void write(Path target, Writer writer) {
        try {
            Path dir = target.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
            try {
                writer.write(temp);
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}

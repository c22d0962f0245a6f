package io.keyranger.profile;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.keyranger.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Reads and writes small JSON settings files safely: tolerant reads, writes to a temporary file then an atomic move
 * (a crash never leaves a half-written file), and a corrupt file moved aside instead of being overwritten.
 */
final class JsonFiles {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private JsonFiles() {
    }

    /** The parsed file; an empty default if it does not exist; {@link CorruptFileException} if it cannot be read. */
    static <T> T read(Path file, Class<T> type, T empty) {
        if (!Files.exists(file)) {
            return empty;
        }
        try {
            T value = MAPPER.readValue(file.toFile(), type);
            return value == null ? empty : value;
        } catch (IOException e) {
            Path aside = moveAside(file);
            throw new CorruptFileException(file, aside, e.getMessage() == null ? e.toString() : e.getMessage().lines()
                    .findFirst().orElse(""), e);
        }
    }

    static void write(Path file, Object value) {
        AtomicFiles.writeJson(file, value);
    }

    private static Path moveAside(Path file) {
        Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + LocalDateTime.now().format(STAMP));
        try {
            return Files.move(file, aside);
        } catch (IOException e) {
            return file;
        }
    }
}

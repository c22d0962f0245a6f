package io.keyranger.ui.common;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/** Mapper specs the app proposes, built as JSON objects (never by joining strings). */
public final class Specs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Specs() {
    }

    /** A spec with only its template, to fill in. */
    public static ObjectNode template(String name) {
        return JSON.createObjectNode().put("template", name);
    }

    /** An export of the whole kind to {@code file}. */
    public static ObjectNode exportTo(Path file) {
        return template("export").put("file", file.toString());
    }

    /** Where the app proposes to back a kind up before a destructive job: {@code ~/KIND-backup.jsonl}. */
    public static Path backupFile(String kind) {
        return Path.of(System.getProperty("user.home"), kind + "-backup.jsonl");
    }

    /** The spec as the text the forms show. */
    public static String text(ObjectNode spec) {
        return spec.toString();
    }
}

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

    /**
     * The export the app proposes before a destructive job: a managed export of the kind in {@code ~/KIND-backup},
     * which {@code gcloud datastore import} restores and the Backups tab opens, diffs and restores from.
     */
    public static ObjectNode backup(String kind) {
        return exportTo(backupFolder(kind)).put("format", "managed");
    }

    /** Where {@link #backup} writes: {@code ~/KIND-backup}, a new export in it each time (named by its time). */
    public static Path backupFolder(String kind) {
        return Path.of(System.getProperty("user.home"), kind + "-backup");
    }

    /** The spec as the text the forms show. */
    public static String text(ObjectNode spec) {
        return spec.toString();
    }
}

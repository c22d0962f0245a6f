package io.keyranger.backup.managed;

import com.google.cloud.datastore.Entity;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Writes a managed export that {@code gcloud datastore import} (and the emulator's {@code :import}) loads and
 * {@link ManagedExport} reads: the layout of an unfiltered export (all namespaces, all kinds), its entities streamed
 * into {@code output-0}, and its two metadata files written last, when it is closed, so an export cut short lists
 * nothing and is not mistaken for a whole one.
 */
public final class ManagedExportWriter implements Closeable {
    private static final String PART = "all_namespaces/all_kinds";
    private static final String KIND_METADATA = "all_namespaces_all_kinds.export_metadata";

    private final FileStore store;
    private final String root;
    private final String part;
    private final String name;
    private final LogWriter output;
    private final long startedMicros;
    private long entities;

    private ManagedExportWriter(FileStore store, String root, String name) throws IOException {
        this.store = store;
        this.root = root;
        this.part = store.resolve(store.resolve(root, "all_namespaces"), "all_kinds");
        this.name = name;
        this.output = new LogWriter(store.create(store.resolve(part, "output-0")));
        this.startedMicros = micros(Instant.now());
    }

    /** A new export in a new local folder below {@code prefix} (named by the time, as exports are), to be filled. */
    public static ManagedExportWriter create(Path prefix) {
        return create(LocalFileStore.INSTANCE, prefix.toString());
    }

    /** A new export in a new folder below {@code prefix}, written through {@code store}. */
    public static ManagedExportWriter create(FileStore store, String prefix) {
        String name = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH_mm_ss_SSS").withZone(ZoneOffset.UTC)
                .format(Instant.now());
        String root = store.resolve(prefix, name);
        try {
            if (store.exists(root)) {
                throw new KeyRangerException("The export folder " + root + " exists already.");
            }
            return new ManagedExportWriter(store, root, name);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create the export in " + root + ": " + e.getMessage(), e);
        }
    }

    /** The export's local folder; its metadata file, once closed, is {@code NAME.overall_export_metadata} in it. */
    public Path root() {
        return LocalFileStore.path(root);
    }

    /** The export's folder as its store names it (a local path, or a URI such as gs://...). */
    public String location() {
        return root;
    }

    public void write(Entity entity) throws IOException {
        output.write(EntityProtoWriter.entity(entity));
        entities++;
    }

    public long entities() {
        return entities;
    }

    /** Finishes the output file and writes the metadata that make the export whole. */
    @Override
    public void close() throws IOException {
        output.close();
        long bytes = output.size();
        try (OutputStream kind = store.create(store.resolve(part, KIND_METADATA))) {
            kind.write(EntityProtoWriter.message(out -> {
                out.writeByteArray(1, EntityProtoWriter.message(run -> {
                    run.writeString(1, name);
                    run.writeInt64(2, startedMicros);
                    run.writeInt64(3, micros(Instant.now()));
                }));
                out.writeByteArray(2, EntityProtoWriter.message(file -> {
                    file.writeString(1, "");
                    file.writeString(2, "output-0");
                }));
            }));
        }
        try (LogWriter overall = new LogWriter(store.create(store.resolve(root, name + ".overall_export_metadata")))) {
            overall.write(new byte[] {0x33}); // the header record exports begin with
            overall.write(EntityProtoWriter.message(out -> out.writeByteArray(1, EntityProtoWriter.message(entry -> {
                entry.writeByteArray(1, EntityProtoWriter.message(scope -> {
                    scope.writeInt32(1, 2); // all kinds
                    scope.writeString(2, "");
                    scope.writeInt32(3, 3); // all namespaces
                    scope.writeString(4, "");
                }));
                entry.writeString(2, PART + "/" + KIND_METADATA);
                entry.writeInt64(3, entities);
                entry.writeInt64(4, bytes);
            }))));
        }
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}

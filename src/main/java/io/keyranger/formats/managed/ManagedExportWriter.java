package io.keyranger.formats.managed;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Writes a managed export that {@code gcloud datastore import} (and the emulator's {@code :import}) loads and
 * {@link ManagedExport} reads, in one of Google's two layouts: that of an unfiltered export (all namespaces, all kinds,
 * one part), or that of an export of chosen kinds ({@code --kinds}, {@code --namespaces}), one part a namespace and
 * kind ({@code namespace_NS/kind_K}, or {@code default_namespace/kind_K}), each with its own output file and metadata.
 * The export is written to a temporary folder of its own beside its folder (entities streamed into each part's
 * {@code output-0}), and only {@link #finish} writes the metadata files there and moves that folder into place: a
 * folder at the export's place is always a whole export. Closed unfinished (an exception on the way), the writer
 * removes its temporary folder, and nothing is listed.
 */
public final class ManagedExportWriter implements Closeable {
    private static final String OVERALL = ".overall_export_metadata";
    private static final DateTimeFormatter NAMES = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH_mm_ss_SSS")
            .withZone(ZoneOffset.UTC);

    private final FileStore store;
    private final String root;
    private final String staging;
    private final String name;
    private final boolean byKind;
    private final long startedMicros;
    private final List<Part> parts = new ArrayList<>();
    private Part current;
    private boolean finished;

    /**
     * One part: what it holds (null: all namespaces, or all kinds), its folder's path in the export, and its
     * output file while it is written.
     */
    private static final class Part {
        final String namespace;
        final String kind;
        final String path;
        LogWriter output;
        long entities;
        long bytes;

        Part(String namespace, String kind, String path) {
            this.namespace = namespace;
            this.kind = kind;
            this.path = path;
        }

        String metadataName() {
            return path.replace('/', '_') + ".export_metadata";
        }
    }

    private ManagedExportWriter(FileStore store, String root, String name, boolean byKind) {
        this.store = store;
        this.root = root;
        this.staging = store.resolve(store.parent(root), stagingPrefix(name) + UUID.randomUUID() + ".tmp");
        this.name = name;
        this.byKind = byKind;
        this.startedMicros = micros(Instant.now());
    }

    /** A new unfiltered export in a new local folder below {@code prefix} (named by the time, as exports are). */
    public static ManagedExportWriter create(Path prefix) {
        return create(LocalFileStore.INSTANCE, prefix.toString());
    }

    /** A new unfiltered export (one part: all namespaces, all kinds) in a new folder below {@code prefix}. */
    public static ManagedExportWriter create(FileStore store, String prefix) {
        ManagedExportWriter writer = open(store, prefix, Instant.now(), false);
        try {
            writer.start(new Part(null, null, "all_namespaces/all_kinds"));
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create the export in " + writer.root + ": " + e.getMessage(), e);
        }
        return writer;
    }

    /**
     * A new export of chosen kinds in a new folder below {@code prefix} named by {@code time}: each kind's part is
     * begun by {@link #kind}, and its entities follow.
     */
    public static ManagedExportWriter byKind(FileStore store, String prefix, Instant time) {
        return open(store, prefix, time, true);
    }

    /** The folder below {@code prefix} that an export named by {@code time} is written to. */
    public static String folder(FileStore store, String prefix, Instant time) {
        return store.resolve(prefix, NAMES.format(time));
    }

    /** The overall metadata file of the export in {@code folder} (there once the export is whole). */
    public static String overallMetadata(FileStore store, String folder) {
        String path = folder.endsWith("/") ? folder.substring(0, folder.length() - 1) : folder;
        return store.resolve(folder, path.substring(path.lastIndexOf('/') + 1) + OVERALL);
    }

    /** The start of the name of the temporary folders an export named {@code name} is written to. */
    private static String stagingPrefix(String name) {
        return "." + name + ".";
    }

    /**
     * Removes what writers of the export named by {@code time} below {@code prefix} left when they were stopped before
     * they finished (killed, or the machine lost): their temporary folders, and a folder at the export's place
     * without its overall metadata (written in place by an earlier version), each with everything below it. A whole
     * export there stays.
     */
    public static void removeUnfinished(FileStore store, String prefix, Instant time) throws IOException {
        String root = folder(store, prefix, time);
        String start = stagingPrefix(NAMES.format(time));
        for (String folder : store.folders(prefix)) {
            String name = trimmedName(folder);
            if (name.startsWith(start) && name.endsWith(".tmp")) {
                store.deleteFolder(folder);
            }
        }
        if (store.exists(root) && !store.exists(overallMetadata(store, root))) {
            store.deleteFolder(root);
        }
    }

    private static String trimmedName(String folder) {
        String path = folder.endsWith("/") ? folder.substring(0, folder.length() - 1) : folder;
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static ManagedExportWriter open(FileStore store, String prefix, Instant time, boolean byKind) {
        String root = folder(store, prefix, time);
        try {
            if (store.exists(root)) {
                throw new KeyRangerException("The export folder " + root + " exists already.");
            }
            return new ManagedExportWriter(store, root, NAMES.format(time), byKind);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot create the export in " + root + ": " + e.getMessage(), e);
        }
    }

    /** The export's local folder; its metadata file, once finished, is {@code NAME.overall_export_metadata} in it. */
    public Path root() {
        return LocalFileStore.path(root);
    }

    /** The export's folder as its store names it (a local path, or a URI such as gs://...). */
    public String location() {
        return root;
    }

    /**
     * The temporary folder the export is written to until {@link #finish}: a file written in it (a record of the
     * export beside its parts) is in the export once it is moved into place.
     */
    public String staging() {
        return staging;
    }

    /**
     * Begins the part of {@code kind} in {@code namespace} (an export of chosen kinds), which the entities written
     * next belong to; the part before it is finished. A kind without entities is listed all the same.
     */
    public void kind(String namespace, String kind) throws IOException {
        if (!byKind) {
            throw new IllegalStateException("an unfiltered export has one part for every kind");
        }
        String path = (namespace.isEmpty() ? "default_namespace" : "namespace_" + fileName(namespace)) + "/kind_"
                + fileName(kind);
        if (parts.stream().anyMatch(p -> p.path.equals(path))) {
            throw new IllegalStateException("the export has a part for " + namespace + "/" + kind + " already");
        }
        start(new Part(namespace, kind, path));
    }

    private void start(Part part) throws IOException {
        finishOutput();
        part.output = new LogWriter(store.create(store.resolve(store.resolve(staging, part.path), "output-0")));
        parts.add(part);
        current = part;
    }

    private void finishOutput() throws IOException {
        if (current != null && current.output != null) {
            current.output.close();
            current.bytes = current.output.size();
            current.output = null;
        }
    }

    public void write(Entity entity) throws IOException {
        if (current == null) {
            throw new IllegalStateException("begin a kind's part before its entities");
        }
        Key key = entity.getKey();
        if (current.kind != null && (!current.kind.equals(key.getKind())
                || !current.namespace.equals(key.getNamespace()))) {
            throw new IllegalStateException("an entity of " + key.getNamespace() + "/" + key.getKind()
                    + " in the part of " + current.namespace + "/" + current.kind);
        }
        current.output.write(EntityProtoWriter.entity(entity));
        current.entities++;
    }

    /** The entities written so far, in every part. */
    public long entities() {
        return parts.stream().mapToLong(p -> p.entities).sum();
    }

    /**
     * Makes the export whole: finishes the output file, writes the metadata (each part's, then the export's) and
     * moves the temporary folder into the export's place, in one atomic move on the local disk. Fails when a folder
     * is there already (another writer of the same export finished first).
     */
    public void finish() throws IOException {
        finishOutput();
        long ended = micros(Instant.now());
        for (Part part : parts) {
            try (OutputStream kind = store.create(store.resolve(store.resolve(staging, part.path),
                    part.metadataName()))) {
                kind.write(EntityProtoWriter.message(out -> {
                    out.writeByteArray(1, EntityProtoWriter.message(run -> {
                        run.writeString(1, name);
                        run.writeInt64(2, startedMicros);
                        run.writeInt64(3, ended);
                    }));
                    out.writeByteArray(2, EntityProtoWriter.message(file -> {
                        file.writeString(1, part.kind == null ? "" : part.kind);
                        file.writeString(2, "output-0");
                    }));
                }));
            }
        }
        try (LogWriter overall = new LogWriter(store.create(store.resolve(staging, name + OVERALL)))) {
            overall.write(new byte[] {0x33}); // the header record exports begin with
            overall.write(EntityProtoWriter.message(out -> {
                for (Part part : parts) {
                    out.writeByteArray(1, EntityProtoWriter.message(entry -> {
                        entry.writeByteArray(1, EntityProtoWriter.message(scope -> {
                            scope.writeInt32(1, part.kind == null ? 2 : 1); // all kinds, or one
                            scope.writeString(2, part.kind == null ? "" : part.kind);
                            // all namespaces, the default one, or one named
                            scope.writeInt32(3, part.namespace == null ? 3 : part.namespace.isEmpty() ? 1 : 2);
                            scope.writeString(4, part.namespace == null ? "" : part.namespace);
                        }));
                        entry.writeString(2, part.path + "/" + part.metadataName());
                        entry.writeInt64(3, part.entities);
                        entry.writeInt64(4, part.bytes);
                    }));
                }
            }));
        }
        store.moveFolderIntoPlace(staging, root);
        finished = true;
    }

    /** Removes the temporary folder of an export left unfinished (a whole one has been moved into place). */
    @Override
    public void close() throws IOException {
        if (finished) {
            return;
        }
        try {
            if (current != null && current.output != null) {
                current.output.close();
                current.output = null;
            }
        } finally {
            store.deleteFolder(staging);
        }
    }

    /**
     * A namespace or kind as a file name: as it is when it holds only letters, digits, '.', '_', '-' and spaces (as
     * the emulator's own export names the folders: {@code kind_Line Item}), else those kept and every other byte of
     * its UTF-8 as %XX, so two names never share one.
     */
    private static String fileName(String name) {
        if (name.matches("[A-Za-z0-9._ -]+") && !name.equals(".") && !name.equals("..")) {
            return name;
        }
        StringBuilder safe = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == ' ')) {
                safe.append(c);
            } else {
                safe.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return safe.toString();
    }

    private static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}

package io.keyranger.formats.managed;

import com.google.cloud.datastore.Entity;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.keyranger.KeyRangerException;
import io.keyranger.files.FileStore;
import io.keyranger.files.LocalFileStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A managed export as {@code gcloud datastore export} (or the emulator's {@code :export}) writes it, opened from its
 * folder or its {@code .overall_export_metadata} file: the parts it lists (all namespaces and kinds, or one namespace
 * and kind each when it was filtered), their output files, and their entities, streamed.
 */
public final class ManagedExport {
    private static final String OVERALL = ".overall_export_metadata";

    /**
     * One part of an export: a namespace and kind, or all of them.
     *
     * @param namespace the namespace, or null for all of them
     * @param kind      the kind, or null for all of them
     * @param entities  how many entities the export says it holds
     * @param bytes     how many bytes its output files hold
     * @param files     its output files, in order
     */
    public record Part(String namespace, String kind, long entities, long bytes, List<String> files) {
    }

    private final FileStore store;
    private final String metadata;
    private final List<Part> parts;

    private ManagedExport(FileStore store, String metadata, List<Part> parts) {
        this.store = store;
        this.metadata = metadata;
        this.parts = List.copyOf(parts);
    }

    /** Opens an export on this machine from its folder (that of the overall metadata file, or its parent) or that file. */
    public static ManagedExport open(Path location) {
        return open(LocalFileStore.INSTANCE, location.toString());
    }

    /**
     * Opens the export at {@code location} in {@code store} (a local path, or a cloud store's on a pipeline): its
     * folder (that of the overall metadata file, or its parent) or that file.
     */
    public static ManagedExport open(FileStore store, String location) {
        String metadata = metadataFile(store, location);
        try (LogRecords records = new LogRecords(store, metadata)) {
            List<Part> parts = new ArrayList<>();
            for (byte[] record = records.next(); record != null; record = records.next()) {
                CodedInputStream in = CodedInputStream.newInstance(record);
                for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                    if (WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_START_GROUP) {
                        break; // the file's one-byte header record
                    }
                    if (WireFormat.getTagFieldNumber(tag) == 1
                            && WireFormat.getTagWireType(tag) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
                        parts.add(part(store, store.parent(metadata), in.readBytes().toByteArray()));
                    } else {
                        in.skipField(tag);
                    }
                }
            }
            if (parts.isEmpty()) {
                throw new KeyRangerException("The export metadata " + metadata + " lists no namespace or kind.");
            }
            return new ManagedExport(store, metadata, parts);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the export metadata " + metadata + ": " + e.getMessage(), e);
        }
    }

    /** The location of the export's overall metadata file. */
    public String metadata() {
        return metadata;
    }

    /** The file system the export is read from. */
    public FileStore store() {
        return store;
    }

    public List<Part> parts() {
        return parts;
    }

    /**
     * Every entity of the export, in file order, its key placed in {@code projectId}/{@code databaseId}; the keys
     * inside it are as the export holds them ({@link EntityProtos}).
     */
    public void forEach(String projectId, String databaseId, Consumer<Entity> each) {
        try (Entities entities = entities(projectId, databaseId, null, null)) {
            for (Entity entity = entities.next(); entity != null; entity = entities.next()) {
                each.accept(entity);
            }
        }
    }

    /**
     * The entities of the parts that can hold {@code namespace} and {@code kind} (null: any), in file order, read one
     * at a time; a part of all namespaces or kinds is read whole, so the caller still checks each entity's key.
     */
    public Entities entities(String projectId, String databaseId, String namespace, String kind) {
        return new Entities(store, files(namespace, kind), new EntityProtos(projectId, databaseId));
    }

    /** The output files that may hold entities of {@code namespace} and {@code kind} (null: any), in order. */
    public List<String> files(String namespace, String kind) {
        List<String> files = new ArrayList<>();
        for (Part part : parts) {
            if ((namespace == null || part.namespace() == null || part.namespace().equals(namespace))
                    && (kind == null || part.kind() == null || part.kind().equals(kind))) {
                files.addAll(part.files());
            }
        }
        return files;
    }

    /** Entities read one at a time across output files; a file that cannot be read is named with the offset. */
    public static final class Entities implements Closeable {
        private final FileStore store;
        private final List<String> files;
        private final EntityProtos protos;
        private int file = -1;
        private LogRecords records;
        private long record;

        private Entities(FileStore store, List<String> files, EntityProtos protos) {
            this.store = store;
            this.files = files;
            this.protos = protos;
        }

        /** The next entity, or null after the last. */
        public Entity next() {
            byte[] bytes = nextRecord();
            if (bytes == null) {
                return null;
            }
            try {
                return protos.entity(bytes);
            } catch (IOException bad) {
                throw new KeyRangerException("The export file " + files.get(file) + " holds an entity that cannot be "
                        + "read (record " + record + "): " + bad.getMessage(), bad);
            }
        }

        /** Passes over the next entity without decoding it (its record's checksum is still checked); false at the end. */
        public boolean skip() {
            return nextRecord() != null;
        }

        private byte[] nextRecord() {
            try {
                while (true) {
                    if (records != null) {
                        byte[] bytes = records.next();
                        if (bytes != null) {
                            record++;
                            return bytes;
                        }
                        records.close();
                        records = null;
                    }
                    if (file + 1 >= files.size()) {
                        return null;
                    }
                    file++;
                    record = 0;
                    records = new LogRecords(store, files.get(file));
                }
            } catch (IOException e) {
                throw new KeyRangerException("Cannot read the export file " + files.get(file) + ": " + e.getMessage(),
                        e);
            }
        }

        @Override
        public void close() {
            if (records != null) {
                try {
                    records.close();
                } catch (IOException ignored) {
                    // read only
                }
                records = null;
            }
        }
    }

    /**
     * The overall metadata file at {@code location}: that file, the newest one in that folder, or (a prefix folder,
     * which holds one export per run in a subfolder named by its time) the newest run's. A newest run without one (an
     * export that did not finish) is refused, naming the older run, rather than an older backup read in its place.
     */
    private static String metadataFile(FileStore store, String location) {
        try {
            if (location.endsWith(OVERALL) && store.exists(location)) {
                return location;
            }
            String here = newestMetadata(store.files(location));
            if (here != null) {
                return here;
            }
            List<String> runs = store.folders(location);
            if (!runs.isEmpty()) {
                String newest = runs.get(runs.size() - 1);
                String found = newestMetadata(store.files(newest));
                if (found != null) {
                    return found;
                }
                for (int i = runs.size() - 2; i >= 0; i--) {
                    if (newestMetadata(store.files(runs.get(i))) != null) {
                        throw new KeyRangerException("The newest export in " + location + ", " + newest + ", has no *"
                                + OVERALL + " file (did it not finish?), so it cannot be read; nothing was read from "
                                + "an older one. To use the one before it, give its folder: " + runs.get(i) + ".");
                    }
                }
            }
            if (!store.exists(location) && runs.isEmpty()) {
                throw new KeyRangerException("No export at " + location + ": give the export's folder or its "
                        + "*" + OVERALL + " file.");
            }
        } catch (IOException e) {
            throw new KeyRangerException("Cannot list " + location + ": " + e.getMessage(), e);
        }
        throw new KeyRangerException("No *" + OVERALL + " file in " + location + ": is it a managed export "
                + "(gcloud datastore export) or the folder above one?");
    }

    /** The last (newest) overall metadata file of {@code files}, or null. */
    private static String newestMetadata(List<String> files) {
        List<String> found = files.stream().filter(f -> f.endsWith(OVERALL)).toList();
        return found.isEmpty() ? null : found.get(found.size() - 1);
    }

    /** One entry of the overall metadata: {1 {1 kind scope, 2 kind, 3 namespace scope, 4 namespace}, 2 path, 3, 4}. */
    private static Part part(FileStore store, String root, byte[] entry) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(entry);
        String kind = null;
        String namespace = null;
        boolean allKinds = false;
        boolean allNamespaces = false;
        String path = null;
        long count = 0;
        long bytes = 0;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> {
                    CodedInputStream scope = CodedInputStream.newInstance(in.readBytes().toByteArray());
                    for (int t = scope.readTag(); t != 0; t = scope.readTag()) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> allKinds = scope.readInt32() == 2;
                            case 2 -> kind = scope.readStringRequireUtf8();
                            case 3 -> allNamespaces = scope.readInt32() == 3;
                            case 4 -> namespace = scope.readStringRequireUtf8();
                            default -> scope.skipField(t);
                        }
                    }
                }
                case 2 -> path = in.readStringRequireUtf8();
                case 3 -> count = in.readInt64();
                case 4 -> bytes = in.readInt64();
                default -> in.skipField(tag);
            }
        }
        if (path == null) {
            throw new IOException("an entry names no metadata file");
        }
        String kindMetadata = store.resolve(root, path);
        return new Part(allNamespaces ? null : namespace == null ? "" : namespace, allKinds ? null : kind, count, bytes,
                outputFiles(store, kindMetadata));
    }

    /** The output files a kind's metadata lists (a plain protocol buffer: 2 {1 kind, 2 file name}). */
    private static List<String> outputFiles(FileStore store, String kindMetadata) throws IOException {
        if (!store.exists(kindMetadata)) {
            throw new IOException("its part's metadata " + kindMetadata + " is missing");
        }
        byte[] bytes;
        try (InputStream read = store.open(kindMetadata)) {
            bytes = read.readAllBytes();
        }
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        String folder = store.parent(kindMetadata);
        List<String> files = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == 2) {
                CodedInputStream file = CodedInputStream.newInstance(in.readBytes().toByteArray());
                for (int t = file.readTag(); t != 0; t = file.readTag()) {
                    if (WireFormat.getTagFieldNumber(t) == 2) {
                        files.add(store.resolve(folder, file.readStringRequireUtf8()));
                    } else {
                        file.skipField(t);
                    }
                }
            } else {
                in.skipField(tag);
            }
        }
        return files;
    }
}

package io.keyranger.executor.source;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ImportPlacement;
import io.keyranger.files.FileStore;
import io.keyranger.keys.KeyFormat;
import io.keyranger.keys.KeyOrder;
import io.keyranger.formats.managed.EntityProtos;
import io.keyranger.formats.managed.ExportContents;
import io.keyranger.formats.managed.LogRecords;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.query.ClientQuery;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A managed export as a restore reads it: the entities of one namespace and kind, narrowed by a GQL query applied on
 * the client and by a set of keys, in the export's file order. Entities it does not select are entries too (each has
 * its position in the export's files), passed over and counted apart.
 *
 * @param export    the export
 * @param project   the project its keys are placed in (the connection's)
 * @param database  the database its keys are placed in
 * @param namespace the namespace restored
 * @param kind      the kind restored
 * @param select    a query entities must match, or null
 * @param keys      the only keys restored, or null for all
 * @param selection the selection in words (namespace, query, keys), as a job run again under its id compares it
 */
public record ManagedImport(ManagedExport export, String project, String database, String namespace, String kind,
                     ClientQuery select, Set<Key> keys, String selection) implements ImportInput {
    private static final int EXAMPLES = 3;

    public ManagedImport {
        keys = keys == null ? null : Set.copyOf(keys);
    }

    /**
     * The entities of {@code namespace} and {@code kind} in {@code export}, placed in {@code datastore}'s project,
     * narrowed by a GQL query ({@code gql}, applied on the client in {@code order}) and a file of keys (either may be
     * null). A query of another kind, a bad keys file, or a namespace and kind the export holds nothing of, is
     * refused here, before anything is compared or written.
     */
    public static ManagedImport of(Datastore datastore, KeyOrder order,
                            ManagedExport export, String namespace, String kind, String gql, String keys) {
        String project = datastore.getOptions().getProjectId();
        String database = datastore.getOptions().getDatabaseId() == null ? "" : datastore.getOptions().getDatabaseId();
        ClientQuery select = ClientQuery.selecting(gql, project, namespace, kind, order);
        ExportContents.requireHolds(export, project, database, namespace, kind);
        Set<Key> only = keys == null ? null : KeysFile.read(export.store(), keys, project, namespace);
        return new ManagedImport(export, project, database, namespace, kind, select, only,
                selection(namespace, gql, only));
    }

    /** The selection in words; a keys file by the digest of the keys it holds (not by its path or their order). */
    static String selection(String namespace, String gql, Set<Key> keys) {
        String words = "namespace \"" + namespace + "\"" + (gql == null ? "" : ", the query " + gql);
        if (keys == null) {
            return words + ", all keys";
        }
        MessageDigest digest = ImportIdentity.sha256();
        keys.stream().map(KeyFormat::format).sorted().forEach(k -> digest.update((k + "\n").getBytes(
                StandardCharsets.UTF_8)));
        return words + String.format(", %,d keys from a keys file (sha256 %s)", keys.size(),
                ImportIdentity.hex(digest));
    }

    public boolean selects(Entity entity) {
        Key key = entity.getKey();
        return key.getNamespace().equals(namespace) && key.getKind().equals(kind)
                && (select == null || select.matches(entity)) && (keys == null || keys.contains(key));
    }

    /**
     * Reads every record (checksums, and each entity decoded): a corrupt or truncated file is refused, naming it and
     * the offset, before anything is written. Keys asked for that the export lacks are warned of, and a key selected
     * twice found.
     */
    @Override
    public ImportFile.Check check(boolean skipBadLines, BooleanSupplier cancelled) {
        long records = 0;
        long selected = 0;
        Set<Key> found = keys == null ? null : new HashSet<>();
        KeyHashes selectedKeys = new KeyHashes();
        try (ManagedExport.Entities entities = export.entities(project, database, namespace, kind)) {
            for (Entity e = entities.next(); e != null && !cancelled.getAsBoolean(); e = entities.next()) {
                records++;
                if (selects(e)) {
                    selected++;
                    selectedKeys.add(e.getKey());
                    if (found != null) {
                        found.add(e.getKey());
                    }
                }
            }
        }
        List<String> warnings = List.of();
        if (found != null && found.size() < keys.size()) {
            List<Key> absent = keys.stream().filter(k -> !found.contains(k)).toList();
            warnings = List.of(String.format("%,d of the %,d keys asked for %s not in the export as %s entities%s "
                    + "(e.g. %s): nothing restores them", absent.size(), keys.size(), absent.size() == 1 ? "is" : "are",
                    kind, namespace.isEmpty() ? "" : " of namespace " + namespace, String.join(", ", absent.stream()
                            .limit(EXAMPLES).map(KeyFormat::format).toList())));
        }
        // Google's exports hold an entity once; one that repeats a key keeps a record a key, the first before-image
        return new ImportFile.Check(records, 0, List.of(), selected, warnings, null, List.of(), Map.of(),
                selectedKeys.repeated().isEmpty());
    }

    @Override
    public List<String> files() {
        return export.files(namespace, kind);
    }

    @Override
    public long size(int file) throws IOException {
        return export.store().size(files().get(file));
    }

    /**
     * The entities whose records begin at byte {@code from} of output file {@code file} or after: read from the 32 KiB
     * block that holds {@code from}, passing over the records that begin before it.
     */
    @Override
    public Positioned read(int file, long from, boolean skipBadLines) throws IOException {
        String path = files().get(file);
        LogRecords records = new LogRecords(export.store(), path,
                from / LogRecords.BLOCK, -1);
        EntityProtos protos = new EntityProtos(project, database);
        return new Positioned() {
            @Override
            public Entry next() throws IOException {
                byte[] bytes;
                do {
                    bytes = records.next();
                } while (bytes != null && records.lastStart() < from);
                if (bytes == null) {
                    return null;
                }
                Entity entity;
                try {
                    entity = protos.entity(bytes);
                } catch (IOException bad) {
                    throw new KeyRangerException("The export file " + path + " holds an entity that "
                            + "cannot be read (at byte " + records.lastStart() + "): " + bad.getMessage(), bad);
                }
                return selects(entity) ? new Entry(entity, false, true) : Entry.NOT_SELECTED;
            }

            @Override
            public long offset() {
                return records.lastStart();
            }

            @Override
            public void close() throws IOException {
                records.close();
            }
        };
    }

    /** The entries from the first, in file order, for a reader that goes through the whole selection once. */
    public Entries open() {
        ManagedExport.Entities entities = export.entities(project, database, namespace, kind);
        return new Entries() {
            @Override
            public Entry next() {
                Entity entity = entities.next();
                if (entity == null) {
                    return null;
                }
                return selects(entity) ? new Entry(entity, false, true) : Entry.NOT_SELECTED;
            }

            @Override
            public void close() {
                entities.close();
            }
        };
    }

    /** The entity as Google's {@code :import} of the export writes it into the connected project. */
    @Override
    public Entity placed(Entity entity) {
        return ImportPlacement.place(entity, project);
    }

    /**
     * The export by the digest of its metadata file and the names and sizes of its output files (reading them all
     * again would double a restore's reading); its path and time only describe it.
     */
    @Override
    public ImportIdentity identity(ImportFile.Check check) {
        MessageDigest digest = ImportIdentity.sha256();
        FileStore store = export.store();
        ImportIdentity.digestFile(digest, store, export.metadata());
        String folder = store.parent(export.metadata()) + "/";
        for (ManagedExport.Part part : export.parts()) {
            for (String file : part.files()) {
                long size;
                try {
                    size = store.size(file);
                } catch (IOException e) {
                    size = -1;
                }
                String name = file.startsWith(folder) ? file.substring(folder.length()) : file;
                digest.update((name + " " + size + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return new ImportIdentity("sha256 " + ImportIdentity.hex(digest), selection,
                "the export " + ImportIdentity.describe(store, export.metadata()));
    }

    @Override
    public String describe() {
        return "the export " + export.metadata();
    }

    /** The selection's entries, read one at a time. */
    public interface Entries extends Closeable {
        /** The next entry, or null after the last. */
        Entry next();

        @Override
        void close();
    }
}

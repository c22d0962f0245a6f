package io.keyranger.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.executor.source.ManagedImport;
import io.keyranger.job.RestoreMode;
import io.keyranger.query.ClientQuery;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A managed export's selection as the "before" side of a comparison: read in the export's file order, compared as a
 * restore of it (Google's {@code :import}, keys placed in the connected project) writes it.
 */
record ExportSide(ManagedImport input) implements DiffSide {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String namespace() {
        return input.namespace();
    }

    @Override
    public String kind() {
        return input.kind();
    }

    @Override
    public ClientQuery select() {
        return input.select();
    }

    @Override
    public Set<Key> keys() {
        return input.keys();
    }

    /** Read from the export's files, in their order, one at a time. */
    @Override
    public ManagedImport.Entries open(int parallel, Cancellation cancellation) {
        return input.open();
    }

    @Override
    public boolean same(Entity before, Entity live) {
        return RestoreMode.asBackup(before, live, input::placed);
    }

    @Override
    public String differences(Entity before, Entity live) {
        return RestoreMode.differences(before, live);
    }

    /** Read from the export's entities of the kind once more. */
    @Override
    public Map<Key, Entity> heldOutside(List<Key> candidates) {
        Map<Key, Entity> held = new HashMap<>();
        if (input.select() == null || candidates.isEmpty()) {
            return held;
        }
        Set<Key> wanted = new HashSet<>(candidates);
        try (ManagedExport.Entities entities = input.export().entities(input.project(),
                input.database(), input.namespace(), input.kind())) {
            for (Entity e = entities.next(); e != null && held.size() < wanted.size(); e = entities.next()) {
                if (wanted.contains(e.getKey())) {
                    held.put(e.getKey(), e);
                }
            }
        }
        return held;
    }

    @Override
    public String where() {
        return SideWording.EXPORT.where();
    }

    @Override
    public String since() {
        return SideWording.EXPORT.since();
    }

    /** The export by its metadata file and when that was written: an export written again there is another. */
    @Override
    public String describe() {
        ObjectNode what = JSON.createObjectNode().put("export", input.export().metadata())
                .put("exportWritten", DiffState.written(Path.of(input.export().metadata())))
                .put("namespace", input.namespace()).put("kind", input.kind());
        if (input.select() != null) {
            what.put("select", input.select().query().text());
        }
        if (input.keys() != null) {
            what.put("keys", input.keys().size());
        }
        return what.toString();
    }
}

package io.keyranger.executor.source;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.mapper.MapResult;
import io.keyranger.mapper.Page;
import io.keyranger.mapper.PageMapper;
import io.keyranger.mapper.SourceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The mapper of a copy from another database whose kind is written under another name ({@code --to-kind}). Its pages
 * keep the source's paths (placed in the job's partition, so that its ranges and their order are the source's), which
 * are positions here, as a file's are: the keys it decides and writes are those paths with the kind renamed, read in
 * the commit's transaction as the keys it relates to. {@code decide} (a restore's mapper) then decides each one as it
 * would without the rename.
 */
final class RenamedKind implements PageMapper {
    private final PageMapper decide;
    private final DatabasePlacement placement;

    /** {@code placement} renames the kind; the page's keys are its source's paths, placed without the rename. */
    RenamedKind(PageMapper decide, DatabasePlacement placement) {
        this.decide = decide;
        this.placement = placement;
    }

    @Override
    public String name() {
        return decide.name();
    }

    @Override
    public boolean needsEntities() {
        return false;
    }

    @Override
    public boolean writes() {
        return true;
    }

    @Override
    public boolean readsSource() {
        return true;
    }

    /**
     * Not said: two source paths can name one renamed key (an element already of the new kind above one of the old),
     * so each commit keeps a record a key, which a revert takes back in the order they were written.
     */
    @Override
    public boolean writesEachKeyOnce() {
        return false;
    }

    /** As many as its decision's: a position with ancestors may write each of them too. */
    @Override
    public int entitiesPer(Key key) {
        return decide.entitiesPer(key);
    }

    /**
     * The renamed keys, whose live entities each decision reads in the commit's transaction, and those its decision
     * relates to besides (a copy's ancestors).
     */
    @Override
    public List<Key> related(Page page) {
        Page renamed = renamed(page, List.of(), Map.of());
        List<Key> related = new ArrayList<>(renamed.keys());
        related.addAll(decide.related(renamed));
        return related;
    }

    @Override
    public MapResult map(Page page) {
        List<Key> keys = page.keys().stream().map(this::renamed).toList();
        List<Entity> live = keys.stream().map(page.related()::get).filter(Objects::nonNull).toList();
        return decide.map(renamed(page, live, page.related()));
    }

    /**
     * The page as its decision sees it: its keys renamed, with {@code live} their live entities, {@code related} the
     * others read, and its records (a copy's ancestors' too) under the renamed keys.
     */
    private Page renamed(Page page, List<Entity> live, Map<Key, Entity> related) {
        List<Key> keys = page.keys().stream().map(this::renamed).toList();
        Map<Key, SourceRecord> records = new HashMap<>();
        page.records().forEach((position, record) -> {
            if (record != null) {
                records.put(renamed(position), record);
            }
        });
        return new Page(keys, live, related, records);
    }

    /** The job's key of a position: the source's path, its kind renamed. */
    private Key renamed(Key position) {
        return placement.target(placement.keepingKinds().source(position));
    }
}

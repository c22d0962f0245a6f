package io.keyranger.mapper;

import com.google.cloud.datastore.Key;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps one page of a kind to the mutations and counter increments it wants. A mapper never writes: the executor
 * commits what it returns together with the range's checkpoint, so that a retried or resumed page never applies
 * twice. When {@link #needsEntities()} is true the executor reads the page's entities inside the commit's
 * transaction, so that a read-modify-write mapper sees the value it replaces.
 */
public interface PageMapper {
    /** The template name, as in the mapper spec. */
    String name();

    /** False for mappers that only need keys (count, delete): the executor skips reading entities. */
    boolean needsEntities();

    /** Whether it returns mutations; read-only mappers still checkpoint and count. */
    boolean writes();

    MapResult map(Page page);

    /**
     * Entity groups a commit touches per key: 1 when it writes back to the same keys, 2 when it also writes
     * elsewhere (copy). The executor sizes chunks by it to stay within the emulator's 25-group limit.
     */
    default int entityGroupsPerKey() {
        return 1;
    }

    /**
     * Keys besides the page's own that the mapper must see as they are inside the commit's transaction (a revert
     * reads the entities its undo records name); the executor reads them after the page's entities and hands them
     * over in {@link Page#related()}.
     */
    default List<Key> related(Page page) {
        return List.of();
    }

    /**
     * Whether the entities of its pages never change while its job runs, so that the page query reads them with their
     * keys and a commit reads, in its one lookup with its ledgers, the keys they relate to ({@link #related}) instead
     * of them: a revert's undo records (each written by a commit of the job it takes back, all of which landed before
     * the revert's fence, and removed only by a prune, which leaves a job under revert alone). Only a mapper that needs
     * its entities and never writes its page's own keys may say so.
     */
    default boolean pageEntitiesFixed() {
        return false;
    }

    /**
     * Whether its commits keep what they change (an undo record per changed entity, written in the same
     * transaction), so that the job can be reverted. Only writing mappers whose spec did not turn it off do.
     */
    default boolean keepsUndo() {
        return false;
    }

    /**
     * Whether each entity it changes is changed by one commit of its job at most, so that a commit's undo is one
     * record for all it changes (a batch), which no later commit needs to find: true for a mapper that writes only
     * its page's own keys (one entity group a key, no source), and for a revert (each entity has one image in the job
     * it takes back). A copy that drops ancestors may write one key twice: one record per target. An import says so
     * itself: its input's check found whether it holds a key twice.
     */
    default boolean writesEachKeyOnce() {
        return entityGroupsPerKey() == 1 && !readsSource();
    }

    /**
     * How many entities a page key of its stands for when a commit is sized (mutations, entity groups): one, or for a
     * revert the before-images its undo record holds.
     */
    default int entitiesPer(Key key) {
        return 1;
    }

    /**
     * The page cut to the keys that stand for its first {@code entities} entities ({@link #entitiesPer}), the last of
     * them cut where it stands for more: what a dry run maps to look at exactly that many. The page itself when it
     * holds no more.
     */
    default Page first(Page page, int entities) {
        if (page.keys().size() <= entities) {
            return page;
        }
        List<Key> keys = page.keys().subList(0, entities);
        Set<Key> kept = new HashSet<>(keys);
        Map<Key, SourceRecord> records = new HashMap<>(page.records());
        records.keySet().retainAll(kept);
        return new Page(keys, page.entities().stream().filter(e -> kept.contains(e.getKey())).toList(),
                page.related(), records);
    }

    /**
     * Whether its pages are positions in a source (an import's file), not entities: nothing reads or writes the page's
     * keys, {@link Page#records()} holds what the source has at each, and what it writes lies elsewhere (each entity
     * its own entity group, with its undo record another).
     */
    default boolean readsSource() {
        return false;
    }

    /**
     * Where its {@link MapResult#lines()} go (export): a local path, or a URI such as gs://... that the Beam runner
     * writes through its FileSystems; null for a mapper that writes no file.
     */
    default String outputFile() {
        return null;
    }
}

package io.keyranger.backup;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.Cancellation;
import io.keyranger.executor.source.ManagedImport;
import io.keyranger.query.ClientQuery;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The "before" side of a comparison with live data ({@link ExportDiff}): the entities of one namespace and kind,
 * narrowed by a query applied on the client and a set of keys, as a managed export holds them ({@link ExportSide})
 * or as a database holds them: its own past, or another database ({@link DatabaseSide}).
 */
interface DiffSide {
    String namespace();

    String kind();

    /** The query entities must match on each side, or null. */
    ClientQuery select();

    /** The only keys compared, or null for all. */
    Set<Key> keys();

    /**
     * The entries from the first, each selected or passed over, in an order that is the same each time it is read
     * (a resumed comparison passes over as many as the stopped one read). A source read by queries reads up to
     * {@code parallel} key ranges at once, and begins none once {@code cancellation} says stop (an entry asked for
     * then is a {@link java.util.concurrent.CancellationException}).
     */
    ManagedImport.Entries open(int parallel, Cancellation cancellation);

    /** Whether {@code live} is the same as {@code before}, as a restore from this source would write it. */
    boolean same(Entity before, Entity live);

    /** What differs between {@code before} and {@code live}, in words. */
    String differences(Entity before, Entity live);

    /**
     * Of {@code candidates} (live matches that the selection lacks), those this source holds all the same, outside
     * the selection (its query does not match them here), whole.
     */
    Map<Key, Entity> heldOutside(List<Key> candidates);

    /** Where the entities were, for messages: "in the export", "as of 2026-11-27T10:15:00Z". */
    String where();

    /** Since when, for messages: "since the export", "since 2026-11-27T10:15:00Z". */
    String since();

    /**
     * What is compared, for a stopped comparison's state: the source and its time (an export's writing, a past
     * read's moment), the namespace, kind and selection. A resume must compare the same.
     */
    String describe();
}

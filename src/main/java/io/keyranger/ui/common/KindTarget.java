package io.keyranger.ui.common;

import io.keyranger.datastore.EntityCount;
import io.keyranger.datastore.Session;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The kind selected in the browser, on the connection's session: what the Shards, Mapper and Run tabs work on.
 *
 * @param session    the connection (datastore, key order, limits, read-only), built once when it opened
 * @param namespace  the namespace
 * @param kind       the kind
 * @param knownCount the kind's exact count once the browser has counted it, else null
 */
public record KindTarget(Session session, String namespace, String kind, Supplier<EntityCount> knownCount) {

    public KindTarget {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(kind, "kind");
        namespace = namespace == null ? "" : namespace;
    }

    /** The exact count, or -1 while the browser has not counted the kind yet. */
    public long countOrUnknown() {
        EntityCount count = knownCount.get();
        return count == null ? -1 : count.count();
    }
}

package io.keyranger.datastore;

import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.Value;
import java.util.List;

/**
 * Entities whose arrays mix indexed and unindexed values. The managed export format (App Engine's entity proto) keeps
 * an entity's indexed values (its properties) apart from its unindexed ones (its raw properties), so such an array
 * comes back from a managed export with its indexed values first, whatever its order was: Google's own export and
 * import do the same, and the legacy emulator stores it so. Exports and restores say how many entities that touches.
 */
public final class MixedArrays {
    /** The counter of a restore from a managed export: entities whose arrays' order the format did not keep. */
    public static final String NOT_KEPT = "arrays mixing indexed and unindexed values (order not kept by the "
            + "managed format)";

    private MixedArrays() {
    }

    /** Whether some array of {@code entity} (or of an entity embedded in it) holds indexed and unindexed values. */
    public static boolean in(FullEntity<?> entity) {
        for (String name : entity.getNames()) {
            if (mixes(entity.getValue(name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean mixes(Value<?> value) {
        if (value instanceof EntityValue embedded) {
            return in(embedded.get());
        }
        if (!(value instanceof ListValue list)) {
            return false;
        }
        List<? extends Value<?>> items = list.get();
        boolean indexed = false;
        boolean unindexed = false;
        for (Value<?> item : items) {
            indexed |= !item.excludeFromIndexes();
            unindexed |= item.excludeFromIndexes();
            if (item instanceof EntityValue embedded && in(embedded.get())) {
                return true;
            }
        }
        return indexed && unindexed;
    }

    /** What a report says of {@code entities} such entities. */
    public static String warning(long entities) {
        return String.format("%,d entit%s ha%s arrays mixing indexed and unindexed values: their order is not kept by "
                + "the managed format (its indexed values come first, as in Google's own export and import).",
                entities, entities == 1 ? "y" : "ies", entities == 1 ? "s" : "ve");
    }
}

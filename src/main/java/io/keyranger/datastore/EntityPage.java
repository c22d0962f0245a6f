package io.keyranger.datastore;

import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Entity;
import java.util.List;

/**
 * One page of entities read with a cursor.
 *
 * @param entities  the entities, in key order
 * @param endCursor where the next page starts, or null when there is none
 */
public record EntityPage(List<Entity> entities, Cursor endCursor) {
    public EntityPage {
        entities = List.copyOf(entities);
    }

    public boolean hasMore() {
        return endCursor != null;
    }
}

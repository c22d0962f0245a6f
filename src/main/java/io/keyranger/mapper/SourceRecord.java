package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;

/**
 * What a job that reads a source (an import's file) finds at one position of it: an entity to write, or why there is
 * none to write.
 *
 * @param entity  the entity, or null
 * @param skipped why the position holds nothing to write (a bad line, an entity the selection does not take), or null
 * @param detail  what a report says of a skipped one, or null
 */
public record SourceRecord(Entity entity, String skipped, String detail) {
    public static SourceRecord of(Entity entity) {
        return new SourceRecord(entity, null, null);
    }
}

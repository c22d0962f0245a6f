package io.keyranger.mapper;

import com.google.cloud.datastore.Entity;

/**
 * What a job that reads a source (an import's file, the database at a past moment) finds at one position of it: an
 * entity to write, or why there is none to write; or, for a mapper whose page entities never change
 * ({@link PageMapper#pageEntitiesFixed}), the entity its page query read at a key.
 *
 * @param entity  the entity, or null (for the past: absent at that moment)
 * @param skipped why the position holds nothing to write (a bad line, an entity the selection does not take), or null
 * @param detail  what a report says of a skipped one, or null
 * @param later   for the database's past read at two moments ({@code restore --as-of T --until T2}): the entity at
 *                the later one, or null (absent then, or no later moment)
 */
public record SourceRecord(Entity entity, String skipped, String detail, Entity later) {
    public SourceRecord(Entity entity, String skipped, String detail) {
        this(entity, skipped, detail, null);
    }

    public static SourceRecord of(Entity entity) {
        return new SourceRecord(entity, null, null);
    }

    /** A key of the database's past: its entity at a moment and at a later one (either null when absent). */
    public static SourceRecord past(Entity then, Entity later) {
        return new SourceRecord(then, null, null, later);
    }
}

package io.keyranger.model;

import com.google.datastore.v1.Entity;
import java.util.function.Consumer;

/**
 * One version of an entity: its value, its commit time in microseconds (the version production answers), whether
 * it is a deletion (then {@code entity} is the value it deleted, for its key), and the version it replaced, kept
 * while a read in the window may need it. 32 bytes with compressed references, besides the entity.
 */
final class Stored {
    private final Entity entity;
    private final long version;
    private final boolean deleted;
    /** Set once, when the versions before this one are pruned: a read before this one is then refused. */
    private volatile boolean trimmed;
    private volatile Stored previous;

    Stored(Entity entity, long version, boolean deleted, Stored previous) {
        this.entity = entity;
        this.version = version;
        this.deleted = deleted;
        this.previous = previous;
    }

    Entity entity() {
        return entity;
    }

    long version() {
        return version;
    }

    boolean deleted() {
        return deleted;
    }

    /**
     * The version a read as of {@code time} sees, or null when the entity did not exist then; refused when that
     * version was pruned (a read that began inside the window and ran past its edge).
     */
    Stored at(long time) {
        for (Stored s = this; ; ) {
            if (s.version <= time) {
                return s.deleted ? null : s;
            }
            Stored before = s.previous; // read before trimmed: pruning sets trimmed, then cuts
            if (before == null) {
                if (s.trimmed) {
                    throw ModelVersions.tooOld();
                }
                return null;
            }
            s = before;
        }
    }

    /** Hands on the entity of this version and of every version before it that is kept. */
    void forEachVersion(Consumer<Entity> action) {
        for (Stored s = this; s != null; s = s.previous) {
            action.accept(s.entity);
        }
    }

    /** Drops the versions no read at or after {@code earliest} sees; true when none is left to read. */
    boolean trim(long earliest) {
        for (Stored s = this; s != null; s = s.previous) {
            if (s.version <= earliest) {
                if (s.previous != null) {
                    s.trimmed = true;
                    s.previous = null;
                }
                return s == this && deleted;
            }
        }
        return false;
    }
}

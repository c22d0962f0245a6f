package io.keyranger.mapper;

import io.keyranger.mapper.cel.PropertyTypes;
import java.util.List;

/** A mapper template: typed, described parameters, and a factory that validates them. */
public interface Template {
    String name();

    /** One line for lists and forms. */
    String description();

    List<Param> params();

    /** Whether its jobs write to Datastore (and so need confirmation outside an emulator). */
    boolean writes();

    /**
     * Whether applying it twice is harmless (set, delete). Those that are not (increment) rely on the executor's
     * exactly-once commit.
     */
    boolean idempotent();

    /** Builds the mapper; a {@link io.keyranger.KeyRangerException} names any bad parameter and what is expected. */
    PageMapper create(MapperSpec spec);

    /**
     * Builds the mapper with its expressions, if it has any, type-checked against {@code types} (a dry run knows the
     * kind's property types); templates without expressions ignore them.
     */
    default PageMapper create(MapperSpec spec, PropertyTypes types) {
        return create(spec);
    }

    /** What its jobs read: the key ranges of a kind, or a file (an import). */
    enum Source { KEY_RANGES, FILE }

    default Source source() {
        return Source.KEY_RANGES;
    }

    /** Checks the parameters without building anything; a {@link io.keyranger.KeyRangerException} names the bad one. */
    default void validate(MapperSpec spec) {
        create(spec);
    }

    /**
     * The kinds its jobs over {@code kind} write to, in the namespace they read, or null when they may write to
     * another namespace or that cannot be known: what shows the data after such a job reads those kinds again (or
     * everything). Most write the kind they read.
     */
    default List<String> writtenKinds(MapperSpec spec, String kind) {
        return List.of(kind);
    }

    /** Whether what it changes is changed for good (delete, increment): the app offers an export first. */
    default boolean offersBackup() {
        return false;
    }
}

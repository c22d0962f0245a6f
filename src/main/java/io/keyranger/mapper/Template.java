package io.keyranger.mapper;

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
}

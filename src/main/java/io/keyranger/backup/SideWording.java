package io.keyranger.backup;

import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.Session;
import java.util.Objects;

/**
 * How messages name the "before" side of a comparison: where its entities were and since when. The one place for
 * this wording: the sides ({@link ExportSide}, {@link DatabaseSide}) and a request naming a side before it is opened
 * ({@code launch.DiffRequest}) all take it from here.
 *
 * @param where where the entities were: "in the export", "as of 2026-11-27T10:15:00Z"
 * @param since since when: "since the export", "since 2026-11-27T10:15:00Z"
 */
public record SideWording(String where, String since) {
    /** A managed export's entities. */
    public static final SideWording EXPORT = new SideWording("in the export", "since the export");

    public SideWording {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(since, "since");
    }

    /** The database's entities as of {@code asOf}. */
    public static SideWording asOf(PointInTime asOf) {
        return new SideWording("as of " + asOf.time(), "since " + asOf.time());
    }

    /**
     * Another database's entities ({@code source}: its partition, as of its moment or live): "in project p as of
     * 2026-11-27T10:15:00Z", "compared with project p".
     */
    public static SideWording database(Session source) {
        String partition = Partition.of(source.spec()).describe();
        return new SideWording("in " + partition + (source.past() ? " as of " + source.asOf().time() : ""),
                "compared with " + partition);
    }
}

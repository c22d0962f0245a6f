package io.keyranger.launch;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatabasePlacement;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.group.JobKinds;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Another database as a source (another project, database or namespace, on the connected server or another), as the
 * command line and the app open it: never the connected database itself, and read at one moment where its server
 * keeps versions (the moment asked for, else the moment it was opened), so that writes to it while it is read do not
 * change what is read; a server that keeps none (the legacy emulator) is read live, and the user is told so.
 */
public final class SourceDatabase {
    /**
     * How far before its opening an unasked source is read: a moment its server's clock has surely reached (a read
     * time in the server's future is refused), and no write acknowledged before the opening is missed but one made
     * in these last milliseconds.
     */
    public static final long BEFORE_OPENING_MILLIS = 100;

    private SourceDatabase() {
    }

    /**
     * Opens {@code source} for a comparison or restore into {@code target}: as of {@code asOf} (RFC 3339 or
     * {@code -15m}; checked against what the source keeps) when given, else at the moment it is opened where its
     * server keeps versions, else live. What is read is {@code told}. Refused, before anything is read, when it is
     * the connected database itself, and {@code asOf} on a server that keeps no past.
     */
    public static Session open(Session target, ConnectionSpec source, String asOf, Consumer<String> told) {
        ConnectionSpec to = target.spec();
        if (Objects.equals(source.emulatorHost(), to.emulatorHost()) && source.server() == to.server()
                && Partition.of(source).equals(Partition.of(to))) {
            throw new KeyRangerException("The source is the connected database itself (" + Partition.of(to)
                    .describe() + "): give another --from-project, --from-database or --from-namespace (its own past "
                    + "is --as-of alone).");
        }
        Session live = Session.shared(source); // one client a source, however often it is opened
        String what = Partition.of(source).describe();
        if (asOf != null) {
            Session then = ReadWindow.open(live, asOf, told);
            told.accept("Reading " + what + " as of " + then.asOf().describe() + ".");
            return then;
        }
        if (!source.server().readsPast()) {
            told.accept("Reading " + what + " live: " + serverName(source.server()) + " keeps no past, so writes to "
                    + "it while it is read may show.");
            return live;
        }
        PointInTime moment = PointInTime.at(Instant.now().minusMillis(BEFORE_OPENING_MILLIS)
                .truncatedTo(ChronoUnit.MILLIS));
        told.accept("Reading " + what + " as of " + moment.describe() + " (one moment: writes to it while it is "
                + "read do not change what is read).");
        return live.asOf(moment);
    }

    /** Refuses {@code kind} when the source (in its namespace, at its moment) holds none of it, naming the nearest. */
    public static void requireHeld(Session source, String kind) {
        String namespace = source.spec().namespace();
        DatastoreGateway gateway = new DatastoreGateway(source.datastore(), source.spec().server());
        if (!gateway.kindExists(namespace, kind)) {
            throw JobKinds.notFoundIn(kind, Partition.of(source.spec()).describe(),
                    gateway.kinds(namespace, false), source.past() ? " as of " + source.asOf().time() : "");
        }
    }

    /** The source's entity that {@code key} (the connected database's) stands for, as placed there, or null. */
    static Entity entity(Session source, Session target, Key key) {
        DatabasePlacement placement = DatabasePlacement.of(source.spec(), target.spec(), key.getNamespace());
        Entity found = source.datastore().get(placement.source(key));
        return found == null ? null : placement.place(found);
    }

    private static String serverName(ServerType server) {
        return server == ServerType.EMULATOR ? "the legacy Datastore emulator" : "its server";
    }
}

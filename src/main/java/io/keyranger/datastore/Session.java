package io.keyranger.datastore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.Map;
import com.google.cloud.datastore.Datastore;
import io.keyranger.keys.KeyOrder;
import io.keyranger.KeyRangerException;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One open connection and what follows from it: the server's key order and commit limits, and whether the connection
 * may write. Built once when a connection opens and handed to everything that reads or writes through it, so no caller
 * derives the order or limits again.
 *
 * @param spec      where it points (never holds a secret)
 * @param datastore the client
 * @param order     the server's key order
 * @param limits    the server's commit limits
 * @param asOf      the moment every read of {@code datastore} asks for ({@link PastReads}), or null for the live
 *                  database
 */
public record Session(ConnectionSpec spec, Datastore datastore, KeyOrder order, ServerLimits limits,
                      PointInTime asOf) {

    public Session {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(datastore, "datastore");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(limits, "limits");
    }

    private static final Map<ConnectionSpec, Session> SHARED = new ConcurrentHashMap<>();

    /** A session over the live database. */
    public Session(ConnectionSpec spec, Datastore datastore, KeyOrder order, ServerLimits limits) {
        this(spec, datastore, order, limits, null);
    }

    /** Connects to the spec's server (checking an emulator answers first). */
    public static Session open(ConnectionSpec spec) {
        return of(spec, DatastoreConnector.connect(spec));
    }

    /**
     * A session of {@code spec}'s, opened once in this JVM and kept: for a source database read again and again (each
     * run of a copy, each opening in the app), whose clients would otherwise pile up.
     */
    public static Session shared(ConnectionSpec spec) {
        return SHARED.computeIfAbsent(spec, Session::open);
    }

    /** A session over a client that is already open. */
    public static Session of(ConnectionSpec spec, Datastore datastore) {
        return new Session(spec, datastore, spec.server().keyOrder(), spec.server().limits());
    }

    /** The same session with its client wrapped (fault injection, tests). */
    public Session wrap(UnaryOperator<Datastore> wrapper) {
        return new Session(spec, wrapper.apply(datastore), order, limits, asOf);
    }

    /**
     * This session reading the database as it was at {@code time} (already checked against the {@link ReadWindow}):
     * every read carries it and nothing can be written. Refused on a server that keeps no past (the legacy emulator).
     */
    public Session asOf(PointInTime time) {
        if (!spec.server().readsPast()) {
            throw new KeyRangerException(ServerType.NO_PAST);
        }
        Session live = live();
        return new Session(spec, PastReads.at(live.datastore, time.timestamp()), order, limits, time);
    }

    /** This session reading the live database again. */
    public Session live() {
        return asOf == null ? this : new Session(spec, PastReads.live(datastore), order, limits, null);
    }

    /** Whether this session reads a past moment ({@link #asOf}). */
    public boolean past() {
        return asOf != null;
    }

    /** Whether writing templates are refused on this connection: read-only, or reading the past. */
    public boolean readOnly() {
        return spec.readOnly() || asOf != null;
    }

    /** A short, secret-free description for status bars and logs. */
    public String describe() {
        return spec.describe();
    }
}

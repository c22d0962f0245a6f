package io.keyranger.datastore;

import com.google.cloud.datastore.Datastore;
import io.keyranger.keys.KeyOrder;
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
 */
public record Session(ConnectionSpec spec, Datastore datastore, KeyOrder order, ServerLimits limits) {

    public Session {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(datastore, "datastore");
        Objects.requireNonNull(order, "order");
        Objects.requireNonNull(limits, "limits");
    }

    /** Connects to the spec's server (checking an emulator answers first). */
    public static Session open(ConnectionSpec spec) {
        return of(spec, DatastoreConnector.connect(spec));
    }

    /** A session over a client that is already open. */
    public static Session of(ConnectionSpec spec, Datastore datastore) {
        return new Session(spec, datastore, spec.server().keyOrder(), spec.server().limits());
    }

    /** The same session with its client wrapped (fault injection, tests). */
    public Session wrap(UnaryOperator<Datastore> wrapper) {
        return new Session(spec, wrapper.apply(datastore), order, limits);
    }

    /** Whether writing templates are refused on this connection. */
    public boolean readOnly() {
        return spec.readOnly();
    }

    /** A short, secret-free description for status bars and logs. */
    public String describe() {
        return spec.describe();
    }
}

package io.keyranger.ui.run;

import com.google.cloud.datastore.Datastore;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.executor.ServerLimits;
import io.keyranger.keys.KeyOrder;
import java.util.function.LongSupplier;

/**
 * What a job runs on: the connection's session (datastore, key order, limits, the connection for the safety checks)
 * and the kind selected in the browser.
 *
 * @param datastore  the connection
 * @param order      its key order
 * @param limits     its commit limits
 * @param namespace  the namespace
 * @param kind       the kind
 * @param knownCount the kind's exact count, or -1 while unknown (for the ETA)
 * @param connection the connection, for the safety checks before writing
 */
public record JobTarget(Datastore datastore, KeyOrder order, ServerLimits limits, String namespace, String kind,
                        LongSupplier knownCount, ConnectionSpec connection) {
}

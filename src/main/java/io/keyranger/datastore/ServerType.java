package io.keyranger.datastore;

import io.keyranger.keys.KeyOrder;

/**
 * What kind of server a connection reaches, said explicitly rather than guessed from a host name: it decides the key
 * order and commit limits KeyRanger plans with.
 */
public enum ServerType {
    /** The Cloud SDK's Datastore emulator: UTF-16 key order, 25 entity groups per transaction. */
    EMULATOR,
    /** KeyRanger's production model server (benchmarks only): local, but ordered and limited as production. */
    MODEL,
    /** Firestore in Datastore mode: UTF-8 key order, no entity-group limit. */
    PRODUCTION;

    public KeyOrder keyOrder() {
        return this == EMULATOR ? KeyOrder.EMULATOR : KeyOrder.PRODUCTION;
    }

    public ServerLimits limits() {
        return this == EMULATOR ? ServerLimits.EMULATOR : ServerLimits.PRODUCTION;
    }
}

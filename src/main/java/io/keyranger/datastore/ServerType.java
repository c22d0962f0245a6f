package io.keyranger.datastore;

import io.keyranger.keys.KeyOrder;

/**
 * What kind of server a connection reaches, said explicitly rather than guessed from a host name: it decides the key
 * order and commit limits KeyRanger plans with.
 */
public enum ServerType {
    /** The Cloud SDK's legacy Datastore emulator: UTF-16 key order, 25 entity groups per transaction. */
    EMULATOR,
    /**
     * The Cloud SDK's Firestore emulator in Datastore mode ({@code gcloud emulators firestore start
     * --database-mode=datastore-mode}): production's UTF-8 key order and no entity-group limit, but 4 MiB requests
     * and no {@code __kind__}, {@code __namespace__} or {@code __property__} metadata, no {@code __scatter__} and no
     * managed export or import.
     */
    FIRESTORE_EMULATOR,
    /**
     * KeyRanger's production model server (benchmarks only): local, but ordered and limited as production, and keeping
     * versions as production does (its window answered at its own address as the Admin API answers production's).
     */
    MODEL,
    /** Firestore in Datastore mode: UTF-8 key order, no entity-group limit. */
    PRODUCTION;

    public KeyOrder keyOrder() {
        return this == EMULATOR ? KeyOrder.EMULATOR : KeyOrder.PRODUCTION;
    }

    public ServerLimits limits() {
        return switch (this) {
            case EMULATOR -> ServerLimits.EMULATOR;
            case FIRESTORE_EMULATOR -> ServerLimits.FIRESTORE_EMULATOR;
            case MODEL, PRODUCTION -> ServerLimits.PRODUCTION;
        };
    }

    /**
     * Whether the server answers {@code __kind__}, {@code __namespace__} and {@code __property__} queries. Without
     * them KeyRanger lists the kinds it knows ({@link KnownKinds}) and reads property names from a sample.
     */
    public boolean listsKinds() {
        return this != FIRESTORE_EMULATOR;
    }

    /** Whether the Admin API's managed {@code :export} and {@code :import} exist ({@code run --backup-to}). */
    public boolean hasManagedExportApi() {
        return this == EMULATOR || this == PRODUCTION;
    }

    /** Why {@code --as-of} is refused on a server that keeps no past ({@link #readsPast}). */
    public static final String NO_PAST = "The legacy Datastore emulator keeps no past versions (it ignores read_time),"
            + " so --as-of cannot read the past there: use the Firestore emulator in Datastore mode (demo --emulator"
            + " firestore) or a real database.";

    /**
     * Whether reads can ask for a past moment ({@code read_time}): Firestore in Datastore mode, its emulator and the
     * production model keep versions; the legacy emulator ignores the option and answers with the present.
     */
    public boolean readsPast() {
        return this != EMULATOR;
    }

    /** One of the Cloud SDK's emulators (legacy or Firestore), which {@code demo} and the tests start. */
    public boolean isEmulator() {
        return this == EMULATOR || this == FIRESTORE_EMULATOR;
    }

    /**
     * Whether the server answers many requests at once, each in about the same time whatever else it serves
     * (production, and its model): a request made beside others then still takes the server's unloaded time. The
     * emulators answer one request at a time, so a request made beside others waits for them.
     */
    public boolean servesAtOnce() {
        return !isEmulator();
    }
}

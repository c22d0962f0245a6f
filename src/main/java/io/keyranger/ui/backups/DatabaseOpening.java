package io.keyranger.ui.backups;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.DatastoreConnector;
import io.keyranger.datastore.Partition;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.Session;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.profile.ConnectionProfile;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * What the Backups tab opens instead of an export, off the FX thread: the connected database as of a moment, or
 * another database (a saved connection), read at one moment where its server keeps versions, as
 * {@code diff --from-profile} reads it. Either way its kinds are listed and counted there ({@link PastKinds}): all
 * of the past's, and another database's in its connection's namespace (compared with, and copied into, the connected
 * namespace).
 */
final class DatabaseOpening {
    /** A database opened: a session reading it, its kinds with their counts, and what the user is told of it. */
    record Opened(Session session, List<BackupsViewModel.KindRow> kinds, String note) {
        long total() {
            return kinds.stream().mapToLong(BackupsViewModel.KindRow::count).sum();
        }
    }

    private DatabaseOpening() {
    }

    /** {@code live} as of {@code typed} (RFC 3339 or {@code -15m}), checked against what its server keeps. */
    static Opened past(Session live, String typed, LongConsumer counted, Cancellation cancellation) {
        AtomicReference<String> told = new AtomicReference<>("");
        Session at = ReadWindow.open(live, typed, told::set);
        return new Opened(at, PastKinds.of(at, counted, cancellation), told.get());
    }

    /**
     * The database {@code profile} names, read-only, as a source for {@code live}: refused when it is {@code live}'s
     * own database; read at the moment it opens where its server keeps versions, else live (and said so).
     */
    static Opened other(Session live, ConnectionProfile profile, LongConsumer counted, Cancellation cancellation) {
        ConnectionSpec named = profile.toSpec();
        ConnectionSpec readOnly = new ConnectionSpec(named.emulatorHost(), named.projectId(), named.databaseId(),
                named.namespace(), named.credentialsFile(), true);
        ConnectionSpec spec = DatastoreConnector.identify(ConnectionRules.check(readOnly));
        AtomicReference<String> told = new AtomicReference<>("");
        Session source = SourceDatabase.open(live, spec, null, told::set);
        // its namespace only: what a copy reads there goes into the connected namespace, as restore --from-… does
        return new Opened(source, PastKinds.ofItsNamespace(source, counted, cancellation), told.get());
    }

    /** How the tab names another database on show: its saved connection's name and where it is. */
    static String label(ConnectionProfile profile) {
        return "connection " + profile.name();
    }

    /** The summary of another database opened. */
    static String summary(ConnectionProfile profile, Opened opened) {
        long total = opened.total();
        int kinds = opened.kinds().size();
        return String.format("%s (%s): %,d entit%s in %d kind%s. Read only; compare a kind with the connected "
                + "database, or restore (copy) it here. %s", Partition.of(opened.session().spec()).describe(),
                label(profile), total, total == 1 ? "y" : "ies", kinds, kinds == 1 ? "" : "s", opened.note());
    }
}

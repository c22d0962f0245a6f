package io.keyranger.ui.backups;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.DatastoreGateway;
import io.keyranger.datastore.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * What "the database as of T" holds, as the Backups tab lists an export's contents: each namespace's kinds with their
 * counts, all read through a session of that moment ({@code Session.asOf}), so a kind deleted since is listed and
 * one created since is not.
 */
final class PastKinds {
    private PastKinds() {
    }

    /** The kinds {@code past} reads, namespace by namespace, counted; {@code counted} hears the running total. */
    static List<BackupsViewModel.KindRow> of(Session past, LongConsumer counted, Cancellation cancellation) {
        DatastoreGateway gateway = new DatastoreGateway(past.datastore(), past.spec().server());
        return of(gateway, gateway.namespaces(), counted, cancellation);
    }

    /** As above, the kinds of {@code session}'s own namespace only (another database: what a copy reads). */
    static List<BackupsViewModel.KindRow> ofItsNamespace(Session session, LongConsumer counted,
                                                         Cancellation cancellation) {
        DatastoreGateway gateway = new DatastoreGateway(session.datastore(), session.spec().server());
        return of(gateway, List.of(session.spec().namespace()), counted, cancellation);
    }

    private static List<BackupsViewModel.KindRow> of(DatastoreGateway gateway, List<String> namespaces,
                                                     LongConsumer counted, Cancellation cancellation) {
        List<BackupsViewModel.KindRow> rows = new ArrayList<>();
        long[] total = {0};
        for (String namespace : namespaces) {
            for (String kind : gateway.kinds(namespace, false)) {
                if (cancellation.isCancelled()) {
                    return rows;
                }
                long before = total[0];
                long count = gateway.count(namespace, kind, (done, all) -> counted.accept(before + done),
                        cancellation).count();
                total[0] = before + count;
                rows.add(new BackupsViewModel.KindRow(namespace, kind, count));
            }
        }
        return rows;
    }
}

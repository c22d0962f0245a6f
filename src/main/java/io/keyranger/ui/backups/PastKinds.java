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
        List<BackupsViewModel.KindRow> rows = new ArrayList<>();
        long[] total = {0};
        for (String namespace : gateway.namespaces()) {
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

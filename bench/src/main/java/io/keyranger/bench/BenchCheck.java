package io.keyranger.bench;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Query;

/**
 * What the job left behind: entities at the start (the selected ones incremented exactly once, the others
 * untouched) and newcomers (each incremented at most once).
 */
record BenchCheck(long original, long originalRight, long selectedSeen, long newcomers, long newcomersProcessed,
                  long wrong) {
    boolean exact(long entities, long selected, long newcomersWritten) {
        return original == entities && originalRight == entities && selectedSeen == selected
                && newcomers == newcomersWritten && wrong == 0;
    }

    /** Reads every entity of {@code kind} back from the server and counts what the job did to it. */
    static BenchCheck of(Datastore datastore, String kind, BenchShape shape) {
        long[] c = new long[6];
        datastore.run(Query.newEntityQueryBuilder().setKind(kind).build()).forEachRemaining(e -> {
            long n = e.getLong("n");
            if (Newcomers.isNewcomer(e.getKey())) {
                c[3]++;
                if (n == 1) {
                    c[4]++;
                } else if (n != 0) {
                    c[5]++;
                }
                return;
            }
            c[0]++;
            boolean selects = shape.selects(e);
            if (selects) {
                c[2]++;
            }
            if (n == (selects ? 1 : 0)) {
                c[1]++;
            }
        });
        return new BenchCheck(c[0], c[1], c[2], c[3], c[4], c[5]);
    }
}

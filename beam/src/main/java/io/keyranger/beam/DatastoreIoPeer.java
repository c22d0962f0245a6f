package io.keyranger.beam;

import com.google.datastore.v1.Entity;
import com.google.datastore.v1.KindExpression;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.Value;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.datastore.DatastoreIO;
import org.apache.beam.sdk.io.gcp.datastore.DatastoreV1;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;

/**
 * The benchmark's peer: what an engineer writes with Beam's own DatastoreIO. Read the kind (split into
 * {@code numQuerySplits} queries up front, never re-split), add 1 to an integer property, write with plain upserts
 * (ramp-up throttling off). A retried bundle writes again, so its effect is not exactly once: the benchmark checks
 * every entity and reports any double increment.
 */
final class DatastoreIoPeer {
    private DatastoreIoPeer() {
    }

    static void build(Pipeline pipeline, String projectId, String databaseId, String emulatorHost, String namespace,
                      String kind, String property, int numQuerySplits) {
        Query query = Query.newBuilder().addKind(KindExpression.newBuilder().setName(kind)).build();
        DatastoreV1.Read read = DatastoreIO.v1().read().withProjectId(projectId).withQuery(query)
                .withNumQuerySplits(numQuerySplits);
        DatastoreV1.Write write = DatastoreIO.v1().write().withProjectId(projectId).withRampupThrottlingDisabled();
        if (!namespace.isEmpty()) {
            read = read.withNamespace(namespace);
        }
        if (!databaseId.isEmpty()) {
            read = read.withDatabaseId(databaseId);
            write = write.withDatabaseId(databaseId);
        }
        if (emulatorHost != null) {
            read = read.withLocalhost(emulatorHost);
            write = write.withLocalhost(emulatorHost);
        }
        pipeline.apply("DatastoreIO read " + kind, read)
                .apply("increment " + property, ParDo.of(new Increment(property)))
                .apply("DatastoreIO write", write);
    }

    /** Adds 1 to the property (0 when missing). */
    static final class Increment extends DoFn<Entity, Entity> {
        private final String property;
        private final Counter incremented = Metrics.counter(Increment.class, "incremented");

        Increment(String property) {
            this.property = property;
        }

        @ProcessElement
        public void process(@Element Entity entity, OutputReceiver<Entity> out) {
            Value old = entity.getPropertiesOrDefault(property, Value.newBuilder().setIntegerValue(0).build());
            out.output(entity.toBuilder().putProperties(property,
                    Value.newBuilder().setIntegerValue(old.getIntegerValue() + 1).build()).build());
            incremented.inc();
        }
    }
}

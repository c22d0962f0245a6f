package io.keyranger.beam;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.datastore.v1.Entity;
import com.google.datastore.v1.Filter;
import com.google.datastore.v1.KindExpression;
import com.google.datastore.v1.PropertyFilter;
import com.google.datastore.v1.Query;
import com.google.datastore.v1.Value;
import com.google.datastore.v1.client.DatastoreHelper;
import com.google.protobuf.NullValue;
import io.keyranger.mapper.MapperSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.datastore.DatastoreIO;
import org.apache.beam.sdk.io.gcp.datastore.DatastoreV1;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.ParDo;

/**
 * The benchmark's peer: what an engineer writes with Beam's own DatastoreIO. Read the kind (split into
 * {@code numQuerySplits} queries up front, never re-split; the mapper's equality filters, if any, go into the
 * query), add the mapper's amount to an integer property, write with plain upserts (ramp-up throttling off). A retried
 * bundle writes again, so its effect is not exactly once: the benchmark checks every entity and reports any double
 * increment.
 */
final class DatastoreIoPeer {
    private DatastoreIoPeer() {
    }

    static void build(Pipeline pipeline, String projectId, String databaseId, String emulatorHost, String namespace,
                      String kind, MapperSpec increment, int numQuerySplits) {
        Query.Builder query = Query.newBuilder().addKind(KindExpression.newBuilder().setName(kind));
        List<Filter> filters = filters(increment.json().get("where"));
        if (!filters.isEmpty()) {
            query.setFilter(filters.size() == 1 ? filters.get(0) : DatastoreHelper.makeAndFilter(filters).build());
        }
        String property = increment.json().get("property").asText();
        long amount = increment.json().path("amount").asLong(1);
        DatastoreV1.Read read = DatastoreIO.v1().read().withProjectId(projectId).withQuery(query.build())
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
                .apply("increment " + property, ParDo.of(new Increment(property, amount)))
                .apply("DatastoreIO write", write);
    }

    /** The spec's "where" list (already checked by {@link MapperSpec#parse}) as the query's equality filters. */
    private static List<Filter> filters(JsonNode where) {
        List<Filter> filters = new ArrayList<>();
        if (where == null || !where.isArray()) {
            return filters;
        }
        for (JsonNode clause : where) {
            JsonNode v = clause.get("value");
            Value.Builder value = v.isNull() ? Value.newBuilder().setNullValue(NullValue.NULL_VALUE)
                    : v.isBoolean() ? DatastoreHelper.makeValue(v.asBoolean())
                    : v.isIntegralNumber() ? DatastoreHelper.makeValue(v.asLong())
                    : v.isNumber() ? DatastoreHelper.makeValue(v.asDouble())
                    : DatastoreHelper.makeValue(v.asText());
            filters.add(DatastoreHelper.makeFilter(clause.get("property").asText(), PropertyFilter.Operator.EQUAL,
                    value).build());
        }
        return filters;
    }

    /** Adds the amount to the property (0 when missing). */
    static final class Increment extends DoFn<Entity, Entity> {
        private final String property;
        private final long amount;
        private final Counter incremented = Metrics.counter(Increment.class, "incremented");

        Increment(String property, long amount) {
            this.property = property;
            this.amount = amount;
        }

        @ProcessElement
        public void process(@Element Entity entity, OutputReceiver<Entity> out) {
            Value old = entity.getPropertiesOrDefault(property, DatastoreHelper.makeValue(0L).build());
            out.output(entity.toBuilder().putProperties(property,
                    DatastoreHelper.makeValue(old.getIntegerValue() + amount).build()).build());
            incremented.inc();
        }
    }
}

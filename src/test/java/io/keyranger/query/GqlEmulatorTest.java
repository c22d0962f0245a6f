package io.keyranger.query;

import io.keyranger.job.JobIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DatastoreException;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.StructuredQuery.CompositeFilter;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.StructuredQuery;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;

/**
 * GQL as a job's input on the real emulator: what the emulator itself accepts beside a key range, that the client
 * applies the other conditions exactly as the server's index does, and that a job maps exactly the matching entities.
 */
@OnDataEmulators
class GqlEmulatorTest {
    @Parameter
    ServerType server;
    private ConnectionSpec conn;
    private Datastore datastore;
    private final List<Entity> SEEDED = new ArrayList<>();

    @BeforeEach
    void seed() {
        conn = SharedEmulator.freshProject(server, "gql");
        datastore = SharedEmulator.connect(conn);
        for (int i = 1; i <= 90; i++) {
            Key key = switch (i % 3) {
                case 0 -> datastore.newKeyFactory().setKind("Account").newKey(i);
                case 1 -> datastore.newKeyFactory().setKind("Account").newKey("n-" + i);
                default -> datastore.newKeyFactory().setKind("Account").addAncestor(PathElement.of("Org", "o" + i % 2))
                        .newKey(i);
            };
            Entity.Builder b = Entity.newBuilder(key).set("tier", i % 2 == 0 ? "pro" : "free");
            switch (i % 6) {
                case 0 -> b.set("balance", "text " + i); // a string among numbers
                case 1 -> b.set("balance", i * 1.5); // doubles sort after every integer and string
                case 2 -> b.set("balance", LongValue.newBuilder(i * 10L).setExcludeFromIndexes(true).build());
                case 3 -> { } // missing
                case 4 -> b.set("balance", ListValue.of(LongValue.of(i), LongValue.of(i + 500L)));
                default -> b.set("balance", (long) i * 10);
            }
            b.set("region", i % 4 == 0 ? "eu" : i % 4 == 1 ? "us" : "ap");
            SEEDED.add(b.build());
        }
        datastore.put(SEEDED.toArray(new Entity[0]));
        datastore.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Other").newKey(1)).set("tier", "pro")
                .set("balance", 1000L).build());
    }

    private Set<Key> serverKeys(String gql) {
        Set<Key> keys = new HashSet<>();
        datastore.run(Query.newGqlQueryBuilder(Query.ResultType.KEY, gql).setAllowLiteral(true).build())
                .forEachRemaining(keys::add);
        return keys;
    }

    private Set<Key> clientKeys(String gql) {
        JobQuery query = JobQuery.of(Gql.parse(gql, conn.projectId(), ""), server.keyOrder());
        Set<Key> keys = new HashSet<>();
        for (Entity e : SEEDED) {
            if (query.matches(e)) {
                keys.add(e.getKey());
            }
        }
        return keys;
    }

    @Test
    void theClientDecidesEveryInequalityAsTheEmulatorsIndexDoes() {
        for (String condition : List.of("balance > 100", "balance >= 100", "balance < 100", "balance <= 60",
                "balance > 'text 3'", "balance < 50.0", "balance > 500", "region > 'eu'", "region <= 'ap'",
                "__key__ > KEY(Account, 40)", "__key__ < KEY(Account, 'n-5')")) {
            String gql = "SELECT __key__ FROM Account WHERE " + condition;
            Set<Key> server = serverKeys(gql);
            assertThat(clientKeys(gql)).as(condition).isEqualTo(server);
            assertThat(server).as("a condition that selects something: " + condition).isNotEmpty();
        }
    }

    /** Operands as GQL literals: one or more of every type GQL can write, some equal across types. */
    private static final List<String> OPERANDS = List.of("NULL", "FALSE", "TRUE", "-5", "0", "1", "100", "-1.5",
            "0.0", "1.0", "''", "'a'", "'zz'", "'\u00e9'", "BLOB('YQ')", "BLOB('enp')", "BLOB('_w')",
            "DATETIME('1960-01-01T00:00:00Z')", "DATETIME('1970-01-01T00:00:00.000001Z')",
            "DATETIME('2020-01-01T00:00:00Z')", "KEY(K, 1)", "KEY(K, 'a')", "KEY(NAMESPACE('zz'), A, 1)");

    /** Stored values of every type: each operand's, and values no GQL literal writes (arrays, points, NaN, ...). */
    private List<Value<?>> mixedValues() {
        KeyFactory k = datastore.newKeyFactory().setKind("K");
        List<Value<?>> values = new ArrayList<>();
        for (String operand : OPERANDS) {
            values.add(Gql.parse("SELECT * FROM Mixed WHERE p = " + operand, conn.projectId(), "").conditions()
                    .get(0).value());
        }
        values.addAll(List.of(DoubleValue.of(-0.0), DoubleValue.of(Double.NaN), DoubleValue.of(Double.POSITIVE_INFINITY),
                DoubleValue.of(Double.NEGATIVE_INFINITY), DoubleValue.of(1e-9), LongValue.of(Long.MIN_VALUE),
                StringValue.of("Z"), StringValue.of("\uff21"), StringValue.of("\ud83d\ude00"),
                BlobValue.of(Blob.copyFrom("\uff21".getBytes(StandardCharsets.UTF_8))),
                LatLngValue.of(LatLng.of(0, 0)), LatLngValue.of(LatLng.of(10, 20)), KeyValue.of(k.newKey("\ud83d\ude00")),
                KeyValue.of(datastore.newKeyFactory().setKind("K").addAncestor(PathElement.of("K", 1)).newKey(1)),
                TimestampValue.of(Timestamp.ofTimeMicroseconds(100)), ListValue.newBuilder().build(),
                ListValue.of(LongValue.of(1), StringValue.of("a")), ListValue.of(BooleanValue.of(true), KeyValue.of(
                        k.newKey(1))), ListValue.of(NullValue.of(), DoubleValue.of(2.5)),
                EntityValue.of(FullEntity.newBuilder().set("x", 1L).build()),
                LongValue.newBuilder(5).setExcludeFromIndexes(true).build()));
        return values;
    }

    private Set<Key> union(String... conditions) {
        Set<Key> keys = new HashSet<>();
        for (String c : conditions) {
            keys.addAll(serverKeys("SELECT __key__ FROM Mixed WHERE " + c));
        }
        return keys;
    }

    /** The emulator's own order of some operands (a kind holding one of each, read server.keyOrder() BY the value). */
    private List<String> serverSorted(List<String> operands) {
        List<Entity> probes = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            probes.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Operand").newKey(i + 1)).set("p",
                    Gql.parse("SELECT * FROM X WHERE p = " + operands.get(i), conn.projectId(), "").conditions().get(0)
                            .value()).build());
        }
        datastore.put(probes.toArray(new Entity[0]));
        List<String> sorted = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Operand").setOrderBy(StructuredQuery.OrderBy.asc("p"))
                .build()).forEachRemaining(key -> sorted.add(operands.get(key.getId().intValue() - 1)));
        datastore.delete(probes.stream().map(Entity::getKey).toArray(Key[]::new));
        return sorted;
    }

    @Test
    void everyValueTypeAgainstEveryOtherWithEveryOperatorAsTheEmulatorAnswers() {
        List<Value<?>> values = mixedValues();
        List<Entity> mixed = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
            mixed.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Mixed").newKey(i + 1)).set("p", values.get(i))
                    .build());
        }
        mixed.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Mixed").newKey("no-p")).set("q", 1L).build());
        datastore.put(mixed.toArray(new Entity[0]));
        List<Entity> stored = new ArrayList<>(); // as a job reads them back
        datastore.run(Query.newEntityQueryBuilder().setKind("Mixed").build()).forEachRemaining(stored::add);
        assertThat(stored).hasSize(values.size() + 1);
        Map<String, Set<Key>> expected = new LinkedHashMap<>();
        for (String x : OPERANDS) {
            for (String op : List.of("<", "<=", ">", ">=")) {
                expected.put("p " + op + " " + x, union("p " + op + " " + x));
            }
            expected.put("p != " + x, union("p < " + x, "p > " + x)); // the emulator has no !=: its definition
            expected.put("p IN (" + x + ")", union("p = " + x));
        }
        for (int i = 0; i + 1 < OPERANDS.size(); i++) { // lists of neighbours: most mix two types
            List<String> list = List.of(OPERANDS.get(i), OPERANDS.get(i + 1), OPERANDS.get((i * 7) % OPERANDS.size()));
            String in = String.join(", ", list);
            expected.put("p IN (" + in + ")", union(list.stream().map(x -> "p = " + x).toArray(String[]::new)));
            List<String> s = serverSorted(list); // NOT IN: the gaps around the listed values, in the server's order
            expected.put("p NOT IN (" + in + ")", union("p < " + s.get(0), "p > " + s.get(0) + " AND p < " + s.get(1),
                    "p > " + s.get(1) + " AND p < " + s.get(2), "p > " + s.get(2)));
        }
        List<String> wrong = new ArrayList<>();
        expected.forEach((condition, answer) -> {
            JobQuery query = JobQuery.of(Gql.parse("SELECT * FROM Mixed WHERE " + condition, conn.projectId(), ""),
                    server.keyOrder());
            Set<Key> client = new HashSet<>();
            stored.stream().filter(query::matches).forEach(e -> client.add(e.getKey()));
            if (!client.equals(answer)) {
                wrong.add(condition + ": emulator " + names(answer, values) + ", client " + names(client, values));
            }
        });
        assertThat(wrong).as("conditions the client decides unlike the emulator").isEmpty();
        assertThat(expected).hasSizeGreaterThan(OPERANDS.size() * 7);
        assertThat(expected.get("p > 'a'")).as("a blob after 'a' by its bytes").contains(key(values, "BLOB('enp')"));
        // The legacy emulator indexes an empty array as null; the Firestore emulator in Datastore mode gives it no
        // entry, as production documents (an empty array is not indexed): production matches the Firestore emulator.
        if (server == ServerType.EMULATOR) {
            assertThat(expected.get("p < 1.0")).as("an empty array indexes as null").contains(key(values, "[]"));
        } else {
            assertThat(expected.get("p <= NULL")).as("an empty array has no index entry")
                    .doesNotContain(key(values, "[]")).contains(key(values, "NULL"));
        }
    }

    private Key key(List<Value<?>> values, String shown) {
        for (int i = 0; i < values.size(); i++) {
            if (shown(values.get(i)).equals(shown) || (i < OPERANDS.size() && OPERANDS.get(i).equals(shown))) {
                return datastore.newKeyFactory().setKind("Mixed").newKey(i + 1);
            }
        }
        throw new IllegalArgumentException(shown);
    }

    private static String shown(Value<?> v) {
        return v instanceof ListValue list ? list.get().stream().map(GqlEmulatorTest::shown).toList().toString()
                : v.getType() + ":" + v.get();
    }

    private List<String> names(Set<Key> keys, List<Value<?>> values) {
        return keys.stream().sorted(Comparator.comparing(Key::getNameOrId, Comparator.comparing(
                Object::toString))).map(k -> k.hasId() ? shown(values.get(k.getId().intValue() - 1)) : "(no p)").toList();
    }

    /**
     * What each emulator accepts beside the key range KeyRanger sends. The legacy emulator refuses a second inequality,
     * {@code !=} and {@code IN}; the Firestore emulator in Datastore mode answers all three, as production does:
     * Google's "Query with range and inequality filters on multiple properties" (cloud.google.com/datastore/docs/
     * multiple-range-fields) and the v1 API's PropertyFilter operators (NOT_EQUAL, IN, NOT_IN). KeyRanger still applies
     * those conditions on the client, which both answer alike (the matrix above).
     */
    @Test
    void theEmulatorAllowsEqualitiesAndAncestorsBesideAKeyRangeButNoSecondInequality() {
        Key start = datastore.newKeyFactory().setKind("Account").newKey(10);
        PropertyFilter range = PropertyFilter.ge("__key__", start);
        // what KeyRanger sends to the server: fine
        List<Key> ok = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Account").setFilter(CompositeFilter.and(range,
                PropertyFilter.eq("tier", "pro"), PropertyFilter.hasAncestor(
                        datastore.newKeyFactory().setKind("Org").newKey("o0")))).build()).forEachRemaining(ok::add);
        assertThat(ok).isNotEmpty();
        // what it keeps for the client
        Query<Key> secondInequality = Query.newKeyQueryBuilder().setKind("Account").setFilter(
                CompositeFilter.and(range, PropertyFilter.gt("balance", 5L))).build();
        Query<Key> notEqual = Query.newKeyQueryBuilder().setKind("Account").setFilter(
                PropertyFilter.neq("tier", "pro")).build();
        Query<Key> in = Query.newKeyQueryBuilder().setKind("Account").setFilter(
                CompositeFilter.and(range, PropertyFilter.in("tier", ListValue.of("pro", "x")))).build();
        if (server == ServerType.EMULATOR) { // refused by the legacy emulator
            assertThatThrownBy(() -> datastore.run(secondInequality).hasNext())
                    .isInstanceOf(DatastoreException.class).hasMessageContaining("inequality");
            assertThatThrownBy(() -> datastore.run(notEqual).hasNext()).isInstanceOf(DatastoreException.class);
            assertThatThrownBy(() -> datastore.run(in).hasNext()).isInstanceOf(DatastoreException.class);
        } else { // answered by the Firestore emulator, as by production
            assertThat(datastore.run(secondInequality).hasNext()).isTrue();
            assertThat(datastore.run(notEqual).hasNext()).isTrue();
            assertThat(datastore.run(in).hasNext()).isTrue();
        }
    }

    @Test
    void aJobOverAQueryMapsExactlyTheMatchingEntities() throws Exception {
        String gql = "SELECT * FROM Account WHERE tier = 'pro' AND balance > 100 AND region IN ('eu', 'ap')";
        Set<Key> expected = new HashSet<>();
        for (Entity e : SEEDED) {
            if (e.getString("tier").equals("pro") && !e.getString("region").equals("us")
                    && serverKeys("SELECT __key__ FROM Account WHERE balance > 100").contains(e.getKey())) {
                expected.add(e.getKey());
            }
        }
        assertThat(expected).hasSizeGreaterThan(5);
        Map<Key, Entity> before = read();
        MapperSpec mapper = MapperSpec.parse("{\"template\":\"set\",\"property\":\"flag\",\"value\":\"seen\"}")
                .withGql(gql);
        JobSpec spec = new JobSpec(JobIds.newJobId("Account"), "", "Account", mapper, 4, 3, 7, 0);
        JobResult result = new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits())
                .start(spec, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        Map<Key, Entity> after = read();
        for (Map.Entry<Key, Entity> e : after.entrySet()) {
            boolean flagged = e.getValue().contains("flag");
            assertThat(flagged).as(e.getKey().toString()).isEqualTo(expected.contains(e.getKey()));
            assertThat(e.getValue().getProperties().get("balance"))
                    .isEqualTo(before.get(e.getKey()).getProperties().get("balance"));
        }
        long proCount = SEEDED.stream().filter(e -> e.getString("tier").equals("pro")).count();
        assertThat(result.total("written")).isEqualTo(expected.size());
        assertThat(result.total("read")).isEqualTo(proCount);
        assertThat(result.total(Mappers.notMatchingCounter())).isEqualTo(proCount - expected.size());
        assertThat(datastore.get(datastore.newKeyFactory().setKind("Other").newKey(1)).contains("flag")).isFalse();
    }

    @Test
    void aDeleteOverAnAncestorQueryDeletesOnlyThatSubtree() throws Exception {
        datastore.put(Entity.newBuilder(datastore.newKeyFactory().setKind("Doomed").addAncestor(
                PathElement.of("Org", "x")).newKey(1)).build(), Entity.newBuilder(datastore.newKeyFactory()
                .setKind("Doomed").addAncestor(PathElement.of("Org", "x")).newKey(2)).build(), Entity.newBuilder(
                datastore.newKeyFactory().setKind("Doomed").addAncestor(PathElement.of("Org", "y")).newKey(3)).build());
        MapperSpec mapper = MapperSpec.parse("{\"template\":\"delete\"}")
                .withGql("SELECT __key__ FROM Doomed WHERE __key__ HAS ANCESTOR KEY(Org, 'x')");
        JobResult result = new AdaptiveSplitExecutor(datastore, server.keyOrder(), server.limits())
                .start(new JobSpec(JobIds.newJobId("Doomed"), "", "Doomed", mapper, 2, 2, 5, 0),
                        JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        List<Key> left = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setKind("Doomed").build()).forEachRemaining(left::add);
        assertThat(left).extracting(Key::getId).containsExactly(3L);
    }

    private Map<Key, Entity> read() {
        Map<Key, Entity> all = new HashMap<>();
        datastore.run(Query.newEntityQueryBuilder().setKind("Account").build())
                .forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }
}

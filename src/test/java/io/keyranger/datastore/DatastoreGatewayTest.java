package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Cursor;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.TimestampValue;
import io.keyranger.demo.DemoSeeder;
import io.keyranger.keys.KeyFormat;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DatastoreGatewayTest {
    private static final int ACCOUNTS = 2_300;
    private static Datastore datastore;
    private static DatastoreGateway gateway;

    @BeforeAll
    static void seed() {
        datastore = SharedEmulator.connect(SharedEmulator.freshProject("gateway"));
        new DemoSeeder(datastore).seed(ACCOUNTS, ProgressListener.NONE, Cancellation.NEVER);
        Key bookkeeping = datastore.newKeyFactory().setKind(BookkeepingKinds.PREFIX + "Job").newKey("job-1");
        datastore.put(Entity.newBuilder(bookkeeping).set("state", "done").build());
        gateway = new DatastoreGateway(datastore);
    }

    @Test
    void listsNamespacesDefaultFirst() {
        assertThat(gateway.namespaces()).containsExactly("", "staging");
    }

    @Test
    void hidesBookkeepingKindsUnlessAsked() {
        assertThat(gateway.kinds("", false)).containsExactly("Account", "Event", "Org");
        assertThat(gateway.kinds("", true)).contains(BookkeepingKinds.PREFIX + "Job");
        assertThat(gateway.kinds("staging", false)).containsExactly("Account");
    }

    @Test
    void reportsPropertiesWithTheirTypes() {
        List<PropertyInfo> properties = gateway.properties("", "Account");
        assertThat(properties).extracting(PropertyInfo::name).containsExactly("active", "balance", "createdAt", "tier");
        assertThat(properties.get(0).types()).containsExactly("boolean");
        assertThat(properties.get(1).types()).containsExactly("integer");
        assertThat(properties.get(2).types()).containsExactly("timestamp");
        assertThat(properties.get(3).types()).containsExactly("string");
    }

    /** One index representation holds two types: the data says which a property has; a sample miss stays ambiguous. */
    @Test
    void tellsIntegersFromTimestampsAndStringsFromBlobsByTheData() {
        var ds = SharedEmulator.connect(SharedEmulator.freshProject("types"));
        var factory = ds.newKeyFactory().setKind("Mixed");
        for (long id = 1; id <= 50; id++) {
            var entity = Entity.newBuilder(factory.newKey(id))
                    .set("when", id % 2 == 0 ? LongValue.of(id)
                            : TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(id, 0)))
                    .set("code", BlobValue.of(Blob.copyFrom(new byte[] {1})))
                    .set("tags", ListValue.of("a", "b"));
            ds.put(entity.build());
        }
        List<PropertyInfo> properties = new DatastoreGateway(ds).properties("", "Mixed");
        assertThat(properties).extracting(PropertyInfo::name).containsExactly("code", "tags", "when");
        assertThat(properties.get(0).types()).containsExactly("blob");
        assertThat(properties.get(1).types()).containsExactly("string");
        assertThat(properties.get(2).types()).containsExactly("integer", "timestamp");
        // a representation no sampled value has (here: none sampled for a property the sample never met)
        assertThat(PropertyInfo.readableTypes("INT64", Set.of())).containsExactly("integer/timestamp");
        assertThat(PropertyInfo.readableTypes("DOUBLE", Set.of("integer"))).containsExactly("double");
    }

    @Test
    void countsExactlyWithAKeysOnlyScanWhereCountIsUnimplemented() {
        AtomicInteger progressCalls = new AtomicInteger();
        EntityCount count = gateway.count("", "Account", (done, total) -> progressCalls.incrementAndGet(), Cancellation.NEVER);
        assertThat(count.count()).isEqualTo(ACCOUNTS);
        assertThat(count.method()).isEqualTo(EntityCount.Method.KEYS_ONLY_SCAN);
        assertThat(progressCalls.get()).isGreaterThanOrEqualTo(3); // 2,300 keys in pages of 1,000
        assertThat(gateway.count("staging", "Account", ProgressListener.NONE, Cancellation.NEVER).count())
                .isEqualTo(230);
        assertThat(gateway.count("", "NoSuchKind", ProgressListener.NONE, Cancellation.NEVER).count()).isZero();
    }

    @Test
    void countingStopsWhenCancelled() {
        AtomicInteger pages = new AtomicInteger();
        assertThatThrownBy(() -> gateway.count("", "Account", (done, total) -> pages.incrementAndGet(),
                () -> pages.get() >= 1))
                .isInstanceOf(CancellationException.class);
        assertThat(pages.get()).isEqualTo(1);
    }

    @Test
    void pagesWithCursorsThroughEveryEntityOnce() {
        Set<Key> seen = new HashSet<>();
        List<Integer> sizes = new ArrayList<>();
        Cursor cursor = null;
        do {
            EntityPage page = gateway.page("", "Event", cursor, 70);
            sizes.add(page.entities().size());
            page.entities().forEach(e -> assertThat(seen.add(e.getKey())).as("seen once: %s", e.getKey()).isTrue());
            cursor = page.endCursor();
        } while (cursor != null);
        int events = 230; // max(50, 2300 / 10)
        assertThat(seen).hasSize(events);
        assertThat(sizes).hasSize(4).startsWith(70, 70, 70).endsWith(events - 210);
    }

    @Test
    void aFullLastPageHasNoNextPage() {
        EntityPage page = gateway.page("staging", "Account", null, 230);
        assertThat(page.entities()).hasSize(230);
        assertThat(page.hasMore()).isFalse();
    }

    @Test
    void rendersEntitiesAsReadableJson() {
        Entity org = gateway.page("", "Org", null, 1).entities().get(0);
        String json = EntityJson.toPrettyJson(org);
        assertThat(json).contains("\"key\" : \"Org:\\\"org-00\\\"\"").contains("\"plan\"");
        Key child = Key.newBuilder("p", "Account", 7, "").addAncestor(PathElement.of("Org", "a"))
                .build();
        assertThat(KeyFormat.format(child)).isEqualTo("Org:\"a\" > Account:7");
    }
}

package io.keyranger.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DemoSeederTest {
    private static final int ACCOUNTS = 400;
    private static Datastore datastore;
    private static Map<String, Long> summary;
    private static final AtomicLong lastProgress = new AtomicLong();

    @BeforeAll
    static void seed() {
        ConnectionSpec spec = SharedEmulator.freshProject("seed");
        datastore = SharedEmulator.connect(spec);
        summary = new DemoSeeder(datastore).seed(ACCOUNTS, (done, total) -> lastProgress.accumulateAndGet(done, Math::max),
                Cancellation.NEVER);
    }

    @Test
    void writesWhatItReports() {
        DemoDataset dataset = new DemoDataset("p", "", ACCOUNTS);
        assertThat(summary).containsEntry("(default)/Account", (long) ACCOUNTS)
                .containsEntry("(default)/Org", (long) dataset.orgCount())
                .containsEntry("(default)/Event", (long) dataset.eventCount())
                .containsEntry("staging/Account", (long) dataset.secondNamespaceAccounts());
        assertThat(keys("", "Account")).hasSize(ACCOUNTS);
        assertThat(keys("staging", "Account")).hasSize(dataset.secondNamespaceAccounts());
        long total = summary.values().stream().mapToLong(Long::longValue).sum();
        assertThat(lastProgress.get()).isEqualTo(total);
    }

    @Test
    void mixesTheKeyShapesThatDefeatLexicalSplitting() {
        List<Key> accounts = keys("", "Account");
        long denseLowIds = accounts.stream().filter(k -> k.hasId() && k.getId() <= ACCOUNTS && k.getAncestors().isEmpty()).count();
        long scatteredIds = accounts.stream().filter(k -> k.hasId() && k.getId() > 1_000_000L).count();
        long userPrefix = accounts.stream().filter(k -> k.hasName() && k.getName().startsWith("user-")).count();
        long named = accounts.stream().filter(Key::hasName).count();
        long parented = accounts.stream().filter(k -> !k.getAncestors().isEmpty()).count();
        assertThat(denseLowIds).isEqualTo(ACCOUNTS / 5);
        assertThat(scatteredIds).isEqualTo(ACCOUNTS / 5);
        assertThat(parented).isEqualTo(ACCOUNTS / 10);
        assertThat(userPrefix).isGreaterThan(named / 3);
        assertThat(accounts).extracting(k -> k.hasName() ? k.getName() : "")
                .contains("zoë", "日本-顧客", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢");
        assertThat(accounts.stream().filter(k -> !k.getAncestors().isEmpty()))
                .allMatch(k -> k.getAncestors().get(0).getKind().equals("Org"));
    }

    @Test
    void accountsCarryTypedProperties() {
        Entity any = datastore.run(Query.newEntityQueryBuilder().setKind("Account").setLimit(1).build()).next();
        assertThat(any.getLong("balance")).isBetween(0L, 10_000L);
        assertThat(any.getString("tier")).isIn("free", "pro", "enterprise");
        assertThat(any.contains("active")).isTrue();
        assertThat(any.getTimestamp("createdAt")).isNotNull();
    }

    @Test
    void reseedingLeavesTheSameData() {
        new DemoSeeder(datastore).seed(ACCOUNTS, (d, t) -> { }, Cancellation.NEVER);
        assertThat(keys("", "Account")).hasSize(ACCOUNTS);
    }

    private static List<Key> keys(String namespace, String kind) {
        List<Key> keys = new ArrayList<>();
        datastore.run(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(kind).build()).forEachRemaining(keys::add);
        return keys;
    }
}

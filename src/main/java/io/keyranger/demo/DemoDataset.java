package io.keyranger.demo;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.PathElement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The demo data: a kind {@code Account} whose keys show why scatter sampling matters. It mixes a dense block of low
 * numeric ids left over from testing, ids scattered over the whole long range, names with heavily skewed prefixes, a
 * few non-ASCII names (one outside the Basic Multilingual Plane), and Accounts under a parent {@code Org}. A lexical
 * split of that key space is badly unbalanced; a scatter-sampled one is not. Generation is deterministic.
 */
public final class DemoDataset {
    public static final String ACCOUNT = "Account";
    public static final String ORG = "Org";
    public static final String EVENT = "Event";
    public static final String SECOND_NAMESPACE = "staging";
    static final List<String> NON_ASCII_NAMES = List.of("zoë", "Ærøskøbing", "ñandú", "Δέλτα", "Ωmega",
            "日本-顧客", "😀-emoji", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢");
    private static final String[] TIERS = {"free", "free", "free", "free", "free", "free", "free", "pro", "pro",
        "enterprise"};
    private static final String[] EVENT_TYPES = {"login", "payment", "refund", "signup"};
    private static final Timestamp EPOCH = Timestamp.parseTimestamp("2024-01-01T00:00:00Z");

    private final String projectId;
    private final String databaseId;
    private final int accounts;

    public DemoDataset(String projectId, String databaseId, int accounts) {
        if (accounts < 20) {
            throw new IllegalArgumentException("the demo needs at least 20 accounts");
        }
        this.projectId = projectId;
        this.databaseId = databaseId;
        this.accounts = accounts;
    }

    public int orgCount() {
        return Math.max(5, Math.min(50, accounts / 400));
    }

    public int eventCount() {
        return Math.max(50, accounts / 10);
    }

    public int secondNamespaceAccounts() {
        return Math.max(50, accounts / 10);
    }

    /** All entities of the default namespace, in a deterministic order. */
    public List<Entity> defaultNamespaceEntities() {
        Random random = new Random(42);
        List<Entity> out = new ArrayList<>(accounts + orgCount() + eventCount());
        KeyFactory orgs = keys("", ORG);
        for (int i = 0; i < orgCount(); i++) {
            out.add(Entity.newBuilder(orgs.newKey(String.format("org-%02d", i)))
                    .set("title", "Organisation " + i).set("plan", TIERS[random.nextInt(TIERS.length)]).build());
        }
        out.addAll(accountEntities("", random));
        KeyFactory events = keys("", EVENT);
        for (int i = 1; i <= eventCount(); i++) {
            out.add(Entity.newBuilder(events.newKey(i))
                    .set("type", EVENT_TYPES[random.nextInt(EVENT_TYPES.length)])
                    .set("at", timestamp(random))
                    .set("amount", random.nextInt(500)).build());
        }
        return out;
    }

    /** The second namespace's own Accounts, all with string names. */
    public List<Entity> secondNamespaceEntities() {
        Random random = new Random(7);
        KeyFactory factory = keys(SECOND_NAMESPACE, ACCOUNT);
        List<Entity> out = new ArrayList<>();
        for (int i = 0; i < secondNamespaceAccounts(); i++) {
            out.add(account(factory.newKey(String.format("stage-user-%05d", i)), random));
        }
        return out;
    }

    private List<Entity> accountEntities(String namespace, Random random) {
        KeyFactory factory = keys(namespace, ACCOUNT);
        int nonAscii = NON_ASCII_NAMES.size();
        int parented = accounts / 10;
        int dense = accounts / 5;
        int scattered = accounts / 5;
        int named = accounts - nonAscii - parented - dense - scattered;
        List<Entity> out = new ArrayList<>(accounts);
        for (long id = 1; id <= dense; id++) {
            out.add(account(factory.newKey(id), random));
        }
        Set<Long> ids = new HashSet<>();
        while (ids.size() < scattered) {
            long id = 1_000_000L + (random.nextLong() >>> 11);
            if (ids.add(id)) {
                out.add(account(factory.newKey(id), random));
            }
        }
        Set<String> names = new HashSet<>();
        while (names.size() < named) {
            String name = skewedPrefix(random) + String.format("%06x", random.nextInt(1 << 24));
            if (names.add(name)) {
                out.add(account(factory.newKey(name), random));
            }
        }
        for (String name : NON_ASCII_NAMES) {
            out.add(account(factory.newKey(name), random));
        }
        for (int i = 0; i < parented; i++) {
            String org = String.format("org-%02d", random.nextInt(orgCount()));
            Key key = Key.newBuilder(projectId, ACCOUNT, 1 + i, databaseId).setNamespace(namespace)
                    .addAncestor(PathElement.of(ORG, org)).build();
            out.add(account(key, random));
        }
        return out;
    }

    /** Most names share one prefix, a few share others: the skew that defeats lexical splitting. */
    private static String skewedPrefix(Random random) {
        int roll = random.nextInt(100);
        if (roll < 60) {
            return "user-";
        }
        if (roll < 85) {
            return "acct-";
        }
        return roll < 95 ? "test-" : "zz-legacy-";
    }

    private static Entity account(Key key, Random random) {
        return Entity.newBuilder(key)
                .set("balance", random.nextInt(10_000))
                .set("tier", TIERS[random.nextInt(TIERS.length)])
                .set("active", random.nextInt(100) < 85)
                .set("createdAt", timestamp(random))
                .build();
    }

    private static Timestamp timestamp(Random random) {
        return Timestamp.ofTimeSecondsAndNanos(EPOCH.getSeconds() + random.nextInt(60 * 60 * 24 * 700), 0);
    }

    private KeyFactory keys(String namespace, String kind) {
        return new KeyFactory(projectId, namespace, databaseId).setKind(kind);
    }
}

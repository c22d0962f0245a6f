package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import com.google.cloud.datastore.StringValue;
import io.keyranger.backup.RestoreSpec;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * {@code restore --from-project P --with-ancestors} on each emulator: a sample of a kind of children (orders under
 * customers, some customers under a region, some orders under orders) copied with the ancestors the source holds, so
 * that each copied entity's group is whole. What the target holds is read back with the emulator's own queries and
 * compared, entity by entity, with the source's entities as a copy places them (written out here by hand).
 */
@OnDataEmulators
class CopyWithAncestorsCliTest {
    private static final String ORDER = "Order";

    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    /** A source and a target project on this emulator, with what each held before the copy. */
    private record Pair(ConnectionSpec source, Datastore from, ConnectionSpec target, Datastore to,
                        Map<Key, Entity> sourceEntities, Map<Key, Entity> before) {
    }

    /**
     * The source: region "r-ü" with two customers, eight root customers (one named U+FFFF), six orders each, two of
     * the first customer's orders with orders under them, and two orders under a customer the source does not hold.
     * The target holds a customer of its own and, changed, one of the source's ({@code c2}).
     */
    private Pair seeded(String name) {
        ConnectionSpec source = SharedEmulator.freshProject(server, name + "-src");
        ConnectionSpec target = SharedEmulator.freshProject(server, name + "-tgt");
        Datastore from = SharedEmulator.connect(source);
        Datastore to = SharedEmulator.connect(target);
        List<Entity> all = new ArrayList<>();
        Key region = Key.newBuilder(source.projectId(), "Region", "r-ü").build();
        all.add(Entity.newBuilder(region).set("label", "north").build());
        List<Key> customers = new ArrayList<>();
        for (String c : List.of("c1", "c2", "ç3", "c4", "c5", "c6", "c7", "\uFFFF")) {
            customers.add(Key.newBuilder(source.projectId(), "Customer", c).build());
        }
        for (String c : List.of("c8", "c9")) {
            customers.add(Key.newBuilder(region, "Customer", c).build());
        }
        for (Key customer : customers) {
            all.add(Entity.newBuilder(customer).set("name", "Customer " + customer.getName())
                    .set("email", StringValue.newBuilder(customer.getName() + "@example.com")
                            .setExcludeFromIndexes(true).build()).build());
            for (int i = 1; i <= 6; i++) {
                Key order = Key.newBuilder(customer, ORDER, "o" + i).build();
                all.add(order(order, customer, i));
                if (customer.getName().equals("c1") && i <= 2) {
                    for (int j = 1; j <= 3; j++) {
                        all.add(order(Key.newBuilder(order, ORDER, "o" + i + "-" + j).build(), customer, 10 * i + j));
                    }
                }
            }
        }
        Key ghost = Key.newBuilder(source.projectId(), "Customer", "ghost").build();
        for (int i = 1; i <= 2; i++) {
            all.add(order(Key.newBuilder(ghost, ORDER, "g" + i).build(), ghost, 100 + i));
        }
        SharedEmulator.putAll(from, all);
        Map<Key, Entity> sourceEntities = new HashMap<>();
        all.forEach(e -> sourceEntities.put(placed(e.getKey(), target.projectId()), placed(e, target.projectId())));

        Key c2 = placed(customers.get(1), target.projectId());
        SharedEmulator.putAll(to, List.of(Entity.newBuilder(sourceEntities.get(c2)).set("name", "renamed here").build(),
                Entity.newBuilder(Key.newBuilder(target.projectId(), "Customer", "mine").build()).set("n", 1).build()));
        Pair p = new Pair(source, from, target, to, sourceEntities, everything(to));
        settle();
        return p;
    }

    private static Entity order(Key key, Key customer, long total) {
        return Entity.newBuilder(key).set("total", total).set("customer", customer).build();
    }

    /** A source entity as a copy writes it: its key and its (indexed) key value in the target's project. */
    private static Entity placed(Entity e, String project) {
        Entity.Builder b = Entity.newBuilder(placed(e.getKey(), project), e);
        if (e.contains("customer")) {
            b.set("customer", placed(e.getKey("customer"), project));
        }
        return b.build();
    }

    private static Key placed(Key key, String project) {
        return Key.newBuilder(key).setProjectId(project).build();
    }

    /** Every entity of the user's kinds in {@code datastore}, as its queries answer. */
    private static Map<Key, Entity> everything(Datastore datastore) {
        Map<Key, Entity> all = new HashMap<>();
        for (String kind : List.of("Region", "Customer", ORDER, "Purchase")) {
            datastore.run(Query.newEntityQueryBuilder().setKind(kind).build())
                    .forEachRemaining(e -> all.put(e.getKey(), e));
        }
        return all;
    }

    /** The keys of {@code key}'s ancestors, its parent first. */
    private static List<Key> ancestorsOf(Key key) {
        List<Key> up = new ArrayList<>();
        for (Key parent = key.getParent(); parent != null; parent = parent.getParent()) {
            up.add(parent);
        }
        return up;
    }

    @Test
    void aSampleWithAncestorsCopiesWholeGroupsWritesEachAncestorOnceAndItsRevertPutsTheTargetBack() {
        Pair p = seeded("anc-sample");
        InProcessCli cli = new InProcessCli(dir, p.target());
        String[] copy = {"restore", "--from-project", p.source().projectId(), "--kind", ORDER, "--sample", "50",
                "--with-ancestors", "--workers", "4", "--page-size", "5"};

        InProcessCli.Result dry = cli.run(append(copy, "--dry-run"));
        assertThat(everything(p.to())).as("a dry run writes nothing").isEqualTo(p.before());
        InProcessCli.Result run = cli.run(append(copy, "--job-id", "A"));

        Map<Key, Entity> after = everything(p.to());
        List<Key> orders = after.keySet().stream().filter(k -> k.getKind().equals(ORDER)).toList();
        long sourceOrders = p.sourceEntities().keySet().stream().filter(k -> k.getKind().equals(ORDER)).count();
        assertThat(orders.size()).as("about half of the orders, and their ancestors that are orders")
                .isBetween((int) sourceOrders / 5, (int) sourceOrders * 4 / 5);
        Set<Key> whole = new HashSet<>(); // each copied order and every ancestor of it the source holds
        for (Key order : orders) {
            whole.add(order);
            ancestorsOf(order).stream().filter(p.sourceEntities()::containsKey).forEach(whole::add);
        }
        Key c2 = placed(Key.newBuilder(p.source().projectId(), "Customer", "c2").build(), p.target().projectId());
        boolean c2Kept = whole.contains(c2);
        Map<Key, Entity> expected = new HashMap<>(p.before());
        whole.stream().filter(k -> !k.equals(c2)).forEach(k -> expected.put(k, p.sourceEntities().get(k)));
        assertThat(after).as("the copied orders with their whole groups; c2 changed here, kept").isEqualTo(expected);
        assertThat(whole).as("some orders came with orders above them, some with a region")
                .anyMatch(k -> k.getKind().equals("Region"));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(c2Kept ? RevertCommand.EXIT_CONFLICTS : 0);
        Map<String, Long> totals = ShardedCounter.existing(p.to(), "job:A").totals();
        long written = whole.size() - (c2Kept ? 1 : 0);
        assertThat(totals.get("written")).as("each entity written once, shared ancestors too").isEqualTo(written);
        long groupsAbove = whole.stream().filter(k -> !k.getKind().equals(ORDER) && !p.before().containsKey(k))
                .count();
        assertThat(totals.get("ancestors: restored (missing)")).as("customers and regions brought, each once, and "
                + "the orders above sampled ones").isBetween(groupsAbove, groupsAbove + 2);
        long leftAlone = totals.getOrDefault("skipped: changed since the source", 0L);
        if (c2Kept) {
            assertThat(leftAlone).as("c2, changed here, left alone by each commit that brought an order of it")
                    .isPositive();
            assertThat(run.err()).contains("changed since the source");
        } else {
            assertThat(leftAlone).isZero();
        }
        assertThat(dry.out()).as("the dry run, as the run did").contains(String.format(
                "would write back %,d, delete 0.", written));

        cli.run("revert", "A").ok();
        assertThat(everything(p.to())).as("the target as before the copy").isEqualTo(p.before());
    }

    @Test
    void aCopyUnderAnotherNameWithAncestorsKilledMidwayAndResumedIsExact() throws Exception {
        Pair p = seeded("anc-kill");
        List<Entity> chosen = p.sourceEntities().values().stream()
                .filter(e -> e.getKey().getKind().equals(ORDER) && e.getLong("total") % 2 == 1).toList();
        Path keys = dir.resolve("keys.txt");
        RestoreSpec.writeKeys(keys, chosen.stream().map(e -> renamed(e.getKey())).toList());
        String[] copy = {"restore", "--from-project", p.source().projectId(), "--kind", ORDER, "--to-kind",
                "Purchase", "--with-ancestors", "--keys", keys.toString(), "--mode", "overwrite", "--job-id", "K",
                "--workers", "2", "--page-size", "4"};
        try (ChildCli child = ChildCli.start(dir, p.target(), List.of(append(copy, ChildCli.holdFlag(server),
                "3")))) {
            child.awaitHeld();
            child.kill();
        }
        InProcessCli.Result resumed = new InProcessCli(dir, p.target()).run("run", "--resume", "K");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();

        Map<Key, Entity> expected = new HashMap<>(p.before());
        for (Entity e : chosen) {
            expected.put(renamed(e.getKey()), renamed(e));
            for (Key up : ancestorsOf(e.getKey())) {
                if (p.sourceEntities().containsKey(up)) {
                    expected.put(renamed(up), renamed(p.sourceEntities().get(up)));
                }
            }
        }
        assertThat(everything(p.to())).as("each chosen order as a Purchase, its ancestors (orders renamed too), and "
                + "the target's own; c2 overwritten").isEqualTo(expected);
        assertThat(expected.keySet()).as("an order above a chosen one, not chosen itself, was brought")
                .anyMatch(k -> k.getKind().equals("Purchase") && k.getName().equals("o2"));
        assertThat(ShardedCounter.existing(p.to(), "job:K").totals().get("written")).as("each written once")
                .isEqualTo(expected.size() - 1); // all but the target's own customer
    }

    /** {@code e} with every element of kind Order, in its key and in its key value, named Purchase. */
    private static Entity renamed(Entity e) {
        Entity.Builder b = Entity.newBuilder(renamed(e.getKey()), e);
        if (e.contains("customer")) {
            b.set("customer", renamed(e.getKey("customer")));
        }
        return b.build();
    }

    private static Key renamed(Key key) {
        List<PathElement> path = new ArrayList<>();
        for (PathElement e : key.getAncestors()) {
            String kind = e.getKind().equals(ORDER) ? "Purchase" : e.getKind();
            path.add(e.hasId() ? PathElement.of(kind, e.getId()) : PathElement.of(kind, e.getName()));
        }
        String kind = key.getKind().equals(ORDER) ? "Purchase" : key.getKind();
        Key.Builder b = Key.newBuilder(key.getProjectId(), kind, "x").addAncestors(path);
        return key.hasId() ? b.setId(key.getId()).build() : b.setName(key.getName()).build();
    }

    private static String[] append(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    /** Waits past the moment a source is read at when it opens: a little before it opens. */
    private static void settle() {
        try {
            Thread.sleep(3 * SourceDatabase.BEFORE_OPENING_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.Query;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.executor.source.KeysFile;
import io.keyranger.launch.DiffRequest;
import io.keyranger.launch.Diffs;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.datastore.Cancellation;
import io.keyranger.backup.ExportDiff;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * {@code diff --from-project P --from-namespace NS} on each emulator: a kind in another project and namespace of the
 * same emulator against the connected one. The target is written by hand from the source (keys in its own partition;
 * an indexed key value and an indexed embedded entity's key value into the source moved, an unindexed one kept), then
 * damaged; the diff's counts and key lists are checked against the emulator's own answers to a query of each side.
 * Also: a named database of the same project as the source, and a source on the legacy emulator (which orders names
 * in UTF-16) against the Firestore emulator (UTF-8), with names the two order apart.
 */
@OnDataEmulators
class DiffFromDatabaseCliTest {
    private static final String KIND = "Ledger";
    private static final String SOURCE_NS = "eu";
    private static final int SEEDED = 300;

    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    /** Two projects on this emulator: the source (in namespace {@link #SOURCE_NS}) and the target. */
    private record Pair(ConnectionSpec source, Datastore from, ConnectionSpec target, Datastore to) {
    }

    private Pair pair(String name) {
        ConnectionSpec source = SharedEmulator.freshProject(server, name + "-src");
        ConnectionSpec target = SharedEmulator.freshProject(server, name + "-tgt");
        return new Pair(source, SharedEmulator.connect(source), target, SharedEmulator.connect(target));
    }

    private static Key key(Datastore datastore, String namespace, int i) {
        String parent = "Branch";
        PathElement branch = PathElement.of(parent, "b" + i % 3);
        return switch (i % 3) {
            case 0 -> datastore.newKeyFactory().setNamespace(namespace).setKind(KIND).newKey(1_000L + i);
            case 1 -> datastore.newKeyFactory().setNamespace(namespace).setKind(KIND).newKey("ünï-" + i);
            default -> datastore.newKeyFactory().setNamespace(namespace).addAncestor(branch).setKind(KIND)
                    .newKey("child-" + i);
        };
    }

    /** The source's entity {@code i}, its key values pointing into {@code into}'s project and namespace. */
    private static Entity entity(Key key, Key indexedRef, Key unindexedRef, int i) {
        FullEntity<IncompleteKey> inner = FullEntity.newBuilder().set("owner", indexedRef).build();
        return Entity.newBuilder(key).set("n", i).set("tier", i % 3 == 1 ? "gold" : "basic")
                .set("ref", indexedRef)
                .set("raw", KeyValue.newBuilder(unindexedRef).setExcludeFromIndexes(true).build())
                .set("nested", EntityValue.of(inner)).build();
    }

    /**
     * Seeds the source with {@link #SEEDED} entities and writes the target from them by hand: every 10th from the
     * 3rd left out (removed), every 10th from the 6th changed, 20 more only in the target (added).
     */
    private Set<Key>[] seed(Pair p) {
        List<Entity> source = new ArrayList<>();
        List<Entity> target = new ArrayList<>();
        Set<Key> removed = new HashSet<>();
        Set<Key> changed = new HashSet<>();
        Set<Key> added = new HashSet<>();
        for (int i = 0; i < SEEDED; i++) {
            Key from = key(p.from(), SOURCE_NS, i);
            Key fromRef = key(p.from(), SOURCE_NS, (i + 1) % SEEDED);
            source.add(entity(from, fromRef, fromRef, i));
            Key to = key(p.to(), "", i);
            // as the rule places it: indexed key values into the source move, the unindexed one keeps the source's
            Entity placed = entity(to, key(p.to(), "", (i + 1) % SEEDED), fromRef, i);
            if (i % 10 == 3) {
                removed.add(to);
            } else if (i % 10 == 6) {
                target.add(Entity.newBuilder(placed).set("n", -i).build());
                changed.add(to);
            } else {
                target.add(placed);
            }
        }
        for (int i = 0; i < 20; i++) {
            Key to = p.to().newKeyFactory().setKind(KIND).newKey("only-here-" + i);
            target.add(Entity.newBuilder(to).set("n", i).build());
            added.add(to);
        }
        SharedEmulator.putAll(p.from(), source);
        SharedEmulator.putAll(p.to(), target);
        try {
            Thread.sleep(3 * SourceDatabase.BEFORE_OPENING_MILLIS); // the source is read a moment before it opens
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        @SuppressWarnings("unchecked")
        Set<Key>[] sets = new Set[] {removed, changed, added};
        return sets;
    }

    @Test
    void listsWhatTheTargetLacksChangedAndAddedAsTheEmulatorAnswersEachSide() {
        Pair p = pair("from-db");
        Set<Key>[] damage = seed(p);
        Path out = dir.resolve("keys");
        InProcessCli cli = new InProcessCli(dir, p.target());

        InProcessCli.Result diff = cli.run("diff", "--from-project", p.source().projectId(), "--from-namespace",
                SOURCE_NS, "--kind", KIND, "--keys-out", out.toString()).ok();

        String source = "project " + p.source().projectId() + ", namespace " + SOURCE_NS;
        assertThat(diff.out()).contains("300 in " + source).containsPattern("same\\s+240\\b")
                .containsPattern("changed\\s+30\\b").containsPattern("removed\\s+30\\b")
                .containsPattern("added\\s+20\\b").doesNotContain("restore --");
        assertThat(diff.err()).contains(server.readsPast() ? "Reading " + source + " as of"
                : "Reading " + source + " live: the legacy Datastore emulator keeps no past");
        assertThat(keys(p, out, "removed.keys")).isEqualTo(damage[0]);
        assertThat(keys(p, out, "changed.keys")).isEqualTo(damage[1]);
        assertThat(keys(p, out, "added.keys")).isEqualTo(damage[2]);

        // the emulator's own answers: each side's kind by a query, keys compared by path
        Set<String> there = paths(p.from(), SOURCE_NS);
        Set<String> here = paths(p.to(), "");
        assertThat(keys(p, out, "removed.keys").stream().map(DiffFromDatabaseCliTest::path).collect(Collectors.toSet()))
                .isEqualTo(there.stream().filter(path -> !here.contains(path)).collect(Collectors.toSet()));
        assertThat(keys(p, out, "added.keys").stream().map(DiffFromDatabaseCliTest::path).collect(Collectors.toSet()))
                .isEqualTo(here.stream().filter(path -> !there.contains(path)).collect(Collectors.toSet()));

        Key one = damage[1].iterator().next();
        InProcessCli.Result side = cli.run("diff", "--from-project", p.source().projectId(), "--from-namespace",
                SOURCE_NS, "--kind", KIND, "--key", io.keyranger.query.Gql.keyLiteral(one)).ok();
        assertThat(side.out()).contains("SOURCE").containsPattern("\\*\\s+n\\s+\\d+\\s+-\\d+");
    }

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "the legacy emulator holds the default database only")
    void aNamedDatabaseOfTheSameProjectIsASource() {
        ConnectionSpec target = SharedEmulator.freshProject(server, "from-named");
        ConnectionSpec source = new ConnectionSpec(target.emulatorHost(), target.projectId(), "archive", "", null,
                false, target.server());
        Pair p = new Pair(source, SharedEmulator.connect(source), target, SharedEmulator.connect(target));
        Set<Key>[] damage = seed(p);
        Path out = dir.resolve("named");

        InProcessCli.Result diff = new InProcessCli(dir, p.target()).run("diff", "--from-project",
                target.projectId(), "--from-database", "archive", "--from-namespace", SOURCE_NS, "--kind", KIND,
                "--keys-out", out.toString()).ok();

        assertThat(diff.out()).contains("300 in project " + target.projectId() + ", database archive, namespace "
                + SOURCE_NS).containsPattern("same\\s+240\\b").containsPattern("changed\\s+30\\b")
                .containsPattern("removed\\s+30\\b").containsPattern("added\\s+20\\b");
        assertThat(keys(p, out, "removed.keys")).isEqualTo(damage[0]);
        assertThat(keys(p, out, "changed.keys")).isEqualTo(damage[1]);
        assertThat(keys(p, out, "added.keys")).isEqualTo(damage[2]);
        assertThat(paths(p.to(), "")).as("the target's own kind, not the archive's")
                .hasSize(SEEDED - damage[0].size() + damage[2].size());
    }

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "one run: the legacy emulator is the source, this the target")
    void aSourceOnTheLegacyEmulatorIsComparedExactlyAcrossKeyOrders() {
        ConnectionSpec source = SharedEmulator.freshProject(ServerType.EMULATOR, "from-legacy")
                .withNamespace(SOURCE_NS);
        ConnectionSpec target = SharedEmulator.freshProject(server, "to-firestore");
        Pair p = new Pair(source, SharedEmulator.connect(source), target, SharedEmulator.connect(target));
        Set<Key>[] damage = seed(p);
        // names the two servers order apart (UTF-16 on the legacy one, UTF-8 here): U+FFFF, U+1F600, and plain ones
        List<String> names = List.of("a", "z", "\uffff", "\ud83d\ude00", "\uffff\ud83d\ude00", "\ud83d\ude00z");
        List<Entity> there = new ArrayList<>();
        List<Entity> here = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Key from = p.from().newKeyFactory().setNamespace(SOURCE_NS).setKind(KIND).newKey("order-" + names.get(i));
            there.add(Entity.newBuilder(from).set("n", i).build());
            if (i % 2 == 0) { // the others are missing from the target
                here.add(Entity.newBuilder(p.to().newKeyFactory().setKind(KIND).newKey("order-" + names.get(i)))
                        .set("n", i).build());
            }
        }
        SharedEmulator.putAll(p.from(), there);
        SharedEmulator.putAll(p.to(), here);
        Path out = dir.resolve("orders");

        InProcessCli.Result diff = new InProcessCli(dir, p.target()).run("diff", "--from-emulator-host",
                source.emulatorHost(), "--from-project", source.projectId(), "--from-namespace", SOURCE_NS, "--kind",
                KIND, "--keys-out", out.toString()).ok();

        assertThat(diff.err()).contains("live: the legacy Datastore emulator keeps no past");
        assertThat(diff.out()).contains((SEEDED + names.size()) + " in project " + source.projectId())
                .containsPattern("same\\s+" + (240 + 3) + "\\b").containsPattern("changed\\s+30\\b")
                .containsPattern("removed\\s+" + (30 + 3) + "\\b").containsPattern("added\\s+20\\b");
        Set<Key> removed = new HashSet<>(damage[0]);
        for (int i = 1; i < names.size(); i += 2) {
            removed.add(p.to().newKeyFactory().setKind(KIND).newKey("order-" + names.get(i)));
        }
        assertThat(keys(p, out, "removed.keys")).isEqualTo(removed);
        assertThat(keys(p, out, "changed.keys")).isEqualTo(damage[1]);
        assertThat(keys(p, out, "added.keys")).isEqualTo(damage[2]);
    }

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "the legacy emulator keeps no past: its source is read live")
    void writesToTheSourceAfterItIsOpenedDoNotChangeWhatIsCompared() throws Exception {
        Pair p = pair("from-db-moment");
        Set<Key>[] damage = seed(p);
        Session target = Session.open(p.target());
        Session source = SourceDatabase.open(target, p.source().withNamespace(SOURCE_NS), null, note -> { });
        // after the moment it reads: half of the source deleted, the rest changed
        List<Key> all = new ArrayList<>();
        p.from().run(Query.newKeyQueryBuilder().setNamespace(SOURCE_NS).setKind(KIND).build())
                .forEachRemaining(all::add);
        p.from().delete(all.subList(0, SEEDED / 2).toArray(new Key[0]));
        List<Entity> rest = new ArrayList<>();
        for (Key k : all.subList(SEEDED / 2, SEEDED)) {
            rest.add(Entity.newBuilder(p.from().get(k)).set("n", 999_999).build());
        }
        SharedEmulator.putAll(p.from(), rest);

        ExportDiff.Result r = new Diffs(target).run(DiffRequest.of(new DiffRequest.Database(source), "", KIND),
                new ExportDiff.Progress() {
                    @Override
                    public void compared(long n) {
                    }
                }, Cancellation.NEVER);

        assertThat(r.compared()).isEqualTo(SEEDED);
        assertThat(r.removed()).isEqualTo(damage[0].size());
        assertThat(r.changed()).isEqualTo(damage[1].size());
        assertThat(r.same()).isEqualTo(SEEDED - damage[0].size() - damage[1].size());
        assertThat(r.added()).isEqualTo(damage[2].size());
    }

    @Test
    void badSourcesAreRefusedPlainlyBeforeAnythingIsRead() {
        Pair p = pair("from-db-bad");
        seed(p);
        InProcessCli cli = new InProcessCli(dir, p.target());
        cli.run("diff", "--from-project", p.target().projectId(), "--kind", KIND)
                .refused("The source is the connected database itself");
        cli.run("diff", "--from-project", p.source().projectId(), "--from-namespace", SOURCE_NS, "--kind",
                "Ledgr").refused("Kind 'Ledgr' was not found in project " + p.source().projectId() + ", namespace "
                + SOURCE_NS);
        cli.run("diff", "--from-project", p.source().projectId(), "--export", dir.toString(), "--kind", KIND)
                .refused("both were given");
        cli.run("diff", "--from-namespace", SOURCE_NS, "--kind", KIND).refused("--from-project ID");
        if (!server.readsPast()) {
            cli.run("diff", "--from-project", p.source().projectId(), "--as-of", "-1m", "--kind", KIND)
                    .refused(ServerType.NO_PAST);
        }
    }



    private static Set<String> paths(Datastore datastore, String namespace) {
        Set<String> paths = new HashSet<>();
        datastore.run(Query.newKeyQueryBuilder().setNamespace(namespace).setKind(KIND).build())
                .forEachRemaining(k -> paths.add(path(k)));
        return paths;
    }

    /** A key's path in its partition, whatever the partition. */
    private static String path(Key key) {
        return key.getAncestors() + "/" + key.getKind() + ":" + key.getNameOrId();
    }

    private static Set<Key> keys(Pair p, Path folder, String file) {
        return KeysFile.read(folder.resolve(file), p.target().projectId(), "");
    }
}

package io.keyranger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.Query;
import io.keyranger.counter.ShardedCounter;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerType;
import io.keyranger.launch.SourceDatabase;
import io.keyranger.support.ChildCli;
import io.keyranger.support.InProcessCli;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * {@code restore --from-project P} on each emulator: a kind of another project of the same emulator brought into the
 * connected one, every value type and App Engine's meanings among them. What the target should hold is written out by
 * hand here (each source entity with its key, and the indexed key values into the source project, in the target's
 * project; the unindexed embedded entity's key and the key into a third project kept), and compared with the
 * emulator's own answer to a query of the target, entity by entity.
 */
@OnDataEmulators
class RestoreFromDatabaseCliTest {
    private static final String KIND = "Item";
    private static final int SEEDED = 120;

    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    /** Two projects on this emulator, and the target as it was damaged before a copy. */
    private record Pair(ConnectionSpec source, Datastore from, ConnectionSpec target, Datastore to,
                        Map<Key, Entity> copied, Map<Key, Entity> damaged) {
        /** The target's keys of the source entities the damage removed, changed, and of those only the target has. */
        List<Key> removed() {
            return copied.keySet().stream().filter(k -> !damaged.containsKey(k)).toList();
        }

        List<Key> changed() {
            return copied.keySet().stream().filter(k -> damaged.containsKey(k) && !damaged.get(k).equals(copied.get(k)))
                    .toList();
        }

        List<Key> added() {
            return damaged.keySet().stream().filter(k -> !copied.containsKey(k)).toList();
        }
    }

    /**
     * The source seeded with {@link #SEEDED} rich entities, and the target written from them by hand: every 10th from
     * the 3rd left out, every 10th from the 6th changed, 10 more only in the target.
     */
    private Pair seeded(String name) {
        return seeded(name, true);
    }

    /** As above; without {@code damage}, the target holds nothing of the kind. */
    private Pair seeded(String name, boolean damage) {
        ConnectionSpec source = SharedEmulator.freshProject(server, name + "-src");
        ConnectionSpec target = SharedEmulator.freshProject(server, name + "-tgt");
        Datastore from = SharedEmulator.connect(source);
        Datastore to = SharedEmulator.connect(target);
        SharedEmulator.putAll(from, RichEntities.withAppEngineValues(from, KIND, SEEDED));
        // as the emulator keeps them (the legacy one reorders an array of indexed and unindexed values)
        List<Entity> entities = new ArrayList<>(RichEntities.read(from, "", KIND).values());
        entities.sort(java.util.Comparator.comparing(e -> e.getLong("balance")));
        Map<Key, Entity> copied = new HashMap<>();
        Map<Key, Entity> damaged = new HashMap<>();
        for (int i = 0; i < entities.size(); i++) {
            Entity placed = placed(entities.get(i), target.projectId());
            copied.put(placed.getKey(), placed);
            if (!damage || i % 10 == 3) {
                continue;
            }
            damaged.put(placed.getKey(), i % 10 == 6 ? Entity.newBuilder(placed).set("balance", -i).build() : placed);
        }
        for (int i = 0; damage && i < 10; i++) {
            Entity only = Entity.newBuilder(to.newKeyFactory().setKind(KIND).newKey("only-here-" + i)).set("n", i)
                    .build();
            damaged.put(only.getKey(), only);
        }
        SharedEmulator.putAll(to, new ArrayList<>(damaged.values()));
        Pair written = new Pair(source, from, target, to, copied, damaged);
        damaged = target(written); // as the emulator keeps them
        settle();
        return new Pair(source, from, target, to, copied, damaged);
    }

    /**
     * A source entity as the copy should write it, by the rule written out: its key, {@code ref} and the indexed
     * {@code snapshot}'s key in the target project; {@code address} (unindexed) and {@code elsewhere} (a third
     * project) as they are.
     */
    private static Entity placed(Entity source, String project) {
        FullEntity<?> snapshot = source.getEntity("snapshot");
        FullEntity.Builder<Key> moved = FullEntity.newBuilder(Key.newBuilder((Key) snapshot.getKey())
                .setProjectId(project).build());
        snapshot.getNames().forEach(name -> moved.set(name, (com.google.cloud.datastore.Value<?>) snapshot.getValue(name)));
        return Entity.newBuilder(Key.newBuilder(source.getKey()).setProjectId(project).build(), source)
                .set("ref", Key.newBuilder(source.getKey("ref")).setProjectId(project).build())
                .set("snapshot", EntityValue.of(moved.build()))
                .build();
    }

    /** The target's kind as the emulator answers a query of it. */
    private static Map<Key, Entity> target(Pair p) {
        Map<Key, Entity> all = new HashMap<>();
        p.to().run(Query.newEntityQueryBuilder().setKind(KIND).build()).forEachRemaining(e -> all.put(e.getKey(), e));
        return all;
    }

    /**
     * Where the target differs from {@code expected}: each key missing, unexpected, or holding other values, with the
     * names of the properties that differ (empty when it is exactly as expected).
     */
    private static List<String> differences(Pair p, Map<Key, Entity> expected) {
        Map<Key, Entity> actual = target(p);
        List<String> out = new ArrayList<>();
        for (Map.Entry<Key, Entity> e : expected.entrySet()) {
            Entity found = actual.get(e.getKey());
            if (found == null) {
                out.add("missing " + e.getKey().getNameOrId());
            } else if (!found.equals(e.getValue())) {
                List<String> names = new ArrayList<>();
                for (String name : e.getValue().getNames()) {
                    if (!found.contains(name) || !found.getValue(name).equals(e.getValue().getValue(name))) {
                        names.add(name + (found.contains(name) ? "=" + found.getValue(name) : ""));
                    }
                }
                found.getNames().stream().filter(n -> !e.getValue().contains(n)).forEach(n -> names.add("+" + n));
                out.add(e.getKey().getNameOrId() + " differs in " + names);
            }
        }
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> out.add("unexpected "
                + k.getNameOrId()));
        return out;
    }

    private static String[] copy(Pair p, String... more) {
        List<String> args = new ArrayList<>(List.of("restore", "--from-project", p.source().projectId(), "--kind",
                KIND));
        args.addAll(List.of(more));
        return args.toArray(new String[0]);
    }

    @Test
    void skipChangedBringsBackWhatIsMissingLeavesChangedOnesAndItsRevertPutsTheTargetBack() {
        Pair p = seeded("copy-skip");
        InProcessCli cli = new InProcessCli(dir, p.target());

        InProcessCli.Result copy = cli.run(copy(p, "--job-id", "C1", "--workers", "4", "--page-size", "25"));

        assertThat(copy.exitCode()).as(copy.err()).isEqualTo(RevertCommand.EXIT_CONFLICTS);
        assertThat(copy.err()).contains("Reading project " + p.source().projectId())
                .contains(p.changed().size() + " entities changed since the source and kept their live values");
        Map<Key, Entity> expected = new HashMap<>(p.damaged());
        p.removed().forEach(k -> expected.put(k, p.copied().get(k)));
        assertThat(differences(p, expected)).as("what was missing brought in, the rest as it was").isEmpty();
        assertThat(ShardedCounter.existing(p.to(), "job:C1").totals()).as("each missing entity written once")
                .containsEntry("written", (long) p.removed().size());

        cli.run("revert", "C1").ok();
        assertThat(differences(p, p.damaged())).as("the target as before the copy").isEmpty();
    }

    @Test
    void overwriteWithRemoveAddedLeavesTheTargetEqualToTheSourceAsItsDryRunSaid() {
        Pair p = seeded("copy-refresh");
        InProcessCli cli = new InProcessCli(dir, p.target());

        InProcessCli.Result dry = cli.run(copy(p, "--mode", "overwrite", "--remove-added", "--dry-run")).ok();
        assertThat(dry.out()).contains(String.format("would write back %d, delete %d.",
                p.removed().size() + p.changed().size(), p.added().size()));
        assertThat(differences(p, p.damaged())).as("a dry run writes nothing").isEmpty();

        cli.run(copy(p, "--mode", "overwrite", "--remove-added", "--job-id", "C2")).ok();
        assertThat(differences(p, p.copied())).as("the target equal to the source, entity by entity").isEmpty();
        Map<String, Long> totals = ShardedCounter.existing(p.to(), "job:C2").totals();
        assertThat(totals.get("written")).isEqualTo(p.removed().size() + p.changed().size());
        assertThat(totals.get("deleted")).isEqualTo(p.added().size());
    }

    @Test
    void aCopyKilledMidwayAndResumedByItsIdIsExact() throws Exception {
        Pair p = seeded("copy-kill");
        try (ChildCli child = ChildCli.start(dir, p.target(), List.of(copy(p, "--mode", "overwrite", "--job-id", "K",
                "--workers", "4", "--page-size", "10", ChildCli.holdFlag(server), "3")))) {
            child.awaitHeld();
            child.kill();
        }
        Map<Key, Entity> expected = new HashMap<>(p.copied());
        p.added().forEach(k -> expected.put(k, p.damaged().get(k)));
        assertThat(differences(p, expected)).as("killed mid-way").isNotEmpty();

        InProcessCli.Result resumed = new InProcessCli(dir, p.target()).run("run", "--resume", "K");
        assertThat(resumed.exitCode()).as(resumed.out() + resumed.err()).isZero();
        assertThat(differences(p, expected)).as("every source entity in, what only the target had kept").isEmpty();
        assertThat(ShardedCounter.existing(p.to(), "job:K").totals()).as("each entity written once")
                .containsEntry("written", (long) (p.removed().size() + p.changed().size()));
    }

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "the legacy emulator keeps no past: its source is read live")
    void writesToTheSourceWhileItIsCopiedDoNotChangeWhatIsCopied() throws Exception {
        Pair p = seeded("copy-moment");
        try (ChildCli child = ChildCli.start(dir, p.target(), List.of(copy(p, "--mode", "overwrite",
                "--remove-added", "--job-id", "M", "--workers", "2", "--page-size", "10",
                ChildCli.holdFlag(server), "2")))) {
            child.awaitHeld();
            List<Key> all = new ArrayList<>();
            p.from().run(Query.newKeyQueryBuilder().setKind(KIND).build()).forEachRemaining(all::add);
            p.from().delete(all.subList(0, SEEDED / 2).toArray(new Key[0]));
            List<Entity> rest = new ArrayList<>();
            for (Key k : all.subList(SEEDED / 2, SEEDED)) {
                rest.add(Entity.newBuilder(p.from().get(k)).set("balance", 999_999L).build());
            }
            SharedEmulator.putAll(p.from(), rest);
            child.release();
            assertThat(child.waitFor(120)).as(child.log()).isZero();
        }
        assertThat(differences(p, p.copied())).as("the source as it was when the copy opened it").isEmpty();
    }

    @Test
    void badInputIsRefusedInOneLineBeforeAnythingIsWritten() {
        Pair p = seeded("copy-bad");
        InProcessCli cli = new InProcessCli(dir, p.target());
        cli.run("restore", "--from-project", p.target().projectId(), "--kind", KIND)
                .refused("The source is the connected database itself");
        cli.run("restore", "--from-project", p.source().projectId(), "--kind", "Itme")
                .refused("Kind 'Itme' was not found in project " + p.source().projectId());
        cli.run(copy(p, "--remove-added")).refused("it goes with mode overwrite");
        cli.run(copy(p, "--as-of", "-1m", "--until", "-10s")).refused("leave --until out");
        if (server.readsPast()) {
            cli.run(copy(p, "--as-of", "2020-01-01T00:00:00Z")).refused("older than the database keeps");
            ConnectionSpec legacy = SharedEmulator.freshProject(ServerType.EMULATOR, "copy-legacy");
            SharedEmulator.putAll(SharedEmulator.connect(legacy), RichEntities.of(SharedEmulator.connect(legacy),
                    KIND, 5));
            cli.run("restore", "--from-project", legacy.projectId(), "--from-emulator-host", legacy.emulatorHost(),
                    "--kind", KIND, "--mode", "overwrite", "--remove-added")
                    .refused("cannot find what the source lacks across the two orders");
        } else {
            cli.run(copy(p, "--as-of", "-1m")).refused(ServerType.NO_PAST);
        }
        assertThat(differences(p, p.damaged())).as("nothing written").isEmpty();
    }

    @Test
    void aMaskedSampleHoldsNoSourceValueOfAMaskedPropertyAndIsTheSameSampleEveryRun() throws Exception {
        Pair p = seeded("copy-mask", false);
        ConnectionSpec again = SharedEmulator.freshProject(server, "copy-mask-again");
        Path transform = dir.resolve("mask.json");
        java.nio.file.Files.writeString(transform, "{\"template\": \"transform\", \"set\": {\"note\": "
                + "\"keyed_hash(note)\", \"tier\": \"fake_name(key)\", \"text\": \"null\"}, \"remove\": [\"raw\"]}");
        String[] masked = copy(p, "--transform", transform.toString(), "--sample", "40");
        InProcessCli cli = new InProcessCli(dir, p.target());
        cli.run(masked).refused("needs a masking key");
        assertThat(target(p)).as("refused before anything is written").isEmpty();

        System.setProperty(io.keyranger.mapper.cel.MaskFunctions.KEY_PROPERTY, "a-test-key");
        try {
            cli.run(masked).ok();
            InProcessCli.Result second = new InProcessCli(dir, again).run(masked);
            assertThat(second.exitCode()).as(second.err()).isZero();
        } finally {
            System.clearProperty(io.keyranger.mapper.cel.MaskFunctions.KEY_PROPERTY);
        }
        Map<Key, Entity> copied = target(p);
        assertThat(copied.size()).as("about 40 of every 100 keys").isBetween(SEEDED / 5, SEEDED * 3 / 5);
        List<String> paths = copied.keySet().stream().map(k -> k.getAncestors() + "/" + k.getNameOrId()).sorted()
                .toList();
        List<String> alsoCopied = new ArrayList<>();
        SharedEmulator.connect(again).run(Query.newKeyQueryBuilder().setKind(KIND).build())
                .forEachRemaining(k -> alsoCopied.add(k.getAncestors() + "/" + k.getNameOrId()));
        assertThat(alsoCopied.stream().sorted().toList()).as("the same keys in another run").isEqualTo(paths);
        for (Entity e : copied.values()) {
            Entity source = p.copied().get(e.getKey());
            assertThat(source).as("a key of the source").isNotNull();
            assertThat(e.getString("note")).matches("[0-9a-f]{32}").isNotEqualTo(source.getString("note"));
            assertThat(e.getString("tier")).matches("[A-Z][a-z]+ [A-Z][a-z]+");
            assertThat(e.isNull("text")).isTrue();
            assertThat(e.contains("raw")).isFalse();
            assertThat(e.getLong("balance")).as("what is not masked is copied").isEqualTo(source.getLong("balance"));
        }

        Path broken = dir.resolve("broken.json");
        java.nio.file.Files.writeString(broken, "{\"template\": \"transform\", \"set\": {\"note\": \"note +\"}}");
        cli.run(copy(p, "--transform", broken.toString())).refused("set.note");
        cli.run(copy(p, "--sample", "0")).refused("must be a percentage above 0 and at most 100");
        cli.run(copy(p, "--sample", "150")).refused("must be a percentage above 0 and at most 100");
        assertThat(target(p)).as("nothing more written").hasSize(copied.size());
    }

    /**
     * A copy between the two emulators, which order names apart (the legacy one in UTF-16, the Firestore one in UTF-8:
     * U+FFFF before U+1F600 there, after it here), over many small ranges: every source entity arrives once and
     * exactly, whichever way it goes.
     */
    @Test
    void aCopyBetweenServersThatOrderNamesApartIsExact() {
        ServerType other = server == ServerType.EMULATOR ? ServerType.FIRESTORE_EMULATOR : ServerType.EMULATOR;
        ConnectionSpec source = SharedEmulator.freshProject(other, "copy-orders-src");
        ConnectionSpec target = SharedEmulator.freshProject(server, "copy-orders-tgt");
        Datastore from = SharedEmulator.connect(source);
        List<String> marks = List.of("a", "\uE000", "\uFFFF", "\uD83D\uDE00", "\uD800\uDC00", "z", "\u00E9");
        List<Entity> seeded = new ArrayList<>();
        for (int i = 0; i < 140; i++) {
            String mark = marks.get(i % marks.size());
            Key key = i % 4 == 3 ? from.newKeyFactory().addAncestor(com.google.cloud.datastore.PathElement.of("Org",
                    mark + (i % 3))).setKind(KIND).newKey(mark + i)
                    : i % 5 == 0 ? from.newKeyFactory().setKind(KIND).newKey(10_000L + i)
                    : from.newKeyFactory().setKind(KIND).newKey(mark + "-" + i);
            seeded.add(Entity.newBuilder(key).set("n", i).set("self", key).build());
        }
        SharedEmulator.putAll(from, seeded);
        settle();
        Map<Key, Entity> expected = new HashMap<>();
        for (Entity e : seeded) {
            Key placed = Key.newBuilder(e.getKey()).setProjectId(target.projectId()).build();
            expected.put(placed, Entity.newBuilder(placed, e).set("self", placed).build());
        }
        Datastore to = SharedEmulator.connect(target);
        Pair p = new Pair(source, from, target, to, expected, Map.of());

        InProcessCli.Result copy = new InProcessCli(dir, target).run("restore", "--from-project", source.projectId(),
                "--from-emulator-host", source.emulatorHost(), "--kind", KIND, "--job-id", "X", "--shards", "8",
                "--workers", "4", "--page-size", "7");

        assertThat(copy.exitCode()).as(copy.err()).isZero();
        assertThat(differences(p, expected)).as("every entity once, as the source holds it").isEmpty();
        assertThat(ShardedCounter.existing(to, "job:X").totals()).containsEntry("written", 140L);
    }

    /**
     * {@code --to-kind Thing}: the source's Item written as Thing, its keys renamed, ancestors of the kind too (an
     * Item under an Item), and key values of the kind renamed with them, those of other kinds only placed; as the
     * dry run said; its revert leaves no Thing.
     */
    @Test
    void aKindCopiedUnderAnotherNameHasItsKeysAndKeyValuesRenamed() {
        ConnectionSpec source = SharedEmulator.freshProject(server, "copy-rename-src");
        ConnectionSpec target = SharedEmulator.freshProject(server, "copy-rename-tgt");
        Datastore from = SharedEmulator.connect(source);
        Datastore to = SharedEmulator.connect(target);
        List<Entity> seeded = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Key key = i % 3 == 0 ? from.newKeyFactory().addAncestor(com.google.cloud.datastore.PathElement.of(KIND,
                    "parent-" + i % 4)).setKind(KIND).newKey(100L + i) : i % 3 == 1
                    ? from.newKeyFactory().addAncestor(com.google.cloud.datastore.PathElement.of("Org", "o" + i % 5))
                    .setKind(KIND).newKey("ä-" + i) : from.newKeyFactory().setKind(KIND).newKey(5_000L + i);
            Key next = from.newKeyFactory().setKind(KIND).newKey(5_000L + i + 1);
            Key org = from.newKeyFactory().setKind("Org").newKey("o" + i % 5);
            seeded.add(Entity.newBuilder(key).set("n", i).set("next", next).set("org", org).build());
        }
        SharedEmulator.putAll(from, seeded);
        settle();
        Map<Key, Entity> expected = new HashMap<>();
        for (Entity e : seeded) {
            Key key = renamed(e.getKey(), target.projectId());
            expected.put(key, Entity.newBuilder(key, e).set("next", renamed(e.getKey("next"), target.projectId()))
                    .set("org", Key.newBuilder(e.getKey("org")).setProjectId(target.projectId()).build()).build());
        }
        InProcessCli cli = new InProcessCli(dir, target);
        String[] args = {"restore", "--from-project", source.projectId(), "--kind", KIND, "--to-kind", "Thing",
                "--job-id", "R", "--workers", "4", "--page-size", "7", "--shards", "4"};

        InProcessCli.Result dry = cli.run(java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                java.util.stream.Stream.of("--dry-run")).toArray(String[]::new)).ok();
        assertThat(dry.out()).contains("would write back 50, delete 0.");
        InProcessCli.Result copy = cli.run(args);
        assertThat(copy.exitCode()).as(copy.err()).isZero();
        assertThat(copy.err()).contains("restoring Item as Thing");

        Map<Key, Entity> things = new HashMap<>();
        to.run(Query.newEntityQueryBuilder().setKind("Thing").build()).forEachRemaining(e -> things.put(e.getKey(), e));
        assertThat(things).as("every Item as a Thing, as the emulator answers").isEqualTo(expected);
        assertThat(to.run(Query.newKeyQueryBuilder().setKind(KIND).build()).hasNext()).as("no Item here").isFalse();

        cli.run("revert", "R").ok();
        assertThat(to.run(Query.newKeyQueryBuilder().setKind("Thing").build()).hasNext()).isFalse();
        cli.run("restore", "--from-project", source.projectId(), "--kind", KIND, "--to-kind", "Thing", "--mode",
                "overwrite", "--remove-added").refused("does not go with a kind renamed");

        // a selection written in the source's names, its key literal too, decided on the entities as renamed
        InProcessCli.Result selected = cli.run("restore", "--from-project", source.projectId(), "--gql",
                "SELECT * FROM Item WHERE next > KEY(Item, 5010) AND n < 45", "--to-kind", "Thing", "--page-size",
                "7");
        assertThat(selected.exitCode()).as(selected.err()).isZero();
        Map<Key, Entity> some = new HashMap<>();
        to.run(Query.newEntityQueryBuilder().setKind("Thing").build()).forEachRemaining(e -> some.put(e.getKey(), e));
        Map<Key, Entity> wanted = new HashMap<>(expected);
        wanted.values().removeIf(e -> e.getLong("n") < 10 || e.getLong("n") >= 45);
        assertThat(some).as("the 35 Items whose next is past Item 5010 and n below 45").hasSize(35)
                .isEqualTo(wanted);
    }

    /** Waits past the moment a source is read at when it opens: a little before it opens. */
    private static void settle() {
        try {
            Thread.sleep(3 * SourceDatabase.BEFORE_OPENING_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code key} in {@code project}, every element of the kind named Thing. */
    private static Key renamed(Key key, String project) {
        List<com.google.cloud.datastore.PathElement> path = new ArrayList<>();
        for (com.google.cloud.datastore.PathElement e : key.getAncestors()) {
            String kind = e.getKind().equals(KIND) ? "Thing" : e.getKind();
            path.add(e.hasId() ? com.google.cloud.datastore.PathElement.of(kind, e.getId())
                    : com.google.cloud.datastore.PathElement.of(kind, e.getName()));
        }
        Key.Builder b = Key.newBuilder(project, "Thing", "x").addAncestors(path);
        return key.hasId() ? b.setId(key.getId()).build() : b.setName(key.getName()).build();
    }
}

package io.keyranger.backup;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityQuery;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyFactory;
import com.google.cloud.datastore.KeyQuery;
import com.google.cloud.datastore.ReadOption;
import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.PointInTime;
import io.keyranger.datastore.ReadWindow;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.formats.managed.ManagedExport;
import io.keyranger.keys.KeyRange;
import io.keyranger.launch.DiffRequest;
import io.keyranger.launch.Diffs;
import io.keyranger.query.Gql;
import io.keyranger.support.HeldRead;
import io.keyranger.support.OnDataEmulators;
import io.keyranger.support.OnlyOn;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;

/**
 * A comparison of a kind large enough to be read over several key ranges: the past side of {@code diff --as-of}
 * (the Firestore emulator: the legacy one keeps no past) and the live side of {@code diff --export} (the legacy
 * emulator: the Firestore one has no managed export) are read over planned ranges several at once, and what the
 * comparison finds is what the emulator's own queries of the kind before and after say, line for line and in the
 * same order, the entities at the ranges' boundaries included; a stopped comparison goes on to the same answer, and
 * no range begins once it is stopped.
 */
@OnDataEmulators
class RangedDiffTest {
    private static final String KIND = "Ledger";
    /** Entities seeded: enough for several ranges of about {@link OrderedRangeRead#PIECE} each. */
    private static final int SEEDED = 3_000;
    /** Ranges read at once in the parallel cases: fewer than the default, so that the seeded kind has many more. */
    private static final int SEVERAL = 8;

    @Parameter
    ServerType server;

    @TempDir
    Path dir;

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "the legacy emulator keeps no past")
    void readsThePastOverSeveralRangesAndFindsWhatTheEmulatorSays() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "ranged-past");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Thread.sleep(50);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(50);
        Calls calls = new Calls();
        Session live = Session.open(conn).wrap(calls::wrap);
        PointInTime moment = ReadWindow.open(live, t0.toString(), note -> { }).asOf();
        List<KeyRange> ranges = OrderedRangeRead.plan(live.asOf(moment).datastore(), live.order(), "", KIND,
                SEVERAL, Cancellation.NEVER);
        assertThat(ranges).as("planned ranges").hasSizeGreaterThan(4);
        damage(datastore, ranges.stream().skip(1).map(KeyRange::start).toList());
        Map<Key, Entity> then = RichEntities.query(datastore, KIND, t0);
        Map<Key, Entity> now = RichEntities.query(datastore, KIND, null);

        Path out = dir.resolve("past");
        calls.reset();
        ExportDiff.Result r = new Diffs(live).run(DiffRequest.of(new DiffRequest.Past(moment), "", KIND)
                .keysOut(out, DiffRequest.Resume.AFRESH).sized(DiffRequest.PAGE_SIZE, SEVERAL), n -> { },
                Cancellation.NEVER);

        assertAsTheEmulatorSays(r, out, then, now, true);
        assertThat(calls.pastQueries.get()).as("entity queries of the past: one a range").isEqualTo(ranges.size());
    }

    @Test
    @OnlyOn(value = ServerType.FIRESTORE_EMULATOR, why = "the legacy emulator keeps no past")
    void aStoppedPastReadBeginsNoRangeAndGoesOnToTheSameAnswer() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "ranged-stop");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Thread.sleep(50);
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Thread.sleep(50);
        HeldRead held = HeldRead.on("run").when(args -> args[0] instanceof EntityQuery && past(args));
        Session live = Session.open(conn).wrap(held::wrap);
        PointInTime moment = ReadWindow.open(live, t0.toString(), note -> { }).asOf();
        List<KeyRange> ranges = OrderedRangeRead.plan(live.asOf(moment).datastore(), live.order(), "", KIND, 1,
                Cancellation.NEVER);
        assertThat(ranges).as("planned ranges").hasSizeGreaterThan(1);
        damage(datastore, ranges.stream().skip(1).map(KeyRange::start).toList());
        Map<Key, Entity> then = RichEntities.query(datastore, KIND, t0);
        Map<Key, Entity> now = RichEntities.query(datastore, KIND, null);
        Path out = dir.resolve("past");
        DiffRequest request = DiffRequest.of(new DiffRequest.Past(moment), "", KIND)
                .keysOut(out, DiffRequest.Resume.GO_ON_IF_STOPPED).sized(100, 1);

        // one range at a time: the first range's query is held, the second waits for the thread; stopped meanwhile,
        // the second never begins
        AtomicBoolean stop = new AtomicBoolean();
        held.arm();
        CompletableFuture<ExportDiff.Result> running = CompletableFuture.supplyAsync(() -> {
            try {
                return new Diffs(live).run(request, n -> { }, Cancellation.of(stop::get));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long waited = System.nanoTime();
        while (!held.holding() && System.nanoTime() - waited < TimeUnit.SECONDS.toNanos(60)) {
            Thread.sleep(10);
        }
        assertThat(held.holding()).as("the first range's read is held").isTrue();
        stop.set(true);
        int atStop = held.calls();
        held.release();
        ExportDiff.Result stopped = running.get(60, TimeUnit.SECONDS);
        assertThat(stopped.cancelled()).isTrue();
        assertThat(held.calls()).as("reads begun after the stop").isEqualTo(atStop);

        // stopped part way through the ranges, then gone on with
        long[] seen = {0};
        ExportDiff.Result part = new Diffs(live).run(request, n -> seen[0] = n,
                Cancellation.of(() -> seen[0] >= SEEDED / 2));
        assertThat(part.cancelled()).isTrue();
        ExportDiff.Result r = new Diffs(live).run(request, n -> { }, Cancellation.NEVER);
        assertThat(r.resumedFrom()).isEqualTo(part.compared());
        assertAsTheEmulatorSays(r, out, then, now, true);
    }

    @Test
    @OnlyOn(value = ServerType.EMULATOR, why = "the Firestore emulator has no managed export")
    void readsTheLiveSideOfAnExportOverPlannedRangesOneOrSeveralAtOnce() throws Exception {
        ConnectionSpec conn = SharedEmulator.freshProject(server, "ranged-export");
        Datastore datastore = SharedEmulator.connect(conn);
        seed(datastore);
        Map<Key, Entity> exported = RichEntities.query(datastore, KIND, null);
        Path export = io.keyranger.support.EmulatorExports.export(conn, dir, null);
        Calls calls = new Calls();
        Session live = Session.open(conn).wrap(calls::wrap);
        damage(datastore, OrderedRangeRead.plan(live.datastore(), live.order(), "", KIND, SEVERAL,
                Cancellation.NEVER).stream().skip(1).map(KeyRange::start).toList());
        Map<Key, Entity> now = RichEntities.query(datastore, KIND, null);

        for (int parallel : new int[] {1, SEVERAL}) {
            // the live kind as it is now, planned as the comparison plans it: one keys-only query a range
            List<KeyRange> ranges = OrderedRangeRead.plan(live.datastore(), live.order(), "", KIND, parallel,
                    Cancellation.NEVER);
            assertThat(ranges).as("planned live ranges").hasSizeGreaterThan(2 * parallel);
            Path out = dir.resolve("export-" + parallel);
            calls.reset();
            ExportDiff.Result r = new Diffs(live).run(DiffRequest.of(new DiffRequest.Export(ManagedExport.open(
                    export)), "", KIND).keysOut(out, DiffRequest.Resume.AFRESH).sized(DiffRequest.PAGE_SIZE,
                    parallel), n -> { }, Cancellation.NEVER);

            assertAsTheEmulatorSays(r, out, exported, now, false);
            assertThat(calls.liveKeyRanges.get()).as("keys-only queries of live ranges, " + parallel + " at once")
                    .isEqualTo(ranges.size());
        }
    }

    /**
     * Counts and key lists are the emulator's: {@code before} and {@code now} are its answers to a query of the whole
     * kind (in its key order) before and after. The lists of what was removed and changed are in key order when the
     * source is read in key order ({@code inKeyOrder}: the past; an export is read in its files' order).
     */
    private static void assertAsTheEmulatorSays(ExportDiff.Result r, Path out, Map<Key, Entity> before,
                                                Map<Key, Entity> now, boolean inKeyOrder) throws Exception {
        List<Key> removed = before.keySet().stream().filter(k -> !now.containsKey(k)).toList();
        List<Key> changed = before.keySet().stream().filter(k -> now.containsKey(k)
                && !now.get(k).getProperties().equals(before.get(k).getProperties())).toList();
        List<Key> added = now.keySet().stream().filter(k -> !before.containsKey(k)).toList();
        assertThat(removed).isNotEmpty();
        assertThat(changed).isNotEmpty();
        assertThat(added).isNotEmpty();
        assertThat(r.cancelled()).isFalse();
        assertThat(r.compared()).isEqualTo(before.size());
        assertThat(r.same()).isEqualTo(before.size() - removed.size() - changed.size());
        assertThat(r.changed()).isEqualTo(changed.size());
        assertThat(r.removed()).isEqualTo(removed.size());
        assertThat(r.added()).isEqualTo(added.size());
        for (String list : List.of("removed.keys", "changed.keys")) {
            List<String> expected = (list.startsWith("removed") ? removed : changed).stream().map(Gql::keyLiteral)
                    .toList();
            if (inKeyOrder) {
                assertThat(Files.readAllLines(out.resolve(list))).as(list + ", in key order")
                        .containsExactlyElementsOf(expected);
            } else {
                assertThat(Files.readAllLines(out.resolve(list))).as(list)
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
        }
        assertThat(Files.readAllLines(out.resolve("added.keys"))).as("added.keys, in key order")
                .containsExactlyElementsOf(added.stream().map(Gql::keyLiteral).toList());
    }

    /**
     * {@link #SEEDED} entities: even ids, and names (some beyond the Basic Multilingual Plane, which the emulators
     * order apart), so that a key just after each one is free.
     */
    private static void seed(Datastore datastore) {
        KeyFactory keys = datastore.newKeyFactory().setKind(KIND);
        List<Entity> seed = new ArrayList<>();
        for (int i = 1; i <= SEEDED; i++) {
            Key key = i % 3 == 0 ? keys.newKey(2L * i) : keys.newKey((i % 3 == 1 ? "n" : i % 2 == 0 ? "\uFFFF"
                    : "\uD83D\uDE00") + String.format("%05d", i));
            seed.add(Entity.newBuilder(key).set("n", i).set("tag", "t" + i % 7).build());
        }
        SharedEmulator.putAll(datastore, seed);
    }

    /**
     * At each boundary in turn: deletes it, changes it, leaves it, and adds the key just after it; elsewhere deletes
     * every 13th and changes every 17th entity.
     */
    private static void damage(Datastore datastore, List<Key> boundaries) {
        List<Key> delete = new ArrayList<>();
        List<Entity> put = new ArrayList<>();
        List<Entity> all = new ArrayList<>(RichEntities.query(datastore, KIND, null).values());
        for (int i = 0; i < all.size(); i++) {
            Entity e = all.get(i);
            int at = boundaries.indexOf(e.getKey());
            if (at >= 0 ? at % 3 == 0 : i % 13 == 5) {
                delete.add(e.getKey());
            } else if (at >= 0 ? at % 3 == 1 : i % 17 == 7) {
                put.add(Entity.newBuilder(e).set("n", -e.getLong("n")).build());
            }
            if (at >= 0) {
                Key after = e.getKey().hasId() ? Key.newBuilder(e.getKey()).setId(e.getKey().getId() + 1).build()
                        : Key.newBuilder(e.getKey()).setName(e.getKey().getName() + "0").build();
                put.add(Entity.newBuilder(after).set("n", 0).build());
            }
        }
        assertThat(delete).as("boundaries deleted").anyMatch(boundaries::contains);
        datastore.delete(delete.toArray(new Key[0]));
        SharedEmulator.putAll(datastore, put);
    }


    /** Whether a call's arguments read as of a moment (a {@code ReadOption} given: only the past's reads give one). */
    private static boolean past(Object[] args) {
        return args[args.length - 1] instanceof ReadOption[] options && options.length > 0;
    }

    /** Counts the queries that go through a client: of whole entities as of a moment, and of live keys by range. */
    static final class Calls {
        final AtomicInteger pastQueries = new AtomicInteger();
        final AtomicInteger liveKeyRanges = new AtomicInteger();
        final AtomicLong all = new AtomicLong();

        void reset() {
            pastQueries.set(0);
            liveKeyRanges.set(0);
            all.set(0);
        }

        Datastore wrap(Datastore datastore) {
            return (Datastore) Proxy.newProxyInstance(Datastore.class.getClassLoader(),
                    new Class<?>[] {Datastore.class}, (proxy, method, args) -> {
                        String name = method.getName();
                        if (name.equals("run") || name.equals("fetch") || name.equals("get")
                                || name.equals("runAggregation")) {
                            all.incrementAndGet();
                        }
                        if (name.equals("run") && args[0] instanceof EntityQuery && past(args)) {
                            pastQueries.incrementAndGet();
                        }
                        if (name.equals("run") && args[0] instanceof KeyQuery q && !past(args)
                                && q.getFilter() != null) {
                            liveKeyRanges.incrementAndGet();
                        }
                        try {
                            return method.invoke(datastore, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }
}

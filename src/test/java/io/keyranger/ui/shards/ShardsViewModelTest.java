package io.keyranger.ui.shards;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.datastore.Cancellation;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.KeyCounter;
import io.keyranger.datastore.ProgressListener;
import io.keyranger.datastore.ServerType;
import io.keyranger.datastore.Session;
import io.keyranger.sharding.PlannedRange;
import io.keyranger.sharding.ShardPreview;
import io.keyranger.support.Fx;
import io.keyranger.support.HeldRead;
import io.keyranger.support.SharedEmulator;
import io.keyranger.support.WindowlessApp;
import io.keyranger.ui.common.KindTarget;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Shards tab's view model on the demo's data, no window: Account planned into 4 ranges, both plans named for how
 * they were made with their balance, then every range counted exactly. ({@code ui.KeySpaceMapTest} checks the
 * window's map and chart of the plans.)
 */
class ShardsViewModelTest {
    /** Account selected and counted (a plan starts from the kind's known count), then planned into 4 ranges. */
    private static ShardsViewModel plannedInFour(WindowlessApp app) {
        ShardsViewModel shards = app.model().shards();
        app.select("Account");
        Fx.waitUntil(60, () -> app.kind("Account").countProperty().get() != null);
        Fx.get(() -> {
            shards.shardsProperty().set(4);
            shards.plan();
            return null;
        });
        Fx.waitUntil(60, () -> shards.rows().size() == 4 && !shards.busyProperty().get());
        return shards;
    }

    private static void countExactly(ShardsViewModel shards, int accounts) {
        Fx.get(() -> {
            shards.countExactly();
            return null;
        });
        Fx.waitUntil(60, () -> shards.rows().stream().allMatch(r -> r.exact() != null));
        assertThat(Fx.get(() -> shards.rows().stream().mapToLong(PlannedRange::exact).sum())).isEqualTo(accounts);
        assertThat(Fx.get(() -> shards.balanceProperty().get())).contains("(exact)");
    }

    @Test
    void theKindIsPlannedFromScatterAndCountedExactly() {
        ConnectionSpec conn = WindowlessApp.demoData("shards-vm", 120);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            ShardsViewModel shards = plannedInFour(app);
            ShardPreview preview = Fx.get(() -> shards.previewProperty().get());
            assertThat(preview.scatter().ranges()).hasSize(4);
            assertThat(preview.lexicographic().ranges()).isNotEmpty();
            assertThat(Fx.get(() -> shards.balanceProperty().get()))
                    .contains("Scatter: max/mean").contains("Lexicographic: max/mean").contains("(estimated)");
            countExactly(shards, 120);
            assertThat(app.errors()).isEmpty();
        }
    }

    /** The Firestore emulator has no {@code __scatter__}: the plan says so and is named for the exact scan it came from. */
    @Test
    void onTheFirestoreEmulatorThePlanSaysThereIsNoScatterAndCountsExactly() {
        ConnectionSpec conn = WindowlessApp.demoData(ServerType.FIRESTORE_EMULATOR, "shards-vm-fs", 80);
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            ShardsViewModel shards = plannedInFour(app);
            assertThat(Fx.get(() -> shards.summaryProperty().get()))
                    .startsWith("Account: 4 ranges from an exact keys-only scan. ")
                    .contains("No __scatter__ samples").contains("planned from an exact keys-only scan of 80")
                    .doesNotContain("0 scatter samples");
            // the plan is named for how it was made: there were no scatter samples to make it from
            assertThat(Fx.get(() -> shards.balanceProperty().get())).startsWith("Exact: max/mean")
                    .contains("Lexicographic: max/mean").doesNotContain("Scatter");
            ShardPreview preview = Fx.get(() -> shards.previewProperty().get());
            assertThat(List.of(ShardsViewModel.seriesName(preview.scatter()),
                    ShardsViewModel.seriesName(preview.lexicographic())))
                    .containsExactly("Exact (exact)", "Lexicographic (exact)");
            countExactly(shards, 80);
            assertThat(app.errors()).isEmpty();
        }
    }

    /**
     * Count exactly fills in each range as it is counted: with one range's read held, the other three scatter ranges
     * show their exact counts (the server's own) and the status bar says 3 counted, before the held one ends. Cancel
     * says so at once, keeps the three, and the held read's thread ends without reading more once the server answers.
     */
    @Test
    void eachRangeShowsItsCountAsItComesAndCancelStopsTheCount() {
        ConnectionSpec conn = WindowlessApp.demoData("shards-fill", 120);
        HeldRead gate = HeldRead.on("run", "runAggregation");
        try (WindowlessApp app = WindowlessApp.connectedTo(conn)) {
            ShardsViewModel shards = app.model().shards();
            app.select("Account");
            Session session = Fx.get(() -> app.model().sessionProperty().get());
            Fx.get(() -> {
                shards.targetProperty().set(new KindTarget(session.wrap(gate::wrap), "", "Account", () -> null));
                shards.shardsProperty().set(4);
                shards.plan();
                return null;
            });
            Fx.waitUntil(60, () -> shards.rows().size() == 4 && !shards.busyProperty().get());
            int total = Fx.get(() -> shards.previewProperty().get().lexicographic().ranges().size()) + 4;
            gate.arm();
            Fx.get(() -> {
                shards.countExactly();
                return null;
            });
            Fx.waitUntil(60, () -> gate.holding() && shards.rows().stream().filter(r -> r.exact() != null).count() == 3);
            KeyCounter server = new KeyCounter(SharedEmulator.connect(conn));
            for (PlannedRange r : Fx.get(() -> List.copyOf(shards.rows()))) {
                if (r.exact() != null) {
                    assertThat(r.exact()).as("range %d", r.index()).isEqualTo(server.count("", "Account",
                            r.range().filter(List.of()), ProgressListener.NONE, Cancellation.NEVER).count());
                }
            }
            Fx.waitUntil(10, () -> app.model().status().messageProperty().get()
                    .startsWith("Counting ranges: 3 / " + total + ", "));
            assertThat(Fx.get(() -> app.model().status().busyProperty().get())).isTrue();

            Fx.get(() -> {
                app.model().status().cancel();
                return null;
            });
            Fx.waitUntil(10, () -> !shards.busyProperty().get());
            assertThat(gate.holding()).as("the screen says cancelled while the read is still held").isTrue();
            assertThat(Fx.get(() -> app.model().status().messageProperty().get())).isEqualTo("Counting ranges: cancelled");
            assertThat(Fx.get(() -> shards.summaryProperty().get()))
                    .isEqualTo("Counting cancelled: 3 of " + total + " ranges counted. Count exactly again to count "
                            + "the others.");
            int calls = gate.calls();
            gate.release();
            Fx.waitUntil(30, () -> !gate.holder().isAlive());
            assertThat(gate.calls()).as("no read after the cancelled one").isEqualTo(calls);
            assertThat(Fx.get(() -> shards.rows().stream().filter(r -> r.exact() != null).count())).isEqualTo(3);
            // three counts and one estimate are not called estimated (nor exact)
            assertThat(Fx.get(() -> ShardsViewModel.seriesName(shards.previewProperty().get().scatter())))
                    .isEqualTo("Scatter (3 of 4 counted, the rest estimated)");
            assertThat(Fx.get(() -> shards.balanceProperty().get()))
                    .contains("Scatter: max/mean").contains("(3 of 4 counted, the rest estimated)");
            assertThat(app.errors()).isEmpty();
        }
    }
}

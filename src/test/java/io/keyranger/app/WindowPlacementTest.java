package io.keyranger.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.profile.WindowLayout;
import java.util.List;
import java.util.Map;
import javafx.geometry.Rectangle2D;
import org.junit.jupiter.api.Test;

class WindowPlacementTest {
    private static final Rectangle2D LAPTOP = new Rectangle2D(0, 0, 1280, 760);
    private static final Rectangle2D DESKTOP = new Rectangle2D(0, 0, 1920, 1050);
    private static final Rectangle2D WIDE = new Rectangle2D(0, 0, 2560, 1400);
    private static final Rectangle2D RIGHT_MONITOR = new Rectangle2D(1920, 0, 1920, 1050);

    @Test
    void aSmallScreenGetsAMaximizedWindow() {
        WindowPlacement.Placement placement = WindowPlacement.place(LAPTOP, List.of(LAPTOP), null);
        assertThat(placement.maximized()).isTrue();
        assertThat(LAPTOP.contains(placement.bounds())).isTrue();
    }

    @Test
    void aLargerScreenGetsEightyPercentCentred() {
        WindowPlacement.Placement placement = WindowPlacement.place(DESKTOP, List.of(DESKTOP), null);
        assertThat(placement.maximized()).isFalse();
        assertThat(placement.bounds()).isEqualTo(new Rectangle2D(192, 105, 1536, 840));
    }

    @Test
    void aVeryLargeScreenGetsAtMostSixteenHundredByAThousand() {
        WindowPlacement.Placement placement = WindowPlacement.place(WIDE, List.of(WIDE), null);
        assertThat(placement.bounds()).isEqualTo(new Rectangle2D(480, 200, 1600, 1000));
    }

    @Test
    void aRememberedWindowComesBackWhereItWas() {
        WindowLayout saved = new WindowLayout(2000, 50, 1000, 700, false, Map.of());
        WindowPlacement.Placement placement = WindowPlacement.place(DESKTOP, List.of(DESKTOP, RIGHT_MONITOR), saved);
        assertThat(placement.bounds()).isEqualTo(new Rectangle2D(2000, 50, 1000, 700));
        assertThat(placement.maximized()).isFalse();
    }

    @Test
    void aWindowOnAMonitorThatIsGoneIsCentredOnThePrimaryScreenWithItsSize() {
        WindowLayout saved = new WindowLayout(2000, 50, 1000, 700, true, Map.of());
        WindowPlacement.Placement placement = WindowPlacement.place(DESKTOP, List.of(DESKTOP), saved);
        assertThat(placement.bounds()).isEqualTo(new Rectangle2D(460, 175, 1000, 700));
        assertThat(placement.maximized()).isTrue();
    }

    @Test
    void aWindowWhoseTitleBarIsAboveEveryScreenIsMovedBack() {
        WindowLayout saved = new WindowLayout(100, -600, 1000, 700, false, Map.of());
        WindowPlacement.Placement placement = WindowPlacement.place(DESKTOP, List.of(DESKTOP), saved);
        assertThat(DESKTOP.contains(placement.bounds())).isTrue();
    }

    @Test
    void aWindowLargerThanItsScreenNowIsShrunkToFitIt() {
        WindowLayout saved = new WindowLayout(10, 10, 1800, 1000, false, Map.of());
        WindowPlacement.Placement placement = WindowPlacement.place(LAPTOP, List.of(LAPTOP), saved);
        assertThat(placement.bounds()).isEqualTo(new Rectangle2D(0, 0, 1280, 760));
    }
}

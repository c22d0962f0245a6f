package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ReadWindow#check}: what it lets through is a moment the server reads, rounded as the server keeps it. */
class ReadWindowTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00.123456Z");
    /** A PITR window whose earliest version falls between whole minutes, as earliestVersionTime often does. */
    private static final ReadWindow PITR = new ReadWindow(Instant.parse("2026-11-27T10:15:30Z"), true,
            "the database's earliestVersionTime, point-in-time recovery on");

    @Test
    void anOldTimeThatRoundsDownBeforeTheEarliestVersionIsRefusedNamingTheWindow() {
        // 10:15:45 is inside the window, but older than an hour it is read at 10:15:00, which the database no longer
        // keeps: the server would refuse the first read with its own error
        List<String> told = new ArrayList<>();
        assertThatThrownBy(() -> PITR.check(PointInTime.parse("2026-11-27T10:15:45Z", NOW), NOW, told::add))
                .isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("older than the database keeps")
                .hasMessageContaining("2026-11-27T10:15:00Z")
                .hasMessageContaining("from 2026-11-27T10:15:30Z to now")
                .hasMessageContaining("2026-11-27T10:16:00Z or later");
        assertThat(told).isEmpty();
    }

    @Test
    void theFirstWholeMinuteInTheWindowIsRead() {
        List<String> told = new ArrayList<>();
        assertThat(PITR.check(PointInTime.parse("2026-11-27T10:16:20Z", NOW), NOW, told::add).time())
                .isEqualTo(Instant.parse("2026-11-27T10:16:00Z"));
        assertThat(told).singleElement().asString().contains("whole minutes");
        assertThat(PITR.check(PointInTime.parse("2026-11-27T10:16:00Z", NOW), NOW, m -> { }).time())
                .isEqualTo(Instant.parse("2026-11-27T10:16:00Z"));
        assertThatThrownBy(() -> PITR.check(PointInTime.parse("2026-11-27T10:15:00Z", NOW), NOW, m -> { }))
                .hasMessageContaining("older than the database keeps");
    }

    @Test
    void theRefusalsNameTheTimeNotTheOptionSinceTheAppShowsThemToo() {
        // the app shows them under its As-of field, where "--as-of" would read like the command line
        ReadWindow hour = ReadWindow.lastHour(NOW, "what the emulator keeps");
        assertThatThrownBy(() -> hour.check(PointInTime.parse("2026-11-27T12:01:00Z", NOW), NOW, m -> { }))
                .hasMessage("2026-11-27T12:01:00Z is in the future; the database can be read as of any moment from"
                        + " 2026-11-27T11:00:00.123456Z to now (the last hour (what the emulator keeps)).");
        assertThatThrownBy(() -> hour.check(PointInTime.parse("-2h", NOW), NOW, m -> { }))
                .hasMessageStartingWith("2026-11-27T10:00:00.123456Z (-2h) is older than the database keeps: it can be"
                        + " read as of any moment from 2026-11-27T11:00:00.123456Z to now")
                .hasMessageNotContaining("--as-of");
        assertThatThrownBy(() -> PITR.check(PointInTime.parse("2026-11-27T10:15:45Z", NOW), NOW, m -> { }))
                .hasMessageStartingWith("2026-11-27T10:15:45Z is older than the database keeps")
                .hasMessageNotContaining("--as-of");
    }
}

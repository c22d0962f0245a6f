package io.keyranger.datastore;

import io.keyranger.KeyRangerException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.function.Consumer;

/**
 * How far back a database keeps its versions, so that a read of the past ({@code --as-of}) is refused before the first
 * read when it asks for more: the last hour at any microsecond, and with point-in-time recovery (PITR) up to 7 days
 * at whole minutes.
 *
 * @param earliest the oldest moment that can be read
 * @param pitr     whether versions older than an hour are kept (at whole minutes)
 * @param source   where the window comes from, for messages ("the database's earliestVersionTime", "the last
 *                 hour: ...")
 */
public record ReadWindow(Instant earliest, boolean pitr, String source) {
    /** Versions kept at any microsecond, with or without PITR. */
    public static final Duration FINE = Duration.ofHours(1);

    /** The window when nothing better is known: the last hour before {@code now}. */
    public static ReadWindow lastHour(Instant now, String why) {
        return new ReadWindow(now.minus(FINE), false, "the last hour (" + why + ")");
    }

    /**
     * The window of the database {@code live} reaches. Production: the Admin API's database fields
     * ({@link AdminDatabase}, a request over the network, so never on a UI thread), or the last hour, saying why,
     * when they cannot be read; the Firestore emulator: the last hour.
     */
    public static ReadWindow of(Session live, Instant now) {
        return switch (live.spec().server()) {
            case PRODUCTION -> AdminDatabase.window(live, now);
            case FIRESTORE_EMULATOR -> lastHour(now, "what the emulator keeps");
            default -> lastHour(now, "the database's retention was not read");
        };
    }

    /**
     * {@code live} reading the database as of {@code typed} (RFC 3339 or {@code -15m}): refused on a server that keeps
     * no past and outside the {@link #of window}, before anything is read; a time rounded to a whole minute is
     * {@code told}. The one way the command line and the app open the past.
     */
    public static Session open(Session live, String typed, Consumer<String> told) {
        if (!live.spec().server().readsPast()) {
            throw new KeyRangerException(ServerType.NO_PAST);
        }
        Instant now = Instant.now();
        PointInTime asked = PointInTime.parse(typed, now);
        return live.live().asOf(of(live, now).check(asked, now, told));
    }

    /**
     * {@code asked} as the server can read it: refused (naming the window) when it is in the future or before the
     * window; older than an hour, rounded down to a whole minute unless it is one, with {@code told} told so. The
     * rounded time is what is checked against the window, since it is what the server reads: a time inside the
     * window whose minute began before the earliest version is refused, naming the first whole minute that can be
     * read (never rounded up, which would read a moment later than the one asked for).
     */
    public PointInTime check(PointInTime asked, Instant now, Consumer<String> told) {
        if (asked.time().isAfter(now)) {
            throw new KeyRangerException(asked.describe() + " is in the future; the database can be read"
                    + " as of any moment from " + earliest + " to now (" + source + ").");
        }
        if (asked.time().isBefore(earliest)) {
            throw new KeyRangerException(asked.describe() + " is older than the database keeps: it can"
                    + " be read as of any moment from " + earliest + " to now (" + source + ")"
                    + (pitr ? "." : "; enable point-in-time recovery to keep 7 days."));
        }
        if (!asked.time().isBefore(now.minus(FINE))) {
            return asked;
        }
        PointInTime minute = asked.wholeMinute();
        if (minute.time().isBefore(earliest)) {
            Instant first = earliest.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
            throw new KeyRangerException(asked.describe() + " is older than the database keeps at"
                    + " whole minutes: versions older than an hour are kept at whole minutes, and it would be read"
                    + " as of " + minute.time() + ", before the earliest version; the database can be read as of any"
                    + " moment from " + earliest + " to now (" + source + "): give " + first + " or later.");
        }
        if (!minute.time().equals(asked.time())) {
            told.accept("Versions older than an hour are kept at whole minutes: reading as of " + minute.time()
                    + " instead of " + asked.time() + ".");
        }
        return minute;
    }
}

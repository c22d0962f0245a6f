package io.keyranger.datastore;

import com.google.cloud.datastore.DatastoreException;
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

    /**
     * What the Firestore emulator keeps (measured, gcloud 528): a version is dropped when its entity is written again
     * about 300 s after the version was replaced (between 293 and 303 s), and a read as of a moment that needs it then
     * answers HTTP 500 with no message (UNKNOWN; lookups and queries alike). A version whose entity is not written
     * again stays readable (more than 9 minutes, measured). So only a moment younger than 300 s is sure to be whole;
     * KeyRanger reads the last {@link #firestoreEmulatorKeeps} there, leaving a job a minute to read it.
     */
    public static final Duration FIRESTORE_EMULATOR_KEEPS = Duration.ofMinutes(4);
    /** The system property that sets the Firestore emulator's window in seconds (tests shorten it). */
    public static final String FIRESTORE_EMULATOR_KEEPS_PROPERTY = "keyranger.firestoreEmulator.keepsSeconds";
    /** The rule behind the Firestore emulator's window, for every message that names it. */
    public static final String FIRESTORE_EMULATOR_RULE = "the Firestore emulator drops an entity's old version once "
            + "the entity is written again about 300 s after it was replaced, so KeyRanger reads only moments of the "
            + "last ";

    /** What the server said of a read whose version it dropped ({@link #versionDropped}), for messages. */
    public static final String DROPPED = "the server answered a read as of that moment with UNKNOWN and no message, "
            + "as the Firestore emulator does once it has dropped the version the read needs (an entity written "
            + "again about 300 s after that version was replaced)";

    /**
     * The moment of a read of the past that failed because the server no longer keeps the version it needs, or null:
     * UNKNOWN with no message, as the Firestore emulator answers (HTTP 500, {@code
     * StoredEntity$History$GarbageCollectedException} in its log) a lookup or query as of a dropped version.
     */
    public static Instant versionDropped(Throwable error) {
        Instant readTime = ServerErrors.readTime(error);
        if (readTime == null) {
            return null;
        }
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof DatastoreException e) {
                boolean unknown = "UNKNOWN".equals(e.getReason()) || e.getCode() == 2;
                return unknown && (e.getMessage() == null || e.getMessage().isBlank()) ? readTime : null;
            }
        }
        return null;
    }

    /** The window when nothing better is known: the last hour before {@code now}. */
    public static ReadWindow lastHour(Instant now, String why) {
        return new ReadWindow(now.minus(FINE), false, "the last hour (" + why + ")");
    }

    /**
     * The window of the database {@code live} reaches. Production: the Admin API's database fields
     * ({@link AdminDatabase}, a request over the network, so never on a UI thread), or the last hour, saying why,
     * when they cannot be read; the production model: the same fields, which it answers at its own address; the
     * Firestore emulator: the last {@link #firestoreEmulatorKeeps}.
     */
    public static ReadWindow of(Session live, Instant now) {
        return switch (live.spec().server()) {
            case PRODUCTION -> AdminDatabase.window(live, now);
            case MODEL -> AdminDatabase.window(live, now, "http://" + live.spec().emulatorHost() + "/v1/");
            case FIRESTORE_EMULATOR -> firestoreEmulator(now);
            default -> lastHour(now, "the database's retention was not read");
        };
    }

    /** The Firestore emulator's window: the last {@link #firestoreEmulatorKeeps} before {@code now}. */
    public static ReadWindow firestoreEmulator(Instant now) {
        return new ReadWindow(now.minus(firestoreEmulatorKeeps()), false, FIRESTORE_EMULATOR_RULE
                + describe(firestoreEmulatorKeeps()));
    }

    /** How far back KeyRanger reads the Firestore emulator: {@link #FIRESTORE_EMULATOR_KEEPS} unless set. */
    public static Duration firestoreEmulatorKeeps() {
        Long seconds = Long.getLong(FIRESTORE_EMULATOR_KEEPS_PROPERTY);
        return seconds == null || seconds <= 0 ? FIRESTORE_EMULATOR_KEEPS : Duration.ofSeconds(seconds);
    }

    /**
     * What {@code server} keeps of the past, in one sentence for where the window is shown (the As-of banner, the
     * command line's "Reading the database as of ..."): the emulator's real rule; production's hour or PITR's days.
     */
    public static String rule(ServerType server) {
        return switch (server) {
            case FIRESTORE_EMULATOR -> Character.toUpperCase(FIRESTORE_EMULATOR_RULE.charAt(0))
                    + FIRESTORE_EMULATOR_RULE.substring(1) + describe(firestoreEmulatorKeeps()) + "; a job reading an "
                    + "older moment stops and says so.";
            case PRODUCTION -> "The database keeps the last hour at any microsecond, and with point-in-time recovery "
                    + "7 days at whole minutes.";
            case MODEL -> "The production model keeps versions as production does: the last hour at any microsecond, "
                    + "and when started with a longer retention (point-in-time recovery) up to 7 days at whole minutes.";
            default -> ServerType.NO_PAST;
        };
    }

    private static String describe(Duration keeps) {
        long s = keeps.toSeconds();
        return s % 60 == 0 ? (s / 60) + (s == 60 ? " minute" : " minutes") : s + " s";
    }

    /**
     * Null while {@code moment} is still in this window (read at {@code windowAt}, moved on with the clock to
     * {@code now}: its width stays); else "the moment T has left the server's version window: ...", which a long read
     * of the past (a restore, a diff) stops with.
     */
    public String left(PointInTime moment, Instant windowAt, Instant now) {
        Instant moved = earliest.plus(Duration.between(windowAt, now)).truncatedTo(ChronoUnit.MILLIS);
        return !moment.time().isBefore(moved) ? null : "the moment " + moment.describe() + " has left the server's "
                + "version window: it can be read as of any moment from " + moved + " to now (" + source + ")";
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
                    + (pitr || source.startsWith(FIRESTORE_EMULATOR_RULE) ? "."
                    : "; enable point-in-time recovery to keep 7 days."));
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

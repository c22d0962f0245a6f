package io.keyranger.datastore;

import com.google.cloud.Timestamp;
import io.keyranger.KeyRangerException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A moment of the database's past that reads ask for ({@code --as-of}): the time, as the server takes it (whole
 * microseconds), and what the user typed.
 *
 * @param time  the moment
 * @param typed what the user gave ({@code -15m}, an RFC 3339 time), for messages
 */
public record PointInTime(Instant time, String typed) {
    private static final Pattern RELATIVE = Pattern.compile("-((?:\\d+[dhms])+)");
    private static final Pattern PART = Pattern.compile("(\\d+)([dhms])");
    /** An RFC 3339 date and the rest, split where the 'T' (or, as RFC 3339 allows, 't' or a space) stands. */
    private static final Pattern DATE_TIME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[Tt ](.*)");

    public PointInTime {
        time = time.truncatedTo(ChronoUnit.MICROS);
        typed = typed == null ? time.toString() : typed;
    }

    public static PointInTime at(Instant time) {
        return new PointInTime(time, null);
    }

    /**
     * Reads {@code text}: an RFC 3339 time ({@code 2026-11-27T10:15:00Z}, {@code 2026-11-27T11:15:00+01:00}; as RFC
     * 3339 allows, a space for the 'T' and lowercase 't' and 'z') or a time relative to {@code now} ({@code -15m},
     * {@code -1h30m}, {@code -2d}, {@code -90s}); a clear error for anything else, a relative time too far back for a
     * clock included.
     */
    public static PointInTime parse(String text, Instant now) {
        String trimmed = text == null ? "" : text.strip();
        Matcher relative = RELATIVE.matcher(trimmed);
        if (relative.matches()) {
            try {
                return new PointInTime(now.minus(back(relative.group(1))), trimmed);
            } catch (NumberFormatException | ArithmeticException | DateTimeException e) {
                throw notATime(trimmed); // more digits than a long holds, or further back than a clock reaches
            }
        }
        Matcher dateTime = DATE_TIME.matcher(trimmed);
        String iso = dateTime.matches() ? (dateTime.group(1) + "T" + dateTime.group(2)).toUpperCase(Locale.ROOT)
                : trimmed;
        try {
            return new PointInTime(OffsetDateTime.parse(iso).toInstant(), trimmed);
        } catch (DateTimeException e) {
            throw notATime(trimmed);
        }
    }

    private static Duration back(String parts) {
        Duration back = Duration.ZERO;
        Matcher part = PART.matcher(parts);
        while (part.find()) {
            long n = Long.parseLong(part.group(1));
            back = back.plus(switch (part.group(2)) {
                case "d" -> Duration.ofDays(n);
                case "h" -> Duration.ofHours(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofSeconds(n);
            });
        }
        return back;
    }

    private static KeyRangerException notATime(String typed) {
        return new KeyRangerException("'" + typed + "' is not a time: give an RFC 3339 time such as "
                + "2026-11-27T10:15:00Z, or a time back from now such as -15m, -1h30m or -2d.");
    }

    public Timestamp timestamp() {
        return Timestamp.ofTimeSecondsAndNanos(time.getEpochSecond(), time.getNano());
    }

    /** This moment, rounded down to a whole minute. */
    public PointInTime wholeMinute() {
        return new PointInTime(time.truncatedTo(ChronoUnit.MINUTES), typed);
    }

    /** "2026-11-27T10:15:00Z" and, when typed otherwise, what was typed: "2026-11-27T10:15:00Z (-15m)". */
    public String describe() {
        return typed.equals(time.toString()) ? time.toString() : time + " (" + typed + ")";
    }
}

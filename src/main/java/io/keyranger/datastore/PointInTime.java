package io.keyranger.datastore;

import com.google.cloud.Timestamp;
import io.keyranger.KeyRangerException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
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

    public PointInTime {
        time = time.truncatedTo(ChronoUnit.MICROS);
        typed = typed == null ? time.toString() : typed;
    }

    public static PointInTime at(Instant time) {
        return new PointInTime(time, null);
    }

    /**
     * Reads {@code text}: an RFC 3339 time ({@code 2026-11-27T10:15:00Z}, {@code 2026-11-27T11:15:00+01:00}) or a
     * time relative to {@code now} ({@code -15m}, {@code -1h30m}, {@code -2d}, {@code -90s}); a clear error for
     * anything else.
     */
    public static PointInTime parse(String text, Instant now) {
        String trimmed = text == null ? "" : text.strip();
        Matcher relative = RELATIVE.matcher(trimmed);
        if (relative.matches()) {
            Duration back = Duration.ZERO;
            Matcher part = PART.matcher(relative.group(1));
            while (part.find()) {
                long n = Long.parseLong(part.group(1));
                back = back.plus(switch (part.group(2)) {
                    case "d" -> Duration.ofDays(n);
                    case "h" -> Duration.ofHours(n);
                    case "m" -> Duration.ofMinutes(n);
                    default -> Duration.ofSeconds(n);
                });
            }
            return new PointInTime(now.minus(back), trimmed);
        }
        try {
            return new PointInTime(OffsetDateTime.parse(trimmed).toInstant(), trimmed);
        } catch (DateTimeParseException e) {
            throw new KeyRangerException("'" + trimmed + "' is not a time: give an RFC 3339 time such as "
                    + "2026-11-27T10:15:00Z, or a time back from now such as -15m, -1h30m or -2d.");
        }
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

package io.keyranger.bench.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code --version-retention TIME} as the model server and the bench take it: how far back the model keeps
 * versions, from 1s to 7d (what point-in-time recovery keeps) in s, m, h or d.
 */
final class VersionRetention {
    private static final Pattern TIME = Pattern.compile("(\\d{1,7})([smhd])");

    private VersionRetention() {
    }

    /** {@code text} as a duration; an {@link IllegalArgumentException} that says what it takes otherwise. */
    static Duration parse(String text) {
        Matcher m = TIME.matcher(text.strip());
        Duration value = null;
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            value = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        if (value == null || value.isZero() || value.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException("--version-retention takes a time from 1s to 7d in s, m, h or d "
                    + "(e.g. 1h, 7d), not '" + text + "'.");
        }
        return value;
    }
}

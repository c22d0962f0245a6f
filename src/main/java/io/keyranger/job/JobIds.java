package io.keyranger.job;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.ThreadLocalRandom;

/** The ids of new jobs. */
public final class JobIds {
    private JobIds() {
    }

    /** A new job id: the kind, the time, and a random suffix. */
    public static String newJobId(String kind) {
        String safeKind = kind.replaceAll("[^A-Za-z0-9_.-]", "_");
        return safeKind.substring(0, Math.min(40, safeKind.length())) + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + Integer.toString(ThreadLocalRandom.current().nextInt(36 * 36 * 36), 36);
    }
}

package io.keyranger.migrate;

import io.keyranger.KeyRangerException;
import io.keyranger.migrate.MigrationLedger.Entry;
import io.keyranger.migrate.MigrationLedger.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each migration of a folder and of a database's ledger side by side, with where it stands: what {@code status}
 * shows, and what {@code up}, {@code plan} and {@code down} check before anything is written.
 *
 * @param number    the migration's number
 * @param migration its file as read now, or null when the folder has none of that number
 * @param entry     what the database records of it, or null when it was never applied
 */
public record MigrationStatus(int number, Migration migration, Entry entry) {
    /** Where it stands, in the words {@code status} (and {@code status --json}) uses. */
    public enum Word {
        PENDING("pending"), APPLIED("applied"), RUNNING("stopped part-way"), FAILED("failed"),
        REVERTING("stopped while rolling back"), CHANGED("changed since applied"), MISSING("file missing"),
        OUT_OF_ORDER("numbered before an applied migration"), GONE("rolled back, file removed");

        private final String text;

        Word(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /** The folder's migrations and the ledger's entries, by number. */
    public static List<MigrationStatus> of(List<Migration> files, List<Entry> entries) {
        Map<Integer, Migration> byFile = new TreeMap<>();
        files.forEach(m -> byFile.put(m.number(), m));
        Map<Integer, Entry> byEntry = new TreeMap<>();
        entries.forEach(e -> byEntry.put(e.number(), e));
        TreeMap<Integer, MigrationStatus> all = new TreeMap<>();
        byFile.forEach((n, m) -> all.put(n, new MigrationStatus(n, m, byEntry.get(n))));
        byEntry.forEach((n, e) -> all.putIfAbsent(n, new MigrationStatus(n, null, e)));
        return new ArrayList<>(all.values());
    }

    /** Whether the database holds what it did (applied whole or in part, or taken back part-way). */
    public boolean inEffect() {
        return entry != null && entry.state() != State.REVERTED;
    }

    /** Where it stands, given the highest number in effect in the database ({@code highestInEffect}). */
    public Word word(int highestInEffect) {
        if (entry != null && entry.state() == State.REVERTED && migration == null) {
            return Word.GONE; // taken back, and its file removed since: nothing to apply, nothing in effect
        }
        if (entry == null || entry.state() == State.REVERTED) {
            return number < highestInEffect ? Word.OUT_OF_ORDER : Word.PENDING;
        }
        if (migration == null) {
            return Word.MISSING;
        }
        if (!migration.checksum().equals(entry.checksum())) {
            return Word.CHANGED;
        }
        return switch (entry.state()) {
            case APPLIED -> Word.APPLIED;
            case RUNNING -> Word.RUNNING;
            case FAILED -> Word.FAILED;
            default -> Word.REVERTING;
        };
    }

    /** The highest number in effect among {@code all}, or -1. */
    public static int highestInEffect(List<MigrationStatus> all) {
        return all.stream().filter(MigrationStatus::inEffect).mapToInt(MigrationStatus::number).max().orElse(-1);
    }

    /**
     * Refuses, before {@code up} writes anything, a folder that does not match what the database applied: an applied
     * file changed or missing, a new file numbered before an applied one, or a migration a {@code down} left half
     * taken back; each named. ({@code down} needs only the ledger's job ids: it checks none of this.)
     */
    public static void requireConsistent(List<MigrationStatus> all) {
        int highest = highestInEffect(all);
        for (MigrationStatus s : all) {
            String file = s.migration != null ? s.migration.name() : s.entry.name();
            switch (s.word(highest)) {
                case REVERTING -> throw new KeyRangerException(file + " was being rolled back when its 'migrate "
                        + "down' stopped: finish that first (migrate down --to " + (s.number - 1) + "); nothing was "
                        + "written.");
                case CHANGED -> throw new KeyRangerException(file + " changed since it was applied (checksum "
                        + s.entry.checksum().substring(0, 12) + " then, " + s.migration.checksum().substring(0, 12)
                        + " now): an applied migration is never edited. Put the file back as it was, or roll it "
                        + "back first (migrate down --to " + (s.number - 1) + "); nothing was written.");
                case MISSING -> throw new KeyRangerException(file + " was applied to this database but is missing "
                        + "from the folder: put it back (or roll it back with migrate down --to " + (s.number - 1)
                        + " from a folder that has it); nothing was written.");
                case OUT_OF_ORDER -> throw new KeyRangerException(file + " is numbered before migration "
                        + String.format("%04d", highest) + ", which is applied: give it a number after "
                        + highest + "; nothing was written.");
                default -> {
                }
            }
        }
    }
}

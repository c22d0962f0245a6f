package io.keyranger.dryrun;

/**
 * How many of the entities that the server-side part of a job's selection lets through also meet the part applied
 * on the client (GQL conditions the server cannot apply beside a key range, a CEL {@code where}), as a dry run found
 * by reading them. Only the entities that meet it are mapped, so the job's writes and deletes follow this count: it
 * is exact when every entity was read, an estimate when some of those read matched, and unknown when none did.
 *
 * @param conditions the conditions applied on the client, as written
 * @param server     the server-side part, as written, or "" when the server lets the whole kind through
 * @param read       entities the dry run read and tested
 * @param matched    how many of them met the conditions
 * @param upTo       the entities the server-side part lets through: the most that can match
 * @param allRead    whether {@code read} is all of them, so that {@code matched} is the exact count
 * @param inSample   how many of the dry run's shown sample (its first entities read) matched
 */
public record ClientMatches(String conditions, String server, long read, long matched, long upTo, boolean allRead,
                            long inSample) {
    public ClientMatches {
        if (matched > read || allRead && read != upTo || inSample > matched) {
            throw new IllegalArgumentException("matched " + matched + " of " + read + " read, of " + upTo
                    + (allRead ? " (all read)" : ""));
        }
    }

    /** Not all were read and none of those read matched: how many match is not known, only that at most {@code upTo}. */
    public boolean unknown() {
        return !allRead && matched == 0;
    }

    /** Whether a count scaled from the entities read stands in for the whole: some matched, not all were read. */
    public boolean estimated() {
        return !allRead && matched > 0;
    }

    /** One sentence: how many match, and how that is known. */
    public String describe() {
        String through = String.format("%,d entities %s", upTo, server.isEmpty() ? "of the kind"
                : "that " + server + " lets through");
        if (allRead) {
            return String.format("%s is checked on the client: %,d of the %s match (every one was read: an exact "
                    + "count).", conditions, matched, through);
        }
        if (matched > 0) {
            return String.format("%s is checked on the client: %,d of the first %,d read match, so about %,d of the "
                            + "%s do; the writes and deletes are an estimate scaled from them.", conditions, matched,
                    read, Math.round((double) matched * upTo / read), through);
        }
        return String.format("%s is checked on the client: none of the first %,d read match, so how many of the %s "
                + "do is unknown: anywhere from none to %,d entities will be written or deleted.", conditions, read,
                through, upTo);
    }
}

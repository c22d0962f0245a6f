package io.keyranger.cost;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.keyranger.KeyRangerException;

/**
 * Datastore's per-operation prices, in US dollars per 100,000 operations, with where and when they were taken. The
 * built-in table is Firestore in Datastore mode's published price for a multi-region US location (nam5); a user whose
 * database is elsewhere, or whose prices changed, sets their own in {@code settings.json} ("prices").
 *
 * @param location         where these prices apply, e.g. "nam5 (multi-region, US)"
 * @param readsPer100k     entity reads
 * @param writesPer100k    entity writes
 * @param deletesPer100k   entity deletes
 * @param takenOn          the date the figures were taken (ISO), so a user can judge how stale they are
 * @param source           where they come from
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PriceTable(String location, double readsPer100k, double writesPer100k, double deletesPer100k,
                         String takenOn, String source) {
    /**
     * Multi-region nam5: $0.06 per 100,000 entity reads, $0.18 per 100,000 writes, $0.02 per 100,000 deletes. Free
     * daily usage (50,000 reads, 20,000 writes, 20,000 deletes on the default database) is not subtracted: a bulk job
     * spends it in its first seconds.
     */
    public static final PriceTable BUILT_IN = new PriceTable("nam5 (multi-region, US)", 0.06, 0.18, 0.02,
            "2026-11-23", "cloud.google.com/datastore/pricing, via cloud.google.com/firestore/pricing");

    public PriceTable {
        if (location == null || location.isBlank()) {
            throw new KeyRangerException("A price table needs a \"location\", e.g. \"us-central1\".");
        }
        for (double price : new double[] {readsPer100k, writesPer100k, deletesPer100k}) {
            if (!(price >= 0) || Double.isInfinite(price)) {
                throw new KeyRangerException("Prices in the price table must be zero or more dollars per 100,000 "
                        + "operations (got " + price + ").");
            }
        }
    }

    /** The price of these operations, in dollars. */
    public double price(long reads, long writes, long deletes) {
        return (reads * readsPer100k + writes * writesPer100k + deletes * deletesPer100k) / 100_000.0;
    }

    /**
     * One line: "20,000 reads, 20,000 writes, 0 deletes ≈ $0.05 at nam5 (multi-region, US) prices of 2026-11-23".
     */
    public String describe(long reads, long writes, long deletes) {
        double dollars = price(reads, writes, deletes);
        return String.format("%,d reads, %,d writes, %,d deletes ≈ %s at %s prices of %s", reads, writes, deletes,
                dollars(dollars), location, takenOn);
    }

    /**
     * One line for reads alone, where the writes and deletes are not known: "4,070 reads ≈ under $0.01 at nam5
     * (multi-region, US) prices of 2026-11-23, before any writes and deletes".
     */
    public String describeReads(long reads) {
        return String.format("%,d reads ≈ %s at %s prices of %s, before any writes and deletes", reads,
                dollars(price(reads, 0, 0)), location, takenOn);
    }

    static String dollars(double amount) {
        return amount == 0 ? "$0" : amount < 0.01 ? "under $0.01" : String.format("$%,.2f", amount);
    }
}

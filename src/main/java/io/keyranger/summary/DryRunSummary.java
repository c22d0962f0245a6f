package io.keyranger.summary;

import io.keyranger.cost.PriceTable;
import io.keyranger.dryrun.ClientMatches;
import io.keyranger.dryrun.DryRunner;
import java.util.ArrayList;
import java.util.List;

/**
 * The words a dry run's result is said in, the same on the command line and in the Mapper tab: what the sample was,
 * and the whole job's operations and price. Over conditions applied on the client it says how many entities match
 * and how that is known, and never gives a count of writes or deletes it does not know. The operations are counted
 * as every other estimate and the finished job count them ({@link Operations}).
 */
public final class DryRunSummary {
    private DryRunSummary() {
    }

    /** "20 entities", or "4,020 entities, 20 of them matching balance > 3900": what the shown rows come from. */
    public static String sample(DryRunner.Result result) {
        ClientMatches matches = result.matches();
        String entities = String.format("%,d entities", result.sampled());
        if (matches == null) {
            return entities;
        }
        return entities + String.format(", %,d of them matching %s", matches.inSample(), matches.conditions());
    }

    /**
     * The whole job: over which entities, its reads, writes and deletes and their price, then how many entities meet
     * the conditions applied on the client, if any. One line each.
     */
    public static List<String> wholeJob(DryRunner.Result result, PriceTable prices) {
        ClientMatches matches = result.matches();
        List<String> lines = new ArrayList<>();
        String over = "Whole job, over " + result.total().describe() + ": ";
        if (matches != null && matches.unknown()) {
            lines.add(over + prices.describeReads(result.reads()) + String.format("; how many entities it writes or "
                    + "deletes is unknown, at most %,d.", matches.upTo()));
        } else {
            lines.add(over + Operations.of(result).describe(prices)
                    + (matches != null && matches.estimated() ? " (writes and deletes estimated)." : "."));
        }
        if (matches != null) {
            lines.add(matches.describe());
        }
        return lines;
    }
}

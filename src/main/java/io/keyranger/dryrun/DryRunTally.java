package io.keyranger.dryrun;

import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.EntityJson;
import io.keyranger.keys.KeyFormat;
import io.keyranger.mapper.MapResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a dry run's pages add up to: the rows it shows (the sample's changes, deletes, copies, skips and counters)
 * and, over every page it read, the entities read and matched and the writes and deletes the mapper asked for.
 */
final class DryRunTally {
    final List<DryRunner.Change> changes = new ArrayList<>();
    final List<String> deletes = new ArrayList<>();
    final List<String> copies = new ArrayList<>();
    final List<DryRunner.Problem> problems = new ArrayList<>();
    final Map<String, Long> counters = new HashMap<>();
    long skipped;
    /** Entities in the shown sample. */
    int sampled;
    /** Of those, how many met the client-side conditions. */
    long sampledMatching;
    /** Entities read over every page. */
    long read;
    /** Of those, how many met the client-side conditions. */
    long matched;
    long puts;
    long deletions;

    /**
     * One page's result.
     *
     * @param before   the page's entities and the related ones the mapper saw, by key
     * @param keys     how many entities the page read
     * @param matching how many of them met the client-side conditions
     * @param show     whether the page is part of the shown sample
     */
    void add(MapResult result, Map<Key, Entity> before, int keys, long matching, boolean show) {
        read += keys;
        matched += matching;
        puts += result.puts().size();
        deletions += result.deletes().size();
        if (!show) {
            return;
        }
        sampled += keys;
        sampledMatching += matching;
        for (Entity put : result.puts()) {
            Entity original = before.get(put.getKey());
            if (original == null) {
                copies.add(KeyFormat.format(put.getKey()) + (put.getKey().getNamespace().isEmpty() ? ""
                        : " in namespace " + put.getKey().getNamespace()));
            } else {
                changes.addAll(diff(original, put));
            }
        }
        result.deletes().forEach(k -> deletes.add(KeyFormat.format(k)));
        skipped += result.skipped();
        result.counters().forEach((name, value) -> counters.merge(name, value, Long::sum));
        result.problems().forEach(p -> problems.add(new DryRunner.Problem(KeyFormat.format(p.key()), p.reason())));
    }

    private static List<DryRunner.Change> diff(Entity before, Entity after) {
        List<DryRunner.Change> changes = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>(before.getNames());
        names.addAll(after.getNames());
        String key = KeyFormat.format(before.getKey());
        for (String name : names) {
            String was = before.contains(name) ? EntityJson.cell(before.getValue(name)) : "(missing)";
            String now = after.contains(name) ? EntityJson.cell(after.getValue(name)) : "(removed)";
            boolean indexChanged = before.contains(name) && after.contains(name)
                    && before.getValue(name).excludeFromIndexes() != after.getValue(name).excludeFromIndexes();
            if (!was.equals(now) || indexChanged) {
                changes.add(new DryRunner.Change(key, name, was, now + (indexChanged ? " (index setting changed)" : "")));
            }
        }
        if (changes.isEmpty()) {
            changes.add(new DryRunner.Change(key, "(all)", "unchanged", "rewritten unchanged"));
        }
        return changes;
    }
}

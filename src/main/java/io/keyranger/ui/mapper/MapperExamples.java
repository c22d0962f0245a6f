package io.keyranger.ui.mapper;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.ui.common.Specs;
import java.nio.file.Path;
import java.util.List;

/** Specs that ship with the app, to start from. */
final class MapperExamples {
    /**
     * An example.
     *
     * @param title what it does
     * @param json  its spec
     */
    record Example(String title, String json) {
        @Override
        public String toString() {
            return title;
        }
    }

    private MapperExamples() {
    }

    static List<Example> all() {
        var purge = Specs.template("delete");
        purge.putArray("where").addObject().put("property", "environment").put("value", "test");
        return List.of(
                new Example("Add free credit",
                        Specs.text(Specs.template("increment").put("property", "balance").put("amount", 10))),
                new Example("Deactivate users", Specs.text(Specs.template("set").put("property", "active")
                        .put("type", "boolean").put("value", false))),
                new Example("Back up a kind to a file", Specs.text(Specs.exportTo(
                        Path.of(System.getProperty("user.home"), "keyranger-backup.jsonl")))),
                new Example("Purge test data", Specs.text(purge)),
                new Example("Count accounts by tier",
                        Specs.text(Specs.template("count-by").put("property", "tier"))),
                new Example("Double a balance and set a tier", Specs.text(doubleBalance())));
    }

    /** Doubles each open account's balance and makes those over 1,000 gold, from their balance before. */
    private static ObjectNode doubleBalance() {
        var spec = Specs.template("transform");
        spec.putObject("set").put("balance", "balance * 2").put("tier", "balance > 1000 ? 'gold' : tier");
        spec.put("where", "has(balance) && tier != 'closed'");
        return spec;
    }
}

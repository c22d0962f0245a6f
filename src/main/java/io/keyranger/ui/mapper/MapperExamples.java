package io.keyranger.ui.mapper;

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
        String backup = Path.of(System.getProperty("user.home"), "keyranger-backup.jsonl").toString()
                .replace("\\", "\\\\");
        return List.of(
                new Example("Add free credit", "{\"template\": \"increment\", \"property\": \"balance\", \"amount\": 10}"),
                new Example("Deactivate users", "{\"template\": \"set\", \"property\": \"active\", \"type\": \"boolean\", "
                        + "\"value\": false}"),
                new Example("Back up a kind to a file", "{\"template\": \"export\", \"file\": \"" + backup + "\"}"),
                new Example("Purge test data", "{\"template\": \"delete\", \"where\": [{\"property\": \"environment\", "
                        + "\"value\": \"test\"}]}"),
                new Example("Count accounts by tier", "{\"template\": \"count-by\", \"property\": \"tier\"}"));
    }
}

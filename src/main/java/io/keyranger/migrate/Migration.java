package io.keyranger.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.hash.Hashing;
import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One file of a migrations folder, {@code NNNN_description.json}: {@code {"steps": [STEP, ...]}}, each step a job
 * ({@link MigrationStep}). Its checksum is the SHA-256 of the file's bytes, so any change to an applied file is seen.
 *
 * @param number   the number its name starts with
 * @param name     its file's name
 * @param checksum the SHA-256 of its bytes, in hex
 * @param steps    its steps, in order
 */
public record Migration(int number, String name, String checksum, List<MigrationStep> steps) {
    /** The names of migration files: a number, an underscore, a description, {@code .json}. */
    static final Pattern FILE = Pattern.compile("(\\d{1,9})_([^/\\\\]+)\\.json");
    private static final ObjectMapper JSON = new ObjectMapper();

    public Migration {
        steps = List.copyOf(steps);
    }

    /** The number a migration file's name gives, or -1 for a file that is not one. */
    static int numberOf(String fileName) {
        Matcher m = FILE.matcher(fileName);
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The migration in {@code file}, refused with a message that names the file and what is wrong. */
    static Migration read(Path file) {
        String name = file.getFileName().toString();
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new KeyRangerException(name + " cannot be read: " + e.getMessage());
        }
        JsonNode json;
        try {
            json = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new KeyRangerException(name + " is not valid JSON: " + e.getMessage());
        }
        if (json == null || !json.path("steps").isArray() || json.get("steps").isEmpty()) {
            throw new KeyRangerException(name + ": a migration is {\"steps\": [STEP, ...]} with at least one step.");
        }
        List<MigrationStep> steps = new ArrayList<>();
        for (int i = 0; i < json.get("steps").size(); i++) {
            steps.add(MigrationStep.parse(json.get("steps").get(i), name + ", step " + (i + 1)));
        }
        return new Migration(numberOf(name), name, Hashing.sha256().hashBytes(bytes).toString(), steps);
    }

    /** "0002 (0002_fill_tier.json)". */
    public String describe() {
        return String.format("%04d (%s)", number, name);
    }
}

package io.keyranger.migrate;

import io.keyranger.KeyRangerException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** A folder of migration files ({@link Migration}), read whole and checked before anything is applied. */
public final class MigrationFolder {
    private MigrationFolder() {
    }

    /**
     * The migrations in {@code dir}, by number; refused (naming the file) when a file does not parse, two files share a
     * number, or a {@code .json} file's name is not {@code NNNN_description.json}.
     */
    public static List<Migration> read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new KeyRangerException("The migrations folder " + dir + " does not exist (or is not a folder).");
        }
        List<Path> files;
        try (Stream<Path> listed = Files.list(dir)) {
            files = listed.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(".json"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new KeyRangerException("The migrations folder " + dir + " cannot be read: " + e.getMessage());
        }
        Map<Integer, String> seen = new HashMap<>();
        List<Migration> migrations = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            int number = Migration.numberOf(name);
            if (number < 0) {
                throw new KeyRangerException(name + " is not named as a migration: NNNN_description.json (e.g. "
                        + "0001_fill_tier.json).");
            }
            String other = seen.put(number, name);
            if (other != null) {
                throw new KeyRangerException(name + " and " + other + " have the same number " + number + ".");
            }
            migrations.add(Migration.read(file));
        }
        migrations.sort(Comparator.comparingInt(Migration::number));
        return migrations;
    }
}

package io.keyranger.profile;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.keyranger.KeyRangerException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Saved connections in {@code profiles.json} under the config directory. Every change rewrites the file atomically.
 * A corrupt file is moved aside by the first {@link #load()}, which reports it; later calls see an empty list.
 */
public final class ProfileStore {
    static final String FILE_NAME = "profiles.json";

    private final Path file;

    public ProfileStore(Path configDir) {
        this.file = configDir.resolve(FILE_NAME);
    }

    public Path file() {
        return file;
    }

    /** All profiles; throws {@link CorruptFileException} once if the file was corrupt. */
    public List<ConnectionProfile> load() {
        return List.copyOf(JsonFiles.read(file, ProfilesFile.class, ProfilesFile.EMPTY).profiles());
    }

    public Optional<ConnectionProfile> find(String name) {
        return load().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The named profile, or an error that lists the ones that exist. */
    public ConnectionProfile require(String name) {
        return find(name).orElseThrow(() -> {
            List<String> names = load().stream().map(ConnectionProfile::name).toList();
            return new KeyRangerException("No saved connection named '" + name + "'"
                    + (names.isEmpty() ? "; none are saved yet." : "; saved: " + String.join(", ", names) + "."));
        });
    }

    /** Adds a profile, or replaces the one with the same name. */
    public void save(ConnectionProfile profile) {
        if (profile.name() == null || profile.name().isBlank()) {
            throw new KeyRangerException("A saved connection needs a name.");
        }
        List<ConnectionProfile> profiles = new ArrayList<>(load());
        profiles.removeIf(p -> p.name().equals(profile.name()));
        profiles.add(profile);
        JsonFiles.write(file, new ProfilesFile(1, profiles));
    }

    public void delete(String name) {
        List<ConnectionProfile> profiles = new ArrayList<>(load());
        if (profiles.removeIf(p -> p.name().equals(name))) {
            JsonFiles.write(file, new ProfilesFile(1, profiles));
        }
    }

    /** The file's shape; {@code version} leaves room for migrations. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record ProfilesFile(int version, List<ConnectionProfile> profiles) {
        static final ProfilesFile EMPTY = new ProfilesFile(1, List.of());

        ProfilesFile {
            profiles = profiles == null ? List.of() : profiles;
        }
    }
}

package io.keyranger.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which java runs the emulator: the installed app's trimmed runtime has no java launcher of its own. */
class JavaLocatorTest {
    @TempDir
    Path dir;

    private Path fakeJava(String home) throws Exception {
        Path java = dir.resolve(home).resolve("bin").resolve("java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    @Test
    void prefersTheRuntimeRunningKeyRangerWhenItHasALauncher() throws Exception {
        Path own = fakeJava("own");
        fakeJava("jdk");
        assertThat(JavaLocator.find(Map.of("JAVA_HOME", dir.resolve("jdk").toString()), dir.resolve("own"), false))
                .contains(own);
    }

    @Test
    void aTrimmedRuntimeFallsBackToJavaHomeThenThePath() throws Exception {
        Files.createDirectories(dir.resolve("trimmed/bin"));
        Path jdk = fakeJava("jdk");
        Path onPath = fakeJava("path");
        Path trimmed = dir.resolve("trimmed");
        String path = dir.resolve("nowhere") + File.pathSeparator + onPath.getParent();
        assertThat(JavaLocator.find(Map.of("JAVA_HOME", jdk.getParent().getParent().toString(), "PATH", path), trimmed,
                false)).contains(jdk);
        assertThat(JavaLocator.find(Map.of("PATH", path), trimmed, false)).contains(onPath);
        assertThat(JavaLocator.find(Map.of("PATH", dir.resolve("nowhere").toString()), trimmed, false)).isEmpty();
    }

    @Test
    void javaFromTheEnvironmentWinsAsTheEmulatorScriptWouldHaveIt() throws Exception {
        fakeJava("own");
        assertThat(JavaLocator.find(Map.of("JAVA", "/opt/java/bin/java"), dir.resolve("own"), false))
                .contains(Path.of("/opt/java/bin/java"));
    }
}

package io.keyranger;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/** The core stays free of JavaFX so that the CLI, tests and a future distributed runner can drive it. */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.keyranger");

    private static final String[] CORE = {"io.keyranger", "io.keyranger.datastore..", "io.keyranger.emulator..",
        "io.keyranger.demo..", "io.keyranger.profile..", "io.keyranger.cli..", "io.keyranger.keys..",
        "io.keyranger.sharding..", "io.keyranger.executor..", "io.keyranger.mapper..", "io.keyranger.counter..",
        "io.keyranger.bench..", "io.keyranger.logging..", "io.keyranger.model.."};

    @Test
    void everyPackageNamedHereExists() {
        for (String pkg : CORE) {
            String name = pkg.replace("..", "");
            assertThat(MAIN.stream().anyMatch(c -> c.getPackageName().equals(name))).as(name).isTrue();
        }
    }

    @Test
    void theUiNeverUsesTheCommandLine() {
        noClasses().that().resideInAPackage("io.keyranger.ui..")
                .should().dependOnClassesThat().resideInAPackage("io.keyranger.cli..")
                .check(MAIN);
    }

    @Test
    void corePackagesNeverUseJavaFx() {
        ArchRule rule = noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("javafx..", "org.controlsfx..", "atlantafx..",
                        "org.kordamp.ikonli..", "io.keyranger.ui..", "io.keyranger.app..")
                .allowEmptyShould(false);
        rule.check(MAIN);
    }

    @Test
    void viewModelsNeverTouchControls() {
        noClasses().that().haveSimpleNameEndingWith("ViewModel")
                .should().dependOnClassesThat().resideInAnyPackage("javafx.scene..")
                .check(MAIN);
    }
}

package io.keyranger.beam;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.keyranger.KeyRangerException;
import io.keyranger.support.Layers;
import org.junit.jupiter.api.Test;

/**
 * The Beam runner in the app's layers ({@link Layers}): a front end over the engine, the job API and the features, like
 * the command line and the window, and apart from them.
 */
class BeamArchitectureTest {
    private static final JavaClasses BEAM = Layers.mainClassesOf(BeamMain.class);
    private static final JavaClasses WITH_THE_APP = Layers.mainClassesOf(BeamMain.class, KeyRangerException.class);

    @Test
    void everyPackageOfTheModuleSitsInExactlyOneLayer() {
        assertThat(BEAM).isNotEmpty();
        assertThat(Layers.misplacedPackages(BEAM)).as("packages with no layer, or two").isEmpty();
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        Layers.architecture().check(WITH_THE_APP);
    }

    @Test
    void beamNeverUsesTheWindowOrTheBenchmarks() {
        noClasses().that().resideInAPackage("io.keyranger.beam..").should().dependOnClassesThat()
                .resideInAnyPackage("io.keyranger.ui..", "io.keyranger.app..", "io.keyranger.bench..",
                        "io.keyranger.model..", "io.keyranger.sim..")
                .check(BEAM);
    }

    /**
     * Beam's runner is a command line of its own: it shares the report model's printers with the app's, never the app's
     * commands. Its one test hook, fault injection behind the hidden --faults pipeline option (the exactly-once suites
     * on Beam use it), is the same {@code testhooks} class the app's hidden --inject-faults uses.
     */
    @Test
    void beamNeverUsesTheAppsCommandLine() {
        noClasses().that().resideInAPackage("io.keyranger.beam..").should().dependOnClassesThat()
                .resideInAnyPackage("io.keyranger.cli..")
                .check(BEAM);
    }
}

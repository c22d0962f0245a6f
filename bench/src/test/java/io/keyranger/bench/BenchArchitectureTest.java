package io.keyranger.bench;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.keyranger.KeyRangerException;
import io.keyranger.bench.cli.BenchMain;
import io.keyranger.support.Layers;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks and the production model server in the app's layers ({@link Layers}): the top layer, so they may drive
 * anything and nothing of the app uses them.
 */
class BenchArchitectureTest {
    private static final JavaClasses BENCH = Layers.mainClassesOf(BenchMain.class);
    private static final JavaClasses WITH_THE_APP = Layers.mainClassesOf(BenchMain.class, KeyRangerException.class);

    @Test
    void everyPackageOfTheModuleSitsInExactlyOneLayer() {
        assertThat(BENCH).isNotEmpty();
        assertThat(Layers.misplacedPackages(BENCH)).as("packages with no layer, or two").isEmpty();
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        Layers.architecture().check(WITH_THE_APP);
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.keyranger.(**)").should().beFreeOfCycles().check(BENCH);
    }
}

package io.keyranger.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.profile.AppSettings;
import io.keyranger.profile.SettingsStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PriceTableTest {
    @TempDir
    Path dir;

    @Test
    void pricesOperationsPerHundredThousandAndSaysWhereAndWhen() {
        PriceTable table = PriceTable.BUILT_IN;
        assertThat(table.price(100_000, 0, 0)).isEqualTo(0.06);
        assertThat(table.price(1_000_000, 1_000_000, 500_000)).isCloseTo(0.6 + 1.8 + 0.1, Offset.offset(1e-9));
        assertThat(table.describe(20_000, 20_000, 0))
                .isEqualTo("20,000 reads, 20,000 writes, 0 deletes ≈ $0.05 at nam5 (multi-region, US) prices of 2026-11-23");
        assertThat(table.describe(10, 0, 0)).contains("≈ under $0.01");
        assertThat(table.describe(0, 0, 0)).contains("≈ $0 ");
    }

    @Test
    void aUsersOwnPricesComeFromSettingsAndBadOnesAreRefused() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{\"darkTheme\": true, \"prices\": {\"location\": "
                + "\"us-central1\", \"readsPer100k\": 0.03, \"writesPer100k\": 0.09, \"deletesPer100k\": 0.01, "
                + "\"takenOn\": \"2026-01-01\", \"source\": \"my invoice\"}}");
        AppSettings settings = new SettingsStore(dir).load();
        assertThat(settings.priceTable().location()).isEqualTo("us-central1");
        assertThat(settings.priceTable().price(100_000, 100_000, 100_000)).isCloseTo(0.13, Offset.offset(1e-9));
        assertThat(AppSettings.DEFAULTS.priceTable()).isEqualTo(PriceTable.BUILT_IN);
        assertThatThrownBy(() -> new PriceTable("x", -1, 0, 0, "2026-01-01", "s")).hasMessageContaining("zero or more");
    }
}

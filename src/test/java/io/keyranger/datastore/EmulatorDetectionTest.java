package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import io.keyranger.support.SharedEmulator;
import org.junit.jupiter.api.Test;

/** {@code --emulator-host} finds out which of Google's emulators answers there, from the emulator's own answers. */
class EmulatorDetectionTest {
    @Test
    void eachEmulatorIsToldApartByItsOwnAnswer() {
        for (ServerType type : new ServerType[] {ServerType.EMULATOR, ServerType.FIRESTORE_EMULATOR}) {
            String host = SharedEmulator.get(type).hostPort();
            assertThat(DatastoreConnector.detectEmulator(host, "detect-" + (type == ServerType.EMULATOR ? "legacy" : "firestore")))
                    .as("at %s", host).isEqualTo(type);
        }
    }
}

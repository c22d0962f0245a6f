package io.keyranger.demo;

import io.keyranger.datastore.ServerType;
import java.nio.file.Path;

/**
 * Start an emulator and seed the demo data.
 *
 * @param accounts how many Accounts to seed
 * @param port     the emulator's port, 0 for a free one
 * @param cloudSdk the Cloud SDK root, or null to find it
 * @param emulator which emulator: {@link ServerType#EMULATOR} (the legacy Datastore one) or
 *                 {@link ServerType#FIRESTORE_EMULATOR} (the Firestore one in Datastore mode)
 */
public record DemoRequest(int accounts, int port, Path cloudSdk, ServerType emulator) {
    public DemoRequest {
        if (!emulator.isEmulator()) {
            throw new IllegalArgumentException(emulator + " is not an emulator");
        }
    }

    /** The demo on the legacy Datastore emulator. */
    public DemoRequest(int accounts, int port, Path cloudSdk) {
        this(accounts, port, cloudSdk, ServerType.EMULATOR);
    }

    /** The same demo on emulator {@code type}. */
    public DemoRequest on(ServerType type) {
        return new DemoRequest(accounts, port, cloudSdk, type);
    }
}

package io.keyranger.demo;

import java.nio.file.Path;

/**
 * Start an emulator and seed the demo data.
 *
 * @param accounts how many Accounts to seed
 * @param port     the emulator's port, 0 for a free one
 * @param cloudSdk the Cloud SDK root, or null to find it
 */
public record DemoRequest(int accounts, int port, Path cloudSdk) {
}

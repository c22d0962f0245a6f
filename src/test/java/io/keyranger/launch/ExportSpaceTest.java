package io.keyranger.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.executor.local.AdaptiveSplitExecutor;
import io.keyranger.job.JobListener;
import io.keyranger.job.JobResult;
import io.keyranger.job.JobSpec;
import io.keyranger.job.JobStatus;
import io.keyranger.keys.KeyOrder;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.support.SharedEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportSpaceTest {
    @TempDir
    Path dir;

    @Test
    void theEstimateIsCloseToTheExportAndADiskTooSmallIsRefusedWithBothFigures() throws Exception {
        Datastore datastore = SharedEmulator.connect(SharedEmulator.freshProject("space"));
        List<Entity> all = new ArrayList<>();
        for (int i = 1; i <= 400; i++) {
            all.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Doc").newKey(i)).set("text", "t".repeat(i % 97))
                    .set("n", i).build());
        }
        datastore.put(all.toArray(new Entity[0]));
        Path file = dir.resolve("doc.jsonl");
        JobSpec spec = new JobSpec("export-doc", "", "Doc", MapperSpec.parse("{\"template\":\"export\",\"file\":\""
                + file + "\"}"), 4, 2, 50, 0);
        ExportSpace.Estimate estimate = ExportSpace.estimate(datastore, KeyOrder.EMULATOR, spec);
        ExportSpace.check(estimate, file); // a few hundred KB fit anywhere
        JobResult result = new AdaptiveSplitExecutor(datastore, KeyOrder.EMULATOR, ServerLimits.EMULATOR)
                .start(spec, JobListener.NONE).await();
        assertThat(result.status()).isEqualTo(JobStatus.DONE);
        double ratio = (double) estimate.bytes() / Files.size(file);
        assertThat(ratio).as("estimate %d vs %d bytes", estimate.bytes(), Files.size(file)).isBetween(0.5, 2.0);
        assertThatThrownBy(() -> ExportSpace.check(new ExportSpace.Estimate(Long.MAX_VALUE / 4, 1_000_000_000L), file))
                .hasMessageStartingWith("Not enough room for the export: about 1,000,000,000 entities")
                .hasMessageContaining("MB free");
    }
}
